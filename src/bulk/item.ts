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
import { differenceOf } from './compare.js';
import { BatchAbortedError, ReferenceConflictError } from './errors.js';
import { type KeyedLock, type PauseGate, pause } from './gate.js';
import type { BatchClient, PayOutBatchResult } from './types.js';
import { nextWait } from './waits.js';

/** What every item of one batch shares. */
export interface ItemContext {
  client: BatchClient;
  gate: PauseGate;
  lock: KeyedLock;
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
      if (ctx.signal?.aborted) return await giveUp(params, ctx, mayExist, lastError);
      const found = await lookup(ctx, reference);
      // Found after this item's own create may have reached the service: that create committed.
      if (found) return existing(found, params, mayExist);
      await ctx.gate.ready(ctx.signal);
      if (ctx.signal?.aborted) return failed(reference, new BatchAbortedError(reference, ctx.signal.reason));
      stage = 'create';
      return created(reference, await ctx.client.create(item, ONE_ATTEMPT));
    } catch (error) {
      if (stage === 'create') mayExist ||= mayHaveCommitted(error);
      if (!isTransient(error)) return await refused(params, ctx, stage, error, mayExist);
      const wait = nextWait(error, { failures, pauses, started });
      if (!wait || ctx.signal?.aborted) return await giveUp(params, ctx, mayExist, error);
      lastError = error;
      if (wait.shared) {
        pauses++;
        ctx.gate.pauseUntil(wait.until);
      } else {
        failures++;
        await pause(wait.until - Date.now(), ctx.signal);
      }
    }
  }
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
  const difference = differenceOf(found, params);
  if (difference) {
    return failed(reference, new ReferenceConflictError({ reference, ticket: found.ticket, ...difference }));
  }
  return { reference, outcome: mine ? 'created' : 'recovered', ticket: found.ticket, status: found.status };
}

/** Whether a failed create may have been processed: anything but a refusal or a provable non-send. */
function mayHaveCommitted(error: unknown): boolean {
  if (error instanceof ConnectionError) return error.outcome !== 'not_sent';
  if (error instanceof ResponseValidationError) return true;
  return isTransient(error);
}

function created(reference: string, result: Awaited<ReturnType<BatchClient['create']>>): PayOutBatchResult {
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
  return failed(reference, asPayinoutError(error, reference));
}

/**
 * No more attempts (budget spent, or the batch was aborted). A create that may have reached the
 * service is looked up once, so the result says what happened rather than what was tried.
 */
async function giveUp(params: PayOutCreateParams, ctx: ItemContext, mayExist: boolean, error: unknown) {
  const { reference } = params;
  const why = error ?? new BatchAbortedError(reference, ctx.signal?.reason);
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
  return error instanceof ApiError && (error.status === 408 || error.status === 429 || error.status >= 500);
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
