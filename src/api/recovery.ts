/**
 * How a PayIn or PayOut create whose answer was lost is settled, and how a transaction lookup
 * returns the transaction asked for and no other (node_modules/payinout/docs/reliability.md or https://github.com/payinout/payinout/blob/main/docs/reliability.md). Core runs the strategy;
 * the knowledge of the service lives here:
 * - the lookup is GET /api/v1/transaction/{ticket} ("GET /api/v1/transaction/{ticket}"), whose
 *   `data` is documented as an array and sampled as an object;
 * - a found transaction is this create only when the one match rule (match.ts) over the table's
 *   rows proves it: same reference, kind (where `type_transaction` says PAYIN or PAYOUT), amount
 *   and currency, and where it shows them the same payment method, customer document and (for a
 *   PayOut) destination. Anything less stays unknown.
 */

import {
  type Answer,
  Call,
  type Finding,
  type Recovery,
  type RecoveryFactory,
  type Runner,
} from '../core/call.js';
import { AmbiguousTransactionError, NotFoundError, RequestValidationError } from '../core/errors.js';
import { asRecord } from '../core/guards.js';
import type { Transaction, TransactionSchema } from '../schemas/transaction.js';
import { errorsOf } from './errors.js';
import { find } from './find.js';
import { mismatches } from './match.js';
import { OPERATIONS } from './operations.js';
import { buildPath } from './paths.js';
import type { MatchRule, RecoveryDescriptor } from './types.js';

/** A ticket or reference as the SDK sends and compares it: surrounding blanks trimmed. */
export function normaliseId(id: string): string {
  return id.trim();
}

/**
 * A caller's ticket or reference, normalised, or a typed refusal before anything is sent: it
 * must be a non-empty string, and a lone surrogate (which would make encodeURIComponent throw a
 * plain URIError) is refused too.
 */
export function checkedLookupId(id: unknown): string {
  if (typeof id === 'string' && id.trim() !== '' && !hasLoneSurrogate(id)) return normaliseId(id);
  const issue = {
    path: 'ticketOrReference',
    message: 'must be a non-empty string: the service ticket or your reference',
  };
  throw new RequestValidationError('transaction lookup', [issue], false);
}

/** Run for every lookup: the pairs are taken out (a copy of the id) only when it has a surrogate at all. */
function hasLoneSurrogate(id: string): boolean {
  return (
    /[\uD800-\uDFFF]/.test(id) && /[\uD800-\uDFFF]/.test(id.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g, ''))
  );
}

/**
 * GET /api/v1/transaction/{id}, with `id` in the path exactly as given: the transaction whose
 * ticket or reference is `id` (compared after {@link normaliseId}), and no other.
 */
export function transactionLookup(id: string): Call<typeof TransactionSchema.tolerant> {
  const operation = OPERATIONS['transactions.get'];
  const wanted = normaliseId(id);
  const entry = {
    method: operation.method,
    operation: operation.id,
    template: operation.template,
    request: undefined,
    response: operation.response,
    resend: 'safe' as const,
    errors: errorsOf(operation),
  };
  const lookup = new Call(entry, buildPath(operation, { ticket: id }), undefined);
  lookup.unwrap = (data, answer) => selectTransaction(data, wanted, answer);
  return lookup;
}

/** The one element of `data` whose ticket or reference is `id`; several or none is an error. */
export function selectTransaction(data: unknown, id: string, answer: Answer): unknown {
  const list = Array.isArray(data) ? data : data === null || data === undefined ? [] : [data];
  const matches = list.filter((item) => idOf(item, 'ticket') === id || idOf(item, 'reference') === id);
  if (matches.length === 1) return matches[0];
  if (matches.length > 1) {
    const tickets = matches.map((item) => idOf(item, 'ticket') ?? '(no ticket)');
    throw new AmbiguousTransactionError({
      id,
      tickets,
      method: answer.method,
      path: answer.path,
      attempts: answer.attempts,
    });
  }
  const shown =
    list.length === 0
      ? 'no transaction'
      : `${list.length} transaction(s), none with that ticket or reference`;
  throw new NotFoundError({
    status: answer.status,
    body: undefined,
    method: answer.method,
    path: answer.path,
    attempts: answer.attempts,
    advice: `The service answered HTTP ${answer.status} with ${shown}, so transaction '${id}' was not found. Check the ticket or reference and the environment.`,
  });
}

function idOf(item: unknown, key: 'ticket' | 'reference'): string | undefined {
  if (item === null || typeof item !== 'object') return undefined;
  const value = (item as Record<string, unknown>)[key];
  return typeof value === 'string' || typeof value === 'number' ? normaliseId(String(value)) : undefined;
}

