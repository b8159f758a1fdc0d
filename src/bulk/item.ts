/**
 * One batch item, settled exactly once. The service has no idempotency key and its answer to a
 * duplicate reference is not shown (docs/spec-gaps.md), so the item proves "already exists" by
 * looking the reference up BEFORE every create: found → compared (recovered / conflict), not
 * found → `payout.create`, which reconciles its own lost answers (docs/reliability.md). Calls are
 * made with `maxRetries: 0` so that every failure comes back here, where a rate limit pauses the
 * whole batch and any other transient failure is retried after a fresh lookup.
 */
import {
  ApiError,
  ConnectionError,
  NotFoundError,
  PayinoutError,
  RequestValidationError,
  ResponseValidationError,
} from '../core/errors.js';
import { safeParse } from '../schemas/kit.js';
import { type PayOutCreateParams, PayOutCreateParamsSchema } from '../schemas/payout.js';
import type { Transaction } from '../schemas/transaction.js';
import { differenceOf, sameReference } from './compare.js';
import { BatchAbortedError, ReferenceConflictError, unknownOutcome } from './errors.js';
import { type KeyedLock, type PauseGate, pause } from './gate.js';
import type { BatchHalt } from './halt.js';
import type { BatchClient, PayOutBatchResult } from './types.js';
import { nextWait } from './waits.js';

/** What every item of one batch shares. */
export interface ItemContext {
  client: BatchClient;
  gate: PauseGate;
  lock: KeyedLock;
  /** Set by the first batch-wide failure: no item starts after it. */
  halt: BatchHalt;
  /** Transient failures each item retries after. */
  maxRetries: number;
  signal: AbortSignal | undefined;
}

/** An item refused before the batch (e.g. a CSV row whose cells could not be read). */
export class RejectedItem {
  constructor(
    readonly reference: string,
    readonly error: PayinoutError,
  ) {}
}

const ONE_ATTEMPT = { maxRetries: 0 } as const;

/** The schema check payout.create runs, as a typed error naming every field. */
export function validatePayOut(
  item: unknown,
): { params: PayOutCreateParams } | { error: RequestValidationError } {
  const parsed = safeParse(PayOutCreateParamsSchema, item);
  if (parsed.success) return { params: parsed.data as PayOutCreateParams };
  const issues = parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  return { error: new RequestValidationError('PayOut', issues) };
}

export function referenceOf(item: unknown): string {
  if (item instanceof RejectedItem) return item.reference;
  const value =
    item !== null && typeof item === 'object' ? (item as { reference?: unknown }).reference : undefined;
  return typeof value === 'string' ? value : '';
}

/** Settles one item; never rejects. */
export async function settleItem(item: unknown, ctx: ItemContext): Promise<PayOutBatchResult> {
  const reference = referenceOf(item);
  if (item instanceof RejectedItem) return failed(reference, item.error);
  if (ctx.signal?.aborted) return failed(reference, new BatchAbortedError(reference, ctx.signal.reason));
  const checked = validatePayOut(item);
  if ('error' in checked) return failed(reference, checked.error);
  const halted = ctx.halt.notSent(reference);
  if (halted) return failed(reference, halted);
  try {
    return await ctx.lock.run(reference, () => sendOnce(item as PayOutCreateParams, checked.params, ctx));
  } catch (error) {
    // Only a bug in a callback or the client could land here; the item still gets a result.
    return failed(reference, asPayinoutError(error, reference));
  }
}

type Stage = 'lookup' | 'create';

