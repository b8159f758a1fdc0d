/**
 * Reconciliation of a call that must not be resent blindly (node_modules/payinout/docs/reliability.md or https://github.com/payinout/payinout/blob/main/docs/reliability.md, "Reconciliation
 * of creates"). The service has no idempotency key, so when such a call may have reached the
 * service without a readable answer, its recovery (supplied by the operations table) looks it up
 * before anything else:
 *   found (proven) → resolve with it, marked `recovered: true`;
 *   absent        → resend, within maxRetries;
 *   unproven, or the lookup failed → ConnectionError `outcome: 'unknown'`, naming the key.
 * Invariant: never two sends of one call without a lookup between them.
 */
import type { Answer, Finding, Recovery, Runner } from './call.js';
import { copyWith } from './error-base.js';
import {
  ApiError,
  AuthenticationError,
  ConnectionError,
  NotFoundError,
  PayinoutError,
  ResponseValidationError,
  UnprocessableEntityError,
} from './errors.js';
import { askedTooLong, failureOf, isRetriableStatus, type Pacer, waitAfter } from './retry.js';
import type { Logger, ResponseMeta, WithResponse } from './types.js';

export interface ReconcileIO {
  recovery: Recovery;
  method: string;
  path: string;
  /** The budget and the waits of the resends (retry.ts), made on first use. */
  pacer(): Pacer;
  /** Whether the call runs in a batch's lane (every send waits for its shared pause). */
  inLane: boolean;
  /** The answer of the first send, read, when the caller made it already. */
  first?: Answer | undefined;
  signal: AbortSignal | undefined;
  logger: Logger | undefined;
  /** HTTP requests made so far for this call, lookups included. */
  attempts(): number;
  /** One send of the call, read to its result or typed error. */
  send(): Promise<Answer>;
  /** Runs a lookup inside the call (safe retries, attempts counted with the call's). */
  run: Runner;
}

/**
 * - final: the service refused (4xx) or answered something not worth repeating;
 * - not_sent: provably never reached the service (connection refused): resend without lookup;
 * - maybe: may have been processed (reset, timeout, 5xx, 408, 429);
 * - accepted: a 2xx whose body is not JSON (truncated, an HTML page): processed, never resent.
 */
type Verdict = 'final' | 'not_sent' | 'maybe' | 'accepted';

function verdictOf({ error, status, unreadable }: Answer): Verdict {
  if (error instanceof ConnectionError) {
    if (status !== undefined && status < 300) return 'accepted';
    return error.outcome === 'not_sent' ? 'not_sent' : 'maybe';
  }
  if (error instanceof ApiError) {
    // The body's error identifier is a sign of rejection whatever the status (createApiError).
    const refused =
      error instanceof UnprocessableEntityError ||
      error instanceof AuthenticationError ||
      error instanceof NotFoundError;
    return !refused && isRetriableStatus(error.status) ? 'maybe' : 'final';
  }
  if (unreadable && status !== undefined && status < 300) return 'accepted';
  return 'final';
}

export async function reconcile(io: ReconcileIO): Promise<WithResponse<unknown>> {
  /** Whether an earlier send of this call may have reached the service. */
  let mayExist = false;
  for (let first = io.first; ; first = undefined) {
    const ready = io.inLane && !first ? io.pacer().ready() : undefined;
    if (ready) await ready;
    const outcome = first ?? (await io.send());
    if (!outcome.failed) {
      const why = io.recovery.contradiction(outcome.value);
      if (why === undefined) return outcome.value;
      return proven(io, outcome, why);
    }
    const verdict = verdictOf(outcome);
    const { error } = outcome;
    if (verdict === 'final') {
      // A resend refused (e.g. as a duplicate reference) may mean the earlier send committed late.
      if (!mayExist || !(error instanceof ApiError)) throw error;
      const found = await settle(io, error);
      if (found) return found;
      throw recount(error, io.attempts());
    }
    const failure = failureOf(error);
    const pacer = io.pacer();
    if (verdict === 'not_sent') {
      const wait = pacer.plan(failure);
      if (!wait) throw error;
      await pacer.take(wait);
      continue;
    }
    mayExist = true;
    const found = await lookUpAfter(io, outcome, verdict === 'accepted');
    if (found) return found;
    const wait = pacer.plan(failure);
    if (!wait) throw recount(error, io.attempts());
    await pacer.take({ ...wait, ms: 0 });
  }
}

/** A 2xx answer whose echo is not provably this call's (`why`): only the lookup can say which transaction it made. */
async function proven(io: ReconcileIO, outcome: Answer, why: string): Promise<WithResponse<unknown>> {
  const found = await settle(io, contradicted(why));
  if (found) return found;
  throw answerUnproven(io, outcome, why);
}

/**
 * A send that may have reached the service: after the policy's wait (it gives a slow commit time
 * to show up; a 2xx has committed already, and a Retry-After beyond 60 s is not waited), one
 * lookup. The call's result when found; a 2xx not found fails (it must never be resent).
 */
