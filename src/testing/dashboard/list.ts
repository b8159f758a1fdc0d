/**
 * The overview's transaction list, filtered and paged on the server: with 100,000 transactions
 * in the simulator the page (and every live refresh) receives one page of 50 rows, never the
 * whole store. Newest first; search matches a reference or a ticket; the status filter is exact.
 */
import { TRANSACTION_STATUSES } from '../../schemas/catalog.js';
import type { SandboxTransaction } from '../types.js';

export const PAGE_SIZE = 50;
/** A search longer than any reference the guide allows is cut here. */
const MAX_SEARCH = 200;

/** What the page asks for: `?q=…&status=…&page=…` of /dashboard/api/state. */
export interface ListQuery {
  /** Lower-cased, trimmed; '' matches everything. */
  readonly search: string;
  /** One of {@link STATUS_CHOICES}, or '' for every status. */
  readonly status: string;
  /** 1-based; clamped to the last page when answered. */
  readonly page: number;
}

/** The statuses the filter offers, in the order the guide lists them. */
export const STATUS_CHOICES: readonly string[] = TRANSACTION_STATUSES;

export function parseListQuery(rawUrl: string | undefined): ListQuery {
  const params = new URLSearchParams((rawUrl ?? '').split('?')[1] ?? '');
  const page = Number(params.get('page') ?? '1');
  const status = (params.get('status') ?? '').trim().toUpperCase();
  return {
    search: (params.get('q') ?? '').trim().slice(0, MAX_SEARCH).toLowerCase(),
    // A status the filter does not offer is no filter (the select could not show it).
    status: STATUS_CHOICES.includes(status) ? status : '',
    page: Number.isSafeInteger(page) && page >= 1 ? page : 1,
  };
}

/** One page of the transactions `inScope` accepts and the query matches, newest first. */
export function listTransactions(
  transactions: Iterable<SandboxTransaction>,
  inScope: (transaction: SandboxTransaction) => boolean,
  query: ListQuery,
) {
  const matches: SandboxTransaction[] = [];
  let total = 0;
  for (const transaction of transactions) {
    if (!inScope(transaction)) continue;
    total++;
    if (query.status !== '' && transaction.status !== query.status) continue;
    if (query.search !== '' && !matchesSearch(transaction, query.search)) continue;
    matches.push(transaction);
  }
  const pages = Math.max(1, Math.ceil(matches.length / PAGE_SIZE));
  const page = Math.min(query.page, pages);
  // Insertion order is creation order: the newest are at the end.
  const end = matches.length - (page - 1) * PAGE_SIZE;
  const rows = matches.slice(Math.max(0, end - PAGE_SIZE), end).reverse();
  return {
    search: query.search,
    status: query.status,
    page,
    pages,
    page_size: PAGE_SIZE,
    /** Transactions in scope (every status, no search). */
    total,
    /** Of those, how many the search and filter match. */
    matching: matches.length,
    /** 1-based position of the first row shown, 0 when none. */
    first: rows.length === 0 ? 0 : (page - 1) * PAGE_SIZE + 1,
    rows,
  };
}

function matchesSearch(transaction: SandboxTransaction, search: string): boolean {
  return transaction.ticket.includes(search) || transaction.reference.toLowerCase().includes(search);
}
