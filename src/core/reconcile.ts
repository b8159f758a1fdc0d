/**
 * Create reconciliation (docs/reliability.md, "Creates").
 *
 * The service has no idempotency key, but a merchant `reference` is unique per merchant and can
 * be looked up. So when a create may have reached the service without a readable answer, the
 * reference is looked up before anything else:
 *   found     → the create happened: resolve with it, marked `recovered: true`;
 *   not found → resend, within maxRetries;
 *   no answer → reject with ConnectionError `outcome: 'unknown'`, naming the reference.
 * Invariant: never two create POSTs for one reference without a lookup between them.
 */
import type { Transaction } from '../schemas/transaction.js';
import {
  ApiError,
  AuthenticationError,
  ConnectionError,
  NotFoundError,
  PayinoutError,
  ResponseValidationError,
  UnprocessableEntityError,
} from './errors.js';
import { failureOf, isRetriableStatus, retryAfterMs, retryDelayMs, sleep } from './retry.js';
import type { Logger, ResponseMeta, WithResponse } from './transport.js';

export interface CreateIO {
  reference: string;
  /** The create body as sent (validated). */
  body: unknown;
  method: string;
  path: string;
  /** How many times the create may be resent. */
  maxRetries: number;
  signal: AbortSignal | undefined;
  /** HTTP requests made so far for this call, lookups included. */
  attempts(): number;
  /** One create POST, read to a typed result or a typed error. */
  send(): Promise<WithResponse<unknown>>;
  /** The transaction lookup, with its own safe retries. */
  lookup(): Promise<WithResponse<Transaction>>;
  logger: Logger | undefined;
}

/**
 * - final: the service refused (4xx) or answered something not worth repeating;
 * - not_sent: provably never reached the service (connection refused): resend without lookup;
 * - maybe: may have been processed (reset, timeout, 5xx, 408, 429, a 2xx with an unreadable body).
 */
type Verdict = 'final' | 'not_sent' | 'maybe';

function verdictOf(error: unknown): Verdict {
  if (error instanceof ConnectionError) return error.outcome === 'not_sent' ? 'not_sent' : 'maybe';
  if (error instanceof ApiError) {
    // The body's error identifier is a sign of rejection whatever the status (createApiError).
    const refused =
      error instanceof UnprocessableEntityError ||
      error instanceof AuthenticationError ||
      error instanceof NotFoundError;
    return !refused && isRetriableStatus(error.status) ? 'maybe' : 'final';
  }
  if (error instanceof ResponseValidationError && failureOf(error).unreadable) return 'maybe';
  return 'final';
}

export async function reconcileCreate(io: CreateIO): Promise<WithResponse<unknown>> {
  let resends = 0;
  /** Whether an earlier POST of this call may have reached the service. */
  let mayExist = false;
  for (;;) {
    let error: unknown;
    try {
      return await io.send();
    } catch (caught) {
      error = caught;
    }
    if (io.signal?.aborted) throw error; // the caller's abort reason, as thrown by the attempt
    const verdict = verdictOf(error);

    if (verdict === 'final') {
      // A resend refused (e.g. as a duplicate reference) may mean the earlier POST committed late.
      if (!mayExist || !(error instanceof ApiError)) throw error;
      const found = await lookup(io, error);
      if (found) return recovered(io, found);
      throw countAll(io, error);
    }

    if (verdict === 'not_sent') {
      if (resends >= io.maxRetries) throw countAll(io, error);
      await sleep(retryDelayMs(resends++, error), io.signal);
      continue;
    }

    mayExist = true;
    // A 2xx whose body was lost: the service accepted it, so it is never resent.
    const answered = failureOf(error).status;
    const accepted = answered !== undefined && answered < 300;
    // Retry-After beyond 60 s: look up now, but do not wait that long to resend.
    const tooLong = error instanceof ApiError && retryAfterMs(error.headers) === Infinity;
    io.logger?.warn(
      `payinout ${io.method} ${io.path}: no reliable answer (${describe(error)}); looking reference '${io.reference}' up before anything else`,
      { method: io.method, path: io.path, reference: io.reference, attempts: io.attempts() },
    );
    // The backoff gives a slow commit time to show up in the lookup; a 2xx has committed already.
    if (!tooLong && !accepted) await sleep(retryDelayMs(resends, error), io.signal);
    const found = await lookup(io, error);
    if (found) return recovered(io, found);
    if (accepted) {
      throw unknownOutcome(
        io,
        error,
        undefined,
        `the service answered HTTP ${answered} but the body was lost, and the lookup does not show the transaction yet`,
      );
    }
    if (tooLong || resends >= io.maxRetries) throw countAll(io, error);
    resends++;
  }
}