async function lookUpAfter(
  io: ReconcileIO,
  outcome: Answer,
  accepted: boolean,
): Promise<WithResponse<unknown> | undefined> {
  const { error } = outcome;
  io.logger?.warn(
    `payinout ${io.method} ${io.path}: no reliable answer (${describe(error)}); looking '${io.recovery.key}' up before anything else`,
    { method: io.method, path: io.path, reference: io.recovery.key, attempts: io.attempts() },
  );
  const wait = accepted || askedTooLong(error) ? undefined : waitAfter(failureOf(error), io.pacer().retries);
  // Unanswered failures the policy would not repeat still get the backoff before their lookup.
  if (wait) await io.pacer().hold(wait);
  const found = await settle(io, error);
  if (found) return found;
  if (accepted) throw acceptedButUnseen(io, outcome);
  return undefined;
}

/** The recovered result, or `undefined` when the service does not know the call. */
async function settle(io: ReconcileIO, trigger: unknown): Promise<WithResponse<unknown> | undefined> {
  let finding: Finding;
  let meta: ResponseMeta | undefined;
  try {
    finding = await io.recovery.find(async (spec) => {
      const answer = await io.run(spec);
      meta = answer.lastResponse;
      return answer;
    });
  } catch (lookupError) {
    if (io.signal?.aborted) throw lookupError;
    throw unknownOutcome(io, trigger, 'the lookup that would settle it failed', lookupError);
  }
  if (finding.kind === 'absent') return undefined;
  if (finding.kind === 'unproven') throw unknownOutcome(io, trigger, finding.why, finding.cause);
  const result = finding.result as WithResponse<unknown>;
  const last: ResponseMeta = { ...(meta as ResponseMeta), attempts: io.attempts() };
  Object.defineProperty(result, 'lastResponse', { value: last, enumerable: false, configurable: true });
  io.logger?.info(
    `payinout ${io.method} ${io.path}: '${io.recovery.key}' exists (ticket ${finding.id}); recovered without resending`,
    { method: io.method, path: io.path, reference: io.recovery.key, attempts: io.attempts() },
  );
  return result;
}

/** The trigger named in messages when a 2xx answer contradicts what was sent. */
function contradicted(why: string): ResponseValidationError {
  return new ResponseValidationError({ message: `The answer ${why}.` });
}

function answerUnproven(io: ReconcileIO, outcome: Answer, why: string): ConnectionError {
  const id = io.recovery.idIn(outcome.value);
  const ticket = id ? `, ticket ${id}` : '';
  return unknownOutcome(
    io,
    contradicted(why),
    `the service accepted it (HTTP ${outcome.value.lastResponse.status}${ticket}) but its answer ${why}, and the lookup does not show the transaction yet. Do not send it again`,
    undefined,
    undefined,
    true,
  );
}

function acceptedButUnseen(io: ReconcileIO, outcome: Answer): ConnectionError {
  const body = outcome.error instanceof ResponseValidationError ? outcome.error.body : undefined;
  const id = io.recovery.idIn(body);
  const ticket = id ? `, ticket ${id}` : '';
  return unknownOutcome(
    io,
    outcome.error,
    `the service accepted it (HTTP ${outcome.status}${ticket}) but the answer was lost, and the lookup does not show it yet. Do not send it again`,
    undefined,
    id,
    true,
  );
}

function unknownOutcome(
  io: ReconcileIO,
  trigger: unknown,
  why: string,
  cause?: unknown,
  ticket?: string,
  accepted?: boolean,
): ConnectionError {
  const failedWith = cause instanceof Error ? ` (${describe(cause)})` : '';
  const { key, howToLookUp } = io.recovery;
  return new ConnectionError({
    method: io.method,
    path: io.path,
    attempts: io.attempts(),
    outcome: 'unknown',
    reference: key,
    ...(ticket ? { ticket } : {}),
    ...(accepted ? { accepted } : {}),
    message:
      `${io.method} ${io.path}: the outcome of '${key}' is unknown. It got ${describe(trigger)}; ` +
      `${why}${failedWith}. It may have been created: look it up with ${howToLookUp} before creating ` +
      'it again, and create it again only if that throws NotFoundError.',
    cause: cause ?? trigger,
  });
}

/**
 * The error of the last send, rethrown after lookups, as a copy whose `attempts` counts the whole
 * call; the original error object is left as it was built.
 */
function recount(error: unknown, attempts: number): unknown {
  if (!(error instanceof ApiError || error instanceof ConnectionError) || error.attempts === attempts)
    return error;
  return copyWith(error, { attempts });
}

/** A short, secret-free description of an attempt's failure. */
function describe(error: unknown): string {
  if (error instanceof ApiError) {
    return `${error.name} HTTP ${error.status}${error.errorCode ? ` ${error.errorCode}` : ''}`;
  }
  if (error instanceof PayinoutError) return error.name;
  return error instanceof Error ? error.name : 'an unexpected failure';
}
