/**
 * One batch item, settled exactly once, on the client's one engine. The service has no
 * idempotency key and its answer to a duplicate reference is not shown (node_modules/payinout/docs/spec-gaps.md or https://github.com/payinout/payinout/blob/main/docs/spec-gaps.md), so
 * the item looks its reference up first: found → the one match rule decides (recovered /
 * conflict); absent → `payout.create`, whose reconciliation settles a lost answer with one lookup
 * and resends only when that lookup shows nothing (node_modules/payinout/docs/reliability.md or https://github.com/payinout/payinout/blob/main/docs/reliability.md). Both calls run in the
 * batch's lane (core/types.ts Lane): every wait the service asks for pauses the whole batch at
 * once, and no repeat starts once the batch stopped. Every decision uses the one normalised
 * reference (the schema's trim).
 */
import { type Finding, find } from '../api/find.js';
import { OPERATIONS } from '../api/operations.js';
import {
  ApiError,
  ConnectionError,
  PayinoutError,
  RequestValidationError,
  ResponseValidationError,
} from '../core/errors.js';
import { isTransient } from '../core/retry.js';
import { type CallOptions, LANE, VALIDATED } from '../core/types.js';
import { safeParse } from '../schemas/kit.js';
import { type PayOutCreateParams, PayOutCreateParamsSchema } from '../schemas/payout.js';
import type { Transaction } from '../schemas/transaction.js';
import { BatchAbortedError, ReferenceConflictError } from './errors.js';
import type { ItemLock, Run, Step } from './run.js';
import type { BatchClient, PayOutBatchResult } from './types.js';

export type { ItemLock };

/** What the PayOut's lookup must show to be this item (the operations table's rows). */
const PAYOUT_RULE = OPERATIONS['payout.create'].recovery;

/**
 * What the PayOut step needs besides its run: the client's create and lookup, the per-reference
 * lock (gate.ts KeyedLock; the queue's is a fenced lease in Redis), the retry budget of each call.
 */
export interface PayOutParts {
  client: BatchClient;
  lock: ItemLock;
  /** Transient failures each call of an item repeats after. */
  maxRetries: number;
}

/**
 * A PayOut step's parts and its run: what every item of the run is settled with, built once per
 * run (not per item), with the options of its two calls.
 */
interface Settling extends PayOutParts {
  run: Run;
  /** The lookup's: the item's retry budget, in the run's lane. */
  lookupOptions: CallOptions;
  /** The create's: the same, and the params sent as validated (they were, once, by the step). */
  createOptions: CallOptions;
}

/** An item refused before the batch (e.g. a CSV row whose cells could not be read). */
export class RejectedItem {
  constructor(
    readonly reference: string,
    readonly error: PayinoutError,
  ) {}
}

/**
 * The params objects {@link validatePayOut} made (the schema's own output, never a caller's
 * object): an item that is one of them is settled without parsing it again.
 */
const CHECKED = new WeakSet<object>();

/** The schema check payout.create runs, as a typed error naming every field. */
export function validatePayOut(
  item: unknown,
): { params: PayOutCreateParams } | { error: RequestValidationError } {
  const parsed = safeParse(PayOutCreateParamsSchema, item);
  if (parsed.success) {
    const params = parsed.data as PayOutCreateParams;
    CHECKED.add(params);
    return { params };
  }
  const issues = parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  return { error: new RequestValidationError('PayOut', issues) };
}

/** The item's reference as given, trimmed like the schema does ('' when it has none or cannot be read). */
export function referenceOf(item: unknown): string {
  try {
    if (item instanceof RejectedItem) return item.reference;
    const value =
      item !== null && typeof item === 'object' ? (item as { reference?: unknown }).reference : undefined;
    return typeof value === 'string' ? value.trim() : '';
  } catch {
    return ''; // a throwing getter or a revoked Proxy: the item fails below, alone
  }
}

/**
 * The runner's step for PayOuts (runner.ts `runMany`): `createMany`, `payinout payouts send`
 * and a queue chunk. Each item: validated once, locked on its reference, looked up, and created
 * only when absent; never rejects.
 */
export function payOutStep(parts: PayOutParts): Step<PayOutBatchResult> {
  let current: Settling | undefined;
  return (item, run) => {
    if (current?.run !== run) current = settling(parts, run);
    return settle(item, current);
  };
}

function settling(parts: PayOutParts, run: Run): Settling {
  // Shared by every call of the run: a call reads its options, never writes them.
  const lane = run.lane;
  const lookupOptions: CallOptions = { maxRetries: parts.maxRetries, [LANE]: lane };
  const createOptions: CallOptions = { maxRetries: parts.maxRetries, [LANE]: lane, [VALIDATED]: true };
  // The spread last: V8 (Node 20) takes a slow path for properties written after a spread, about
  // 1 µs here, once per queue job of one PayOut (a run is a job there).
  return { run, lookupOptions, createOptions, ...parts };
}

