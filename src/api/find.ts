/**
 * The one decision around the match rule (match.ts): what a lookup of a claimed transaction
 * shows. Reconciliation (recovery.ts), the PayOut step of a batch (src/bulk/item.ts) and
 * `confirmWith` (src/webhooks/confirm.ts) each word the outcome for their caller, but which of
 * the three it is is decided here, once:
 * - `found`: the lookup shows one transaction and the rule proves it is the claimed one;
 * - `absent`: the service shows no transaction with that id (a 404: a NotFoundError, or the
 *   lookup's NOT_FOUND when it was made to expect a miss, core/call.ts);
 * - `unproven`: it shows something the rule does not prove — another transaction's details, or
 *   several transactions with that id.
 * A lookup that fails otherwise rejects with its own error; one that resolves no transaction
 * (`null`, `undefined`, a value without a ticket: a wrapper that swallowed its error) rejects
 * with an {@link UnusableLookupError}: it could not be made, and proves nothing.
 */
import { NOT_FOUND } from '../core/call.js';
import { AmbiguousTransactionError, NotFoundError, PayinoutError } from '../core/errors.js';
import { isRecord } from '../core/guards.js';
import type { Transaction } from '../schemas/transaction.js';
import { type Mismatch, mismatches } from './match.js';
import type { MatchRule } from './types.js';

export type Finding =
  | { kind: 'found'; transaction: Transaction }
  | { kind: 'absent' }
  | {
      kind: 'unproven';
      /** Why, for a message: what the lookup shows instead. Customer values are never quoted. */
      why: string;
      /** Every way the shown transaction differs from the claim (empty when several showed). */
      mismatches: Mismatch[];
      /** The transaction shown, when one was. */
      transaction?: Transaction;
      /** The lookup's error when it showed several transactions with that id. */
      cause?: AmbiguousTransactionError;
    };

const ABSENT: Finding = Object.freeze({ kind: 'absent' });

/** A lookup that resolved something other than a transaction: it could not be made. */
export class UnusableLookupError extends PayinoutError {
  override name = 'UnusableLookupError';
  constructor(got: unknown) {
    const shown = got === null ? 'null' : Array.isArray(got) ? 'an array' : typeof got;
    super(
      `The lookup resolved ${shown === 'object' ? 'an object without a ticket' : shown}, not a transaction, so it proves nothing. ` +
        'A lookup must resolve the transaction or reject (a wrapper that swallows its error hides why); try again once it does.',
    );
  }
}

/** Runs `lookup` and decides, by the match rule's `rule`, what it shows of `claim`. */
export async function find(
  lookup: () => Promise<unknown>,
  claim: unknown,
  rule: MatchRule,
): Promise<Finding> {
  let shown: unknown;
  try {
    shown = await lookup();
  } catch (error) {
    // Several first: an answer that shows several is never read as showing none.
    if (error instanceof AmbiguousTransactionError) {
      const tickets = error.tickets.join(', ');
      const why = `the lookup shows ${error.tickets.length} transactions with that ticket or reference (tickets ${tickets})`;
      return { kind: 'unproven', why, mismatches: [], cause: error };
    }
    if (isAbsence(error)) return ABSENT;
    throw error;
  }
  if (shown === NOT_FOUND) return ABSENT;
  if (!isTransaction(shown)) throw new UnusableLookupError(shown);
  const differences = mismatches(shown, claim, rule);
  if (differences.length === 0) return { kind: 'found', transaction: shown };
  const why = `the lookup found transaction ${shown.ticket}, but ${differences.map((m) => m.text).join('; ')}`;
  return { kind: 'unproven', why, mismatches: differences, transaction: shown };
}

/**
 * The service shows no transaction with that id: a `NotFoundError`, or any error carrying
 * status 404 (a custom `confirmWith` lookup's own error class).
 */
function isAbsence(error: unknown): boolean {
  return error instanceof NotFoundError || (isRecord(error) && error.status === 404);
}

function isTransaction(value: unknown): value is Transaction {
  if (!isRecord(value)) return false;
  const { ticket } = value;
  return (typeof ticket === 'string' && ticket.trim() !== '') || typeof ticket === 'number';
}
