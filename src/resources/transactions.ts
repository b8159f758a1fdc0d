import { NotFoundError, TimeoutError } from '../core/errors.js';
import { sleep } from '../core/retry.js';
import type { RequestOptions, Transport } from '../core/transport.js';
import { isFinalStatus } from '../schemas/catalog.js';
import { TransactionSchema } from '../schemas/transaction.js';

export interface WaitOptions {
  /** Give up after this long; default 300,000 ms (5 minutes). */
  timeoutMs?: number;
  /** First pause between lookups; grows ×1.5 per poll up to 30 s. Default 2,000 ms. */
  intervalMs?: number;
  signal?: AbortSignal;
}

/** Transaction lookup: `client.transactions`. */
export class TransactionsResource {
  readonly #transport: Transport;
  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /**
   * Looks a PayIn or PayOut up by service ticket or merchant reference
   * (GET /api/v1/transaction/{id}). Always one `Transaction`, whether the service sent an
   * object or a one-element array.
   */
  get(ticketOrReference: string, options?: RequestOptions) {
    const path = `api/v1/transaction/${encodeURIComponent(ticketOrReference)}`;
    const unwrap = (data: unknown) => pickTransaction(data, ticketOrReference, `/${path}`);
    return this.#transport.request(
      { method: 'GET', path, response: TransactionSchema, unwrap, retry: 'safe' },
      options,
    );
  }

  /**
   * Polls `get()` until the status is final (APPROVED, REJECTED, DECLINED or EXPIRED).
   * Throws TimeoutError after `timeoutMs`; an aborted `signal` rejects with its reason.
   */
  async waitForFinalStatus(ticketOrReference: string, options: WaitOptions = {}) {
    const { timeoutMs = 300_000, signal } = options;
    const deadline = Date.now() + timeoutMs;
    let interval = options.intervalMs ?? 2_000;
    for (;;) {
      const transaction = await this.get(ticketOrReference, signal ? { signal } : {});
      if (isFinalStatus(transaction.status)) return transaction;
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        throw new TimeoutError({
          method: 'GET',
          path: `/api/v1/transaction/${encodeURIComponent(ticketOrReference)}`,
          message: `Transaction ${ticketOrReference} is still ${transaction.status} after ${timeoutMs} ms. Wait for its webhook, or call waitForFinalStatus again with a larger timeoutMs.`,
        });
      }
      await sleep(Math.min(interval, remaining), signal);
      interval = Math.min(interval * 1.5, 30_000);
    }
  }
}

/** data is documented as an array but sampled as an object: accept both, return one. */
function pickTransaction(data: unknown, id: string, path: string): unknown {
  if (!Array.isArray(data) && data !== null && data !== undefined) return data;
  const list = Array.isArray(data) ? data : [];
  if (list.length === 0) {
    throw new NotFoundError({
      status: 404,
      body: { error: 'NOT_FOUND', data },
      method: 'GET',
      path,
      advice: `No transaction ${id} for this merchant (the service answered with no data). Check the ticket or reference and the environment.`,
    });
  }
  const match = list.find((item) => {
    const record = item as { ticket?: unknown; reference?: unknown } | null;
    return record?.ticket === id || record?.reference === id;
  });
  return match ?? list[0];
}