async function settle(item: unknown, ctx: Settling): Promise<PayOutBatchResult> {
  const given = referenceOf(item);
  const { signal, halt } = ctx.run;
  let params: PayOutCreateParams;
  try {
    if (item instanceof RejectedItem) return failed(given, item.error);
    if (signal?.aborted) return failed(given, new BatchAbortedError(given, signal.reason));
    // A CSV row read by the CLI was validated as it was read; any other item is, here, once.
    const checked = CHECKED.has(item as object)
      ? { params: item as PayOutCreateParams }
      : validatePayOut(item);
    if ('error' in checked) return failed(given, checked.error);
    params = checked.params;
    const halted = halt.notSent(params.reference);
    if (halted) return failed(params.reference, halted);
  } catch (error) {
    return failed(given, unreadable(error));
  }
  const { reference } = params;
  try {
    return await ctx.lock.run(reference, () => settleOnce(params, ctx));
  } catch (error) {
    // Only a bug in a callback, the lock or the client could land here; the item still gets a result.
    return failed(reference, asPayinoutError(error, reference));
  }
}

async function settleOnce(params: PayOutCreateParams, ctx: Settling): Promise<PayOutBatchResult> {
  const { reference } = params;
  const { lane, halt } = ctx.run;
  if (lane.stopped()) return failed(reference, stopError(ctx.run, reference));
  let finding: Finding;
  try {
    finding = await find(() => ctx.client.lookup(reference, ctx.lookupOptions), params, PAYOUT_RULE);
  } catch (error) {
    halt.consider(error);
    return failed(reference, asPayinoutError(error, reference));
  }
  if (finding.kind !== 'absent') return judged(finding, params);
  // Stopped between lookup and create: nothing was sent for this item.
  if (lane.stopped()) return failed(reference, stopError(ctx.run, reference));
  try {
    // Validated once, above: the create sends the checked params as they are.
    return created(params, await ctx.client.create(params, ctx.createOptions));
  } catch (error) {
    halt.consider(error);
    return refused(params, ctx, error);
  }
}

/** Why a stopped run did not send an item: its signal, or the batch-wide failure. */
function stopError(run: Run, reference: string): PayinoutError {
  if (run.signal?.aborted) return new BatchAbortedError(reference, run.signal.reason);
  return run.halt.notSent(reference) ?? new BatchAbortedError(reference, undefined);
}

/**
 * A reference the lookup shows, judged by the one match rule (api/find.ts): `recovered` when it
 * is proven to be this PayOut; otherwise failed, nothing sent — a conflict naming the field that
 * differs, or the lookup's own error when it shows several transactions.
 */
function judged(
  finding: Exclude<Finding, { kind: 'absent' }>,
  params: PayOutCreateParams,
): PayOutBatchResult {
  const { reference } = params;
  if (finding.kind === 'found') {
    const { ticket, status } = finding.transaction;
    return { reference, outcome: 'recovered', ticket, status };
  }
  const [first] = finding.mismatches;
  if (finding.cause || !finding.transaction || !first)
    return failed(reference, asPayinoutError(finding.cause, reference));
  if (first.field === 'reference') return notProven(finding.transaction, reference);
  return failed(
    reference,
    new ReferenceConflictError({ reference, ticket: finding.transaction.ticket, ...first }),
  );
}

/**
 * The lookup answered a transaction whose reference is not this item's (its ticket happens to be
 * the reference, or the service answered someone else's): it proves nothing either way.
 */
function notProven(found: Transaction, reference: string): PayOutBatchResult {
  const why = `the lookup of '${reference}' answered transaction ${found.ticket}, whose reference is not '${reference}'`;
  return failed(
    reference,
    new ResponseValidationError({
      message: `PayOut '${reference}' was not sent: ${why}, so payinout cannot tell whether '${reference}' exists. Look it up by its ticket if you have one, or take it up with the service's support.`,
    }),
  );
}

function created(
  params: PayOutCreateParams,
  result: Awaited<ReturnType<BatchClient['create']>>,
): PayOutBatchResult {
  // An answer whose echo contradicts what was sent never gets here as this item's: the engine
  // settles it by lookup (recovered) or fails it as unknown. A lost answer rebuilt by lookup
  // carries the looked-up status; a fresh PayOut is PENDING (spec "PayOut creation result").
  return {
    reference: params.reference,
    outcome: 'created',
    ticket: result.ticket,
    status: result.recoveredTransaction?.status ?? 'PENDING',
  };
}

/**
 * A create that failed. The engine settled every answer that may have been processed; a refusal
 * (4xx) of a reference that was absent a moment ago may be a race with another host or a slow
 * commit: one lookup tells.
 */
async function refused(params: PayOutCreateParams, ctx: Settling, error: unknown) {
  const { reference } = params;
  if (error instanceof ApiError && !isTransient(error)) {
    const lookup = () => ctx.client.lookup(reference, { maxRetries: 0 });
    const finding = await find(lookup, params, PAYOUT_RULE).catch(() => undefined);
    // Several transactions with the reference tell nothing of this create: its refusal stands.
    const several = finding?.kind === 'unproven' && finding.cause !== undefined;
    if (finding && finding.kind !== 'absent' && !several) return judged(finding, params);
  }
  return failed(reference, asPayinoutError(error, reference));
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

/** An item that could not even be read (a throwing getter, a revoked Proxy): nothing was sent for it. */
function unreadable(error: unknown): PayinoutError {
  if (error instanceof PayinoutError) return error;
  const name = error instanceof Error ? error.name : typeof error;
  return new RequestValidationError('PayOut', [
    { path: '', message: `could not be read (${name} while reading it); nothing was sent for it` },
  ]);
}
