/**
 * How a PayIn or PayOut create whose answer was lost is settled, and how a transaction lookup
 * returns the transaction asked for and no other (docs/reliability.md). Core runs the strategy;
 * the knowledge of the service lives here:
 * - the lookup is GET /api/v1/transaction/{ticket} ("GET /api/v1/transaction/{ticket}"), whose
 *   `data` is documented as an array and sampled as an object;
 * - a found transaction is this create only when it shows the same reference, kind
 *   (`type_transaction`, where it says PAYIN or PAYOUT), amount and currency, and where it shows
 *   them the same payment method and customer document. Anything less stays unknown.
 */
import { AmbiguousTransactionError, NotFoundError } from '../core/errors.js';
import type { AnswerInfo, CallSpec, Finding, Recovery, RecoveryFactory, Runner } from '../core/types.js';
import type { Transaction, TransactionSchema } from '../schemas/transaction.js';
import { OPERATIONS } from './operations.js';
import { buildPath } from './paths.js';
import type { TransactionKind as Kind, RecoveryDescriptor, RecoveryMatch } from './types.js';

/** A ticket or reference as the SDK sends and compares it: surrounding blanks trimmed. */
export function normaliseId(id: string): string {
  return id.trim();
}

/**
 * GET /api/v1/transaction/{id}, with `id` in the path exactly as given: the transaction whose
 * ticket or reference is `id` (compared after {@link normaliseId}), and no other.
 */
export function transactionLookup(id: string): CallSpec<typeof TransactionSchema.tolerant> {
  const operation = OPERATIONS['transactions.get'];
  const wanted = normaliseId(id);
  return {
    method: operation.method,
    path: buildPath(operation, { ticket: id }),
    operation: operation.id,
    template: operation.template,
    response: operation.response,
    unwrap: (data, answer) => selectTransaction(data, wanted, answer),
    resend: 'safe',
  };
}

/** The one element of `data` whose ticket or reference is `id`; several or none is an error. */
export function selectTransaction(data: unknown, id: string, answer: AnswerInfo): unknown {
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
  return (sent) => {
    const body = asRecord(sent);
    const reference = body?.[descriptor.key];
    if (typeof reference !== 'string' || reference === '') return undefined;
    return {
      key: reference,
      howToLookUp: `client.transactions.get('${reference}')`,
      find: (run) => find(run, descriptor, body as Record<string, unknown>, reference),
      idIn: ticketIn,
      contradiction: (value) => contradictionOf(value, body as Record<string, unknown>, reference),
    } satisfies Recovery;
  };
}

/**
 * Where a create's 2xx answer contradicts what was sent: its echo (`transaction`) names another
 * reference, amount or currency. Fields the answer leaves out prove nothing either way.
 */
function contradictionOf(
  value: unknown,
  sent: Record<string, unknown>,
  reference: string,
): string | undefined {
  const echo = asRecord(asRecord(value)?.transaction);
  if (!echo) return undefined;
  const wrong: string[] = [];
  if (echo.reference !== undefined && echo.reference !== reference) wrong.push('reference');
  if (echo.amount !== undefined && Number(echo.amount) !== Number(sent.amount)) wrong.push('amount');
  if (echo.currency !== undefined && echo.currency !== sent.currency) wrong.push('currency');
  return wrong.length ? `echoes another ${wrong.join(', ')} than the one sent` : undefined;
}

async function find(
  run: Runner,
  descriptor: RecoveryDescriptor,
  sent: Record<string, unknown>,
  reference: string,
): Promise<Finding> {
  let found: Transaction;
  try {
    found = await run(transactionLookup(reference));
  } catch (error) {
    if (error instanceof NotFoundError) return { kind: 'absent' };
    if (error instanceof AmbiguousTransactionError) {
      const why = `the lookup shows ${error.tickets.length} transactions with this reference (tickets ${error.tickets.join(', ')}): it may have been created more than once`;
      return { kind: 'unproven', why, cause: error };
    }
    throw error;
  }
  const differences = differencesOf(found, sent, descriptor, reference);
  if (differences.length) {
    const why = `the lookup found transaction ${found.ticket}, but ${differences.join('; ')}, so it is not proven to be this create (was the reference used before?)`;
    return { kind: 'unproven', why };
  }
  return { kind: 'found', id: found.ticket, result: rebuild(found, sent, descriptor.echoed) };
}

/**
 * Every way the found transaction fails to be provably this create (empty: proven): the table's
 * match rows (reference, currency, amount, customer document), then what is checked for every
 * create whatever the table says: the reference as sent, the kind where `type_transaction` names
 * it, and the payment method and document type where the lookup shows them.
 */
export function differencesOf(
  found: Transaction,
  sent: Record<string, unknown>,
  descriptor: Pick<RecoveryDescriptor, 'kind' | 'match'>,
  reference: string,
): string[] {
  const out = descriptor.match.flatMap((row) => rowDifference(found, sent, row));
  if (typeof found.reference !== 'string' || normaliseId(found.reference) !== normaliseId(reference)) {
    out.push(`its reference is ${shown(found.reference)}`);
  }
  const shownKind = kindOf(found.type_transaction);
  if (shownKind !== undefined && shownKind !== descriptor.kind) {
    out.push(`it is a ${shownKind}, not a ${descriptor.kind}`);
  }
  const extra: RecoveryMatch[] = [
    { request: 'payment_method', found: 'payment_method', compare: 'exact', required: 'when-present' },
    {
      request: 'customer_data.legal_doc_type',
      found: 'customer.legal_doc_type',
      compare: 'exact',
      required: 'when-present',
    },
  ];
  for (const row of extra) out.push(...rowDifference(found, sent, row));
  return [...new Set(out)];
}

/** One match row: '' when the two sides agree (or, for 'when-present', the lookup does not show it). */
function rowDifference(found: unknown, sent: unknown, row: RecoveryMatch): string[] {
  const theirs = at(found, row.found);
  const ours = at(sent, row.request);
  const absent = theirs === undefined || theirs === null || theirs === '';
  if (absent && row.required === 'when-present') return [];
  const same = row.compare === 'amount' ? sameNumber(theirs, ours) : sameText(theirs, ours);
  if (same) return [];
  // Customer fields are PII: named, never quoted.
  if (row.found.startsWith('customer')) return [`its ${row.found} differs`];
  return absent
    ? [`it does not show its ${row.found}`]
    : [`its ${row.found} is ${shown(theirs)}, not ${shown(ours)}`];
}

function at(value: unknown, path: string): unknown {
  let current = value;
  for (const key of path.split('.')) current = asRecord(current)?.[key];
  return current;
}

/** PAYIN / PAYOUT when `type_transaction` says so (any case or spacing); a descriptive word proves nothing. */
function kindOf(label: unknown): Kind | undefined {
  if (typeof label !== 'string') return undefined;
  const shape = label.toUpperCase().replace(/[^A-Z]/g, '');
  return shape === 'PAYIN' || shape === 'PAYOUT' ? shape : undefined;
}

function sameNumber(a: unknown, b: unknown): boolean {
  const x = typeof a === 'string' && a.trim() !== '' ? Number(a) : a;
  return typeof x === 'number' && typeof b === 'number' && Number.isFinite(x) && x === b;
}

function sameText(a: unknown, b: unknown): boolean {
  const text = (v: unknown) =>
    typeof v === 'string' || typeof v === 'number' ? String(v).trim().toUpperCase() : undefined;
  const [x, y] = [text(a), text(b)];
  return x !== undefined && x === y;
}

function shown(value: unknown): string {
  return value === undefined || value === null ? 'not shown' : JSON.stringify(value);
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

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}
