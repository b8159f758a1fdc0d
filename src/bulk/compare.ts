/**
 * Is an existing transaction the PayOut a batch item describes? Compared on what the lookup
 * shows (spec "Transaction (PayIn or PayOut)"): amount, currency, the beneficiary's document
 * and — only when the service shows them — the bank account fields. The lookup's customer
 * object lists no bank or account, so those are compared only if present (docs/spec-gaps.md).
 */
import type { PayOutCreateParams } from '../schemas/payout.js';
import type { Transaction } from '../schemas/transaction.js';

/** A difference: the field's path in the request and, when it is not customer data, the two values. */
export interface Difference {
  field: string;
  detail: string;
}

/** Destination fields, compared as trimmed strings (a sample shows numbers where the guide says strings). */
const DESTINATION = ['legal_doc_type', 'legal_doc', 'bank', 'account_number', 'account_type', 'clabe_number'];

export function differenceOf(found: Transaction, params: PayOutCreateParams): Difference | undefined {
  if (isPayIn(found.type_transaction)) {
    return { field: 'type_transaction', detail: ' (the reference belongs to a PayIn)' };
  }
  if (Number(found.amount) !== Number(params.amount)) {
    return { field: 'amount', detail: ` (${String(found.amount)} there, ${String(params.amount)} here)` };
  }
  if (found.currency !== params.currency) {
    return { field: 'currency', detail: ` (${found.currency} there, ${params.currency} here)` };
  }
  const shown = (found.customer ?? {}) as Record<string, unknown>;
  const wanted = params.customer_data as Record<string, unknown>;
  for (const key of DESTINATION) {
    const there = normalise(shown[key]);
    if (there === undefined) continue; // not shown by the lookup: nothing to compare
    if (there !== normalise(wanted[key])) return { field: `customer_data.${key}`, detail: '' };
  }
  return undefined;
}

/** Whether the found transaction carries the item's reference (the lookup also matches tickets). */
export function sameReference(found: Transaction, reference: string): boolean {
  const shown = (found as { reference?: unknown }).reference;
  return (
    (typeof shown === 'string' || typeof shown === 'number') && String(shown).trim() === reference.trim()
  );
}

function normalise(value: unknown): string | undefined {
  if (typeof value === 'number') return String(value);
  return typeof value === 'string' && value.trim() !== '' ? value.trim().toUpperCase() : undefined;
}

/** The field description lists PAYIN and PAYOUT; samples show other words, which are not judged. */
function isPayIn(type: string | undefined): boolean {
  return type !== undefined && type.replace(/[^a-z]/gi, '').toUpperCase() === 'PAYIN';
}