async function sendOnce(item: PayOutCreateParams, params: PayOutCreateParams, ctx: ItemContext) {
  const { reference } = params;
  let mayExist = false; // whether a create of this item may have reached the service
  let lastError: unknown;
  for (let failures = 0, pauses = 0; ; ) {
    let stage: Stage = 'lookup';
    const started = Date.now();
    try {
      await ctx.gate.ready(ctx.signal);
      if (stopped(ctx)) return await stopAt(params, ctx, mayExist, lastError);
      const found = await lookup(ctx, reference);
      // Found after this item's own create may have reached the service: that create committed.
      if (found) return existing(found, params, mayExist);
      await ctx.gate.ready(ctx.signal);
      // Stopped between lookup and create: an earlier create of this item may still commit late.
      if (stopped(ctx)) return await stopAt(params, ctx, mayExist, lastError);
      stage = 'create';
      return created(params, await ctx.client.create(item, ONE_ATTEMPT));
    } catch (error) {
      if (stage === 'create') mayExist ||= mayHaveCommitted(error);
      // The service took the create (2xx) but its answer was lost and the lookup does not show it
      // yet: sending it again could pay twice. One more lookup, then the outcome is unknown.
      if (stage === 'create' && wasAccepted(error)) return await giveUp(params, ctx, true, error);
      const batchWide = ctx.halt.consider(error);
      if (batchWide || !isTransient(error)) {
        return isTransient(error)
          ? await giveUp(params, ctx, mayExist, error)
          : await refused(params, ctx, stage, error, mayExist);
      }
      const wait = nextWait(error, { failures, pauses, started, maxRetries: ctx.maxRetries });
      if (!wait || stopped(ctx)) return await giveUp(params, ctx, mayExist, error);
      lastError = error;
      if (wait.pause) pauses++;
      else failures++;
      if (wait.shared) ctx.gate.pauseUntil(wait.until);
      else await pause(wait.until - Date.now(), ctx.signal);
    }
  }
}

/** Whether the batch may start no new request: aborted by its signal, or halted. */
function stopped(ctx: ItemContext): boolean {
  return ctx.signal?.aborted === true || ctx.halt.error !== undefined;
}

/**
 * The item's end in a stopped batch: nothing sent (the stop says why), or — when an earlier
 * create of it may have reached the service — one lookup, then its last error.
 */
function stopAt(params: PayOutCreateParams, ctx: ItemContext, mayExist: boolean, lastError: unknown) {
  return giveUp(params, ctx, mayExist, mayExist ? lastError : stopError(ctx, params.reference));
}

/** Why a stopped batch did not send an item: its signal, or the batch-wide failure. */
function stopError(ctx: ItemContext, reference: string): PayinoutError {
  if (ctx.signal?.aborted) return new BatchAbortedError(reference, ctx.signal.reason);
  return ctx.halt.notSent(reference) ?? new BatchAbortedError(reference, undefined);
}

/** A create the service answered 2xx to, unreadably, and that its lookup did not show. */
function wasAccepted(error: unknown): boolean {
  return error instanceof ConnectionError && error.accepted === true;
}

