/**
 * The one definition of the transaction lookup (GET /api/v1/transaction/{id}), shared by
 * `client.transactions.get()` and create reconciliation (reconcile.ts).
 */
import { TransactionSchema } from '../schemas/transaction.js';
import { NotFoundError } from './errors.js';
import type { CallSpec } from './transport.js';

export function lookupSpec(ticketOrReference: string): CallSpec<typeof TransactionSchema.tolerant> {
  const path = `api/v1/transaction/${encodeURIComponent(ticketOrReference)}`;
  return {
    method: 'GET',
    path,
    response: TransactionSchema,
    unwrap: (data, answer) => pickTransaction(data, ticketOrReference, `/${path}`, answer.attempts),
    retry: 'safe',
  };
}

/** data is documented as an array but sampled as an object: accept both, return one. */
function pickTransaction(data: unknown, id: string, path: string, attempts: number): unknown {
  if (!Array.isArray(data) && data !== null && data !== undefined) return data;
  const list = Array.isArray(data) ? data : [];
  if (list.length === 0) {
    throw new NotFoundError({
      status: 404,
      body: { error: 'NOT_FOUND', data },
      method: 'GET',
      path,
      attempts,
      advice: `No transaction ${id} for this merchant (the service answered with no data). Check the ticket or reference and the environment.`,
    });
  }
  const match = list.find((item) => {
    const record = item as { ticket?: unknown; reference?: unknown } | null;
    return record?.ticket === id || record?.reference === id;
  });
  return match ?? list[0];
}