/** The looked-up transaction of this create, `undefined` when the service does not know it. */
async function lookup(io: CreateIO, trigger: unknown): Promise<WithResponse<Transaction> | undefined> {
  let found: WithResponse<Transaction>;
  try {
    found = await io.lookup();
  } catch (lookupError) {
    if (io.signal?.aborted) throw lookupError;
    if (lookupError instanceof NotFoundError) return undefined;
    throw unknownOutcome(io, trigger, lookupError, 'the lookup that would settle it failed');
  }
  const mismatch = differences(found, io);
  if (mismatch) {
    throw unknownOutcome(
      io,
      trigger,
      undefined,
      `the lookup found transaction ${found.ticket} with a different ${mismatch}, so it is not this create (was the reference used before?)`,
    );
  }
  return found;
}

/** Whether the found transaction can be this create: same reference, currency and amount. */
function differences(found: Transaction, io: CreateIO): string | undefined {
  const body = isRecord(io.body) ? io.body : {};
  if (found.reference !== io.reference) return 'reference';
  if (typeof body.currency === 'string' && found.currency !== body.currency) return 'currency';
  if (typeof body.amount === 'number' && Number(found.amount) !== body.amount) return 'amount';
  return undefined;
}

/** The created-shape result, rebuilt from the lookup; fields only the create answer carries are absent. */
function recovered(io: CreateIO, found: WithResponse<Transaction>): WithResponse<unknown> {
  const body = isRecord(io.body) ? io.body : {};
  // The create answer echoes these request fields in `transaction`; a PayOut echoes payment_method only.
  const echoed = io.path.includes('payout')
    ? ['payment_method']
    : ['payment_method', 'redirect_url', 'ipn_url', 'description'];
  const transaction: Record<string, unknown> = {
    reference: found.reference,
    amount: found.amount,
    currency: found.currency,
  };
  for (const key of echoed) if (typeof body[key] === 'string') transaction[key] = body[key];
  const result = { ticket: found.ticket, date: found.date, transaction, recovered: true as const };
  const meta: ResponseMeta = { ...found.lastResponse, attempts: io.attempts() };
  Object.defineProperty(result, 'recoveredTransaction', { value: found, enumerable: false });
  Object.defineProperty(result, 'lastResponse', { value: meta, enumerable: false, configurable: true });
  io.logger?.info(
    `payinout ${io.method} ${io.path}: reference '${io.reference}' exists (ticket ${found.ticket}); recovered without resending`,
    { method: io.method, path: io.path, reference: io.reference, attempts: io.attempts() },
  );
  return result as unknown as WithResponse<unknown>;
}

function unknownOutcome(io: CreateIO, trigger: unknown, lookupError: unknown, why: string): ConnectionError {
  const failedWith = lookupError === undefined ? '' : ` (${describe(lookupError)})`;
  return new ConnectionError({
    method: io.method,
    path: io.path,
    attempts: io.attempts(),
    outcome: 'unknown',
    reference: io.reference,
    message:
      `${io.method} ${io.path}: the outcome of the create with reference '${io.reference}' is unknown. ` +
      `It got ${describe(trigger)}; ${why}${failedWith}. It may have been created: look it up with ` +
      `client.transactions.get('${io.reference}') before creating it again, and create it again only if that throws NotFoundError.`,
    cause: lookupError ?? trigger,
  });
}

/** The error of the last POST, rethrown after lookups: its `attempts` counts the whole call. */
function countAll(io: CreateIO, error: unknown): unknown {
  if (error instanceof ApiError || error instanceof ConnectionError) {
    Object.defineProperty(error, 'attempts', { value: io.attempts(), enumerable: true, configurable: true });
  }
  return error;
}

/** A short, secret-free description of an attempt's failure. */
function describe(error: unknown): string {
  if (error instanceof ApiError)
    return `${error.name} HTTP ${error.status}${error.errorCode ? ` ${error.errorCode}` : ''}`;
  if (error instanceof PayinoutError) return error.name;
  return error instanceof Error ? error.name : 'an unexpected failure';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