/** The looked-up transaction, or `undefined` when the service does not know the reference. */
async function lookup(ctx: ItemContext, reference: string): Promise<Transaction | undefined> {
  try {
    return await ctx.client.lookup(reference, ONE_ATTEMPT);
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}

/**
 * An existing transaction for the item's reference: a conflict when its details differ;
 * otherwise `created` when this item's own create made it (`mine`), else `recovered`.
 */
function existing(found: Transaction, params: PayOutCreateParams, mine: boolean): PayOutBatchResult {
  const { reference } = params;
  if (!sameReference(found, reference)) return notProven(found, reference, mine);
  const difference = differenceOf(found, params);
  if (difference) {
    const conflict = new ReferenceConflictError({ reference, ticket: found.ticket, ...difference });
    // After this item's own create was sent, "nothing was sent" would not be true.
    const why = `the lookup shows another transaction with this reference (${conflict.message})`;
    return failed(reference, mine ? unknownOutcome(reference, why, conflict) : conflict);
  }
  return { reference, outcome: mine ? 'created' : 'recovered', ticket: found.ticket, status: found.status };
}

/**
 * The lookup answered a transaction whose reference is not this item's (its ticket happens to be
 * the reference, or the service answered someone else's): it proves nothing either way.
 */
function notProven(found: Transaction, reference: string, mine: boolean): PayOutBatchResult {
  const why = `the lookup of '${reference}' answered transaction ${found.ticket}, whose reference is not '${reference}'`;
  if (mine) return failed(reference, unknownOutcome(reference, why, undefined));
  return failed(
    reference,
    new ResponseValidationError({
      message: `PayOut '${reference}' was not sent: ${why}, so payinout cannot tell whether '${reference}' exists. Look it up by its ticket if you have one, or take it up with the service's support.`,
    }),
  );
}

/** Whether a failed create may have been processed: anything but a refusal or a provable non-send. */
function mayHaveCommitted(error: unknown): boolean {
  if (error instanceof ConnectionError) return error.outcome !== 'not_sent';
  if (error instanceof ResponseValidationError) return true;
  return isTransient(error);
}

function created(
  params: PayOutCreateParams,
  result: Awaited<ReturnType<BatchClient['create']>>,
): PayOutBatchResult {
  const { reference } = params;
  // An answer whose echo names another reference, amount or currency never gets here as this
  // item's: the transport settles it by lookup (recovered) or fails it as unknown.
  // A lost answer rebuilt by lookup carries the looked-up status; a fresh PayOut is PENDING
  // (spec "PayOut creation result").
  return {
    reference,
    outcome: 'created',
    ticket: result.ticket,
    status: result.recoveredTransaction?.status ?? 'PENDING',
  };
}

/**
 * A final failure. A refused create may have lost a race with the same reference (another host,
 * a slow commit), and an unreadable 2xx may hide a success: one lookup settles both.
 */
async function refused(
  params: PayOutCreateParams,
  ctx: ItemContext,
  stage: Stage,
  error: unknown,
  mayExist: boolean,
) {
  const { reference } = params;
  if (stage === 'create' && (error instanceof ApiError || error instanceof ResponseValidationError)) {
    const found = await lookup(ctx, reference).catch(() => undefined);
    if (found) return existing(found, params, mayExist);
  }
  // A lookup refused or unreadable after this item's own create may have reached the service.
  if (stage === 'lookup' && mayExist) {
    return failed(reference, unknownOutcome(reference, 'the lookup that would settle it failed', error));
  }
  return failed(reference, asPayinoutError(error, reference));
}

/**
 * No more attempts (budget spent, or the batch was aborted). A create that may have reached the
 * service is looked up once, so the result says what happened rather than what was tried.
 */
async function giveUp(params: PayOutCreateParams, ctx: ItemContext, mayExist: boolean, error: unknown) {
  const { reference } = params;
  const why = error ?? stopError(ctx, reference);
  if (!mayExist) return failed(reference, asPayinoutError(why, reference));
  try {
    const found = await lookup(ctx, reference);
    if (found) return existing(found, params, true);
  } catch {
    // The lookup failed too: the last error (outcome unknown) is the truth.
  }
  return failed(reference, asPayinoutError(why, reference));
}

/** Worth another lookup-then-create: no answer, or the service asked us to come back. */
function isTransient(error: unknown): boolean {
  if (error instanceof ConnectionError) return true;
  if (!(error instanceof ApiError) || error.status === undefined) return false;
  return error.status === 408 || error.status === 429 || error.status >= 500;
}

function failed(reference: string, error: PayinoutError): PayOutBatchResult {
  return { reference, outcome: 'failed', error };
}

function asPayinoutError(error: unknown, reference: string): PayinoutError {
  if (error instanceof PayinoutError) return error;
  return new ConnectionError({
    message: `PayOut '${reference}' failed unexpectedly (${error instanceof Error ? error.name : typeof error}); its outcome is unknown. Run the batch again: it looks the reference up before sending.`,
    outcome: 'unknown',
    reference,
    cause: error,
  });
}