/**
 * The executable recovery of a create, from its table entry's descriptor: look the key (the
 * reference) up exactly as it was sent, prove the match, and rebuild the created shape.
 */
export function recoveryFor(descriptor: RecoveryDescriptor): RecoveryFactory {
  const echo = echoRule(descriptor);
  return (sent) => {
    const body = asRecord(sent);
    const reference = body?.[descriptor.key];
    if (typeof reference !== 'string' || reference === '') return undefined;
    return new SentCreate(descriptor, echo, body as Record<string, unknown>, reference);
  };
}

/**
 * The recovery of one create, from the body it sends. A class: made for every create, and its
 * methods run only when an answer is lost or contradicts what was sent.
 */
class SentCreate implements Recovery {
  readonly #descriptor: RecoveryDescriptor;
  readonly #echo: MatchRule;
  // Private: the body holds the customer's data, which nothing that inspects a recovery may show.
  readonly #body: Record<string, unknown>;

  constructor(
    descriptor: RecoveryDescriptor,
    echo: MatchRule,
    body: Record<string, unknown>,
    readonly key: string,
  ) {
    this.#descriptor = descriptor;
    this.#echo = echo;
    this.#body = body;
  }

  get howToLookUp(): string {
    return `client.transactions.get('${this.key}')`;
  }

  find(run: Runner): Promise<Finding> {
    return settle(run, this.#descriptor, this.#body, this.key);
  }

  idIn(body: unknown): string | undefined {
    return ticketIn(body);
  }

  contradiction(value: unknown): string | undefined {
    return contradictionOf(value, this.#body, this.#echo);
  }
}

/**
 * The facts a create's 2xx answer must not contradict: the ones the match rule always requires
 * (reference, amount, currency), compared where the answer's echo (`transaction`) shows them —
 * fields it leaves out prove nothing either way.
 */
function echoRule(descriptor: RecoveryDescriptor): MatchRule {
  const match = descriptor.match
    .filter((row) => row.required === 'always')
    .map((row) => ({ ...row, required: 'when-present' as const }));
  return { match };
}

/** Where a create's 2xx answer contradicts what was sent, by {@link echoRule}. */
function contradictionOf(value: unknown, sent: Record<string, unknown>, rule: MatchRule): string | undefined {
  const echo = asRecord(asRecord(value)?.transaction);
  if (!echo) return undefined;
  const wrong = mismatches(echo, sent, rule);
  return wrong.length
    ? `echoes another ${wrong.map((m) => m.field).join(', ')} than the one sent`
    : undefined;
}

async function settle(
  run: Runner,
  descriptor: RecoveryDescriptor,
  sent: Record<string, unknown>,
  reference: string,
): Promise<Finding> {
  const finding = await find(() => run(transactionLookup(reference)), sent, descriptor);
  if (finding.kind === 'absent') return { kind: 'absent' };
  if (finding.kind === 'found') {
    const { transaction } = finding;
    return { kind: 'found', id: transaction.ticket, result: rebuild(transaction, sent, descriptor.echoed) };
  }
  if (finding.cause)
    return {
      kind: 'unproven',
      why: `${finding.why}: it may have been created more than once`,
      cause: finding.cause,
    };
  return {
    kind: 'unproven',
    why: `${finding.why}, so it is not proven to be this create (was the reference used before?)`,
  };
}

/** The created-shape result, rebuilt from the lookup; fields only the create answer carries are absent. */
function rebuild(found: Transaction, sent: Record<string, unknown>, echoed: readonly string[]): object {
  const transaction: Record<string, unknown> = {
    reference: found.reference,
    amount: found.amount,
    currency: found.currency,
  };
  for (const key of echoed) if (typeof sent[key] === 'string') transaction[key] = sent[key];
  const result = { ticket: found.ticket, date: found.date, transaction, recovered: true as const };
  Object.defineProperty(result, 'recoveredTransaction', { value: found, enumerable: false });
  return result;
}

/** The ticket of a create answer that could not be read: parsed, or found in the raw text. */
function ticketIn(body: unknown): string | undefined {
  const data = asRecord(asRecord(body)?.data) ?? asRecord(body);
  const ticket = data?.ticket;
  if (typeof ticket === 'string' && ticket !== '') return ticket;
  if (typeof ticket === 'number') return String(ticket);
  if (typeof body !== 'string') return undefined;
  return /"ticket"\s*:\s*"([^"\\]{1,100})"/.exec(body)?.[1] ?? /"ticket"\s*:\s*(\d{1,30})\b/.exec(body)?.[1];
}
