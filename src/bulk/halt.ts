/**
 * Which failures are about the batch rather than one item (node_modules/payinout/docs/bulk-payouts.md or https://github.com/payinout/payinout/blob/main/docs/bulk-payouts.md, "When the batch
 * stops"). Every later item would meet them too, so the batch starts no new item: a batch with
 * wrong credentials makes one refused request, not one per item.
 * - AuthenticationError (401/403): the credentials, or the merchant's right to PayOuts, refused.
 * - ConfigurationError: the client refused its own configuration (e.g. no fetch in the runtime).
 * - A Retry-After beyond what a batch pauses (60 s): the service asked the merchant to stop.
 * Everything else (a refused item, a 404, a 5xx, a lost answer, an unreadable answer) is per item.
 */
import { ApiError, AuthenticationError, ConfigurationError, type PayinoutError } from '../core/errors.js';
import { askedTooLong } from '../core/retry.js';
import { BatchHaltedError } from './errors.js';
import type { HaltReason, RunHalt } from './run.js';

function reasonOf(error: unknown): HaltReason | undefined {
  if (error instanceof AuthenticationError) {
    return {
      why: `the service refused the credentials (HTTP ${error.status})`,
      todo: AuthenticationError.advice,
    };
  }
  if (error instanceof ConfigurationError) {
    return { why: 'the client refused its configuration', todo: error.message };
  }
  if (error instanceof ApiError && askedTooLong(error)) {
    return {
      why: `the service asked to wait more than 60 s before the next request (HTTP ${error.status} with Retry-After)`,
      todo: 'Wait as long as the service asked.',
    };
  }
  return undefined;
}

/** The run's stop, in memory: set once, by the first batch-wide failure (a getMany's too). */
export class BatchHalt implements RunHalt {
  #error: PayinoutError | undefined;
  #reason: HaltReason | undefined;

  /** The failure that stopped the batch, if any. */
  get error(): PayinoutError | undefined {
    return this.#error;
  }

  /** Stops the batch when `error` is batch-wide; returns whether it is. */
  consider(error: unknown): boolean {
    const reason = reasonOf(error);
    if (!reason) return false;
    if (!this.#error) {
      this.#error = error as PayinoutError;
      this.#reason = reason;
    }
    return true;
  }

  /** The error of an item the stopped batch did not send. */
  notSent(reference: string): BatchHaltedError | undefined {
    if (!this.#error || !this.#reason) return undefined;
    return new BatchHaltedError(reference, this.#error, this.#reason.why, this.#reason.todo);
  }

  /** Why the batch stopped and what to do, once it has (for errors worded for other batches). */
  get reason(): Readonly<HaltReason> | undefined {
    return this.#reason;
  }

  /** One line for a person: why the batch stopped and what to do. */
  summary(): string | undefined {
    return this.#reason && `the batch stopped because ${this.#reason.why}. ${this.#reason.todo}`;
  }
}
