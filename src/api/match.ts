/**
 * The one match rule: is this looked-up transaction the one a claim describes — the create this
 * call sent (reconciliation, createMany), or the webhook a delivery announces (confirmWith)? The
 * rows come from the operations table (a create's `recovery.match`, the lookup's `confirms`), and
 * the OpenAPI document's `x-recovery` is that same data, so what it states is what is enforced.
 */
import type { MatchRule, RecoveryMatch, TransactionKind } from './types.js';

/** One way the transaction fails to be the claimed one. */
export interface Mismatch {
  /** The claim's field (`amount`, `customer_data.legal_doc`, `top_status`; `type_transaction` for the kind). */
  field: string;
  /** For a message: what the transaction shows instead; customer values are named, never quoted. */
  text: string;
  /** The two values as ` (X there, Y here)`, '' for customer data. */
  detail: string;
}

/** Every way `found` fails to be what `claim` describes; empty when it is proven to be. */
export function mismatches(found: unknown, claim: unknown, rule: MatchRule): Mismatch[] {
  const out: Mismatch[] = [];
  const shownKind = kindOf(at(found, 'type_transaction'));
  if (rule.kind !== undefined && shownKind !== undefined && shownKind !== rule.kind) {
    const detail = ` (the reference belongs to a ${shownKind === 'PAYIN' ? 'PayIn' : 'PayOut'})`;
    out.push({ field: 'type_transaction', text: `it is a ${shownKind}, not a ${rule.kind}`, detail });
  }
  for (const row of rule.match) {
    const mismatch = rowMismatch(found, claim, row);
    if (mismatch) out.push(mismatch);
  }
  return out;
}

function rowMismatch(found: unknown, claim: unknown, row: RecoveryMatch): Mismatch | undefined {
  const theirs = at(found, row.found);
  const ours = at(claim, row.request);
  if (row.required === 'when-present' && isAbsent(theirs)) return undefined;
  if (row.required === 'when-claimed' && isAbsent(ours)) return undefined;
  if (same(row.compare, theirs, ours)) return undefined;
  // Customer fields are PII: named, never quoted.
  if (row.found.startsWith('customer'))
    return { field: row.request, text: `its ${row.found} differs`, detail: '' };
  const detail = ` (${shown(theirs)} there, ${shown(ours)} here)`;
  const text = isAbsent(theirs)
    ? `it does not show its ${row.found}`
    : `its ${row.found} is ${shown(theirs)}, not ${shown(ours)}`;
  return { field: row.request, text, detail };
}

function same(compare: RecoveryMatch['compare'], a: unknown, b: unknown): boolean {
  if (compare === 'amount') return sameNumber(a, b);
  const x = textOf(a);
  const y = textOf(b);
  if (x === undefined || y === undefined) return false;
  return compare === 'id' ? x === y : x.toUpperCase() === y.toUpperCase();
}

function isAbsent(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

/** The value at a dotted path, own properties only (a key named like a prototype member finds nothing). */
function at(value: unknown, path: string): unknown {
  if (!path.includes('.')) return own(value, path);
  let current = value;
  for (const key of path.split('.')) current = own(current, key);
  return current;
}

function own(value: unknown, key: string): unknown {
  return value !== null && typeof value === 'object' && Object.hasOwn(value, key)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

/** PAYIN / PAYOUT when `type_transaction` says so (any case or spacing); a descriptive word proves nothing. */
function kindOf(label: unknown): TransactionKind | undefined {
  if (typeof label !== 'string') return undefined;
  const shape = label.toUpperCase().replace(/[^A-Z]/g, '');
  return shape === 'PAYIN' || shape === 'PAYOUT' ? shape : undefined;
}

// Run for every create's answer (the match check): no closure or array per call.
function sameNumber(a: unknown, b: unknown): boolean {
  const x = numberOf(a);
  const y = numberOf(b);
  return typeof x === 'number' && typeof y === 'number' && Number.isFinite(x) && x === y;
}

function numberOf(value: unknown): unknown {
  return typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
}

function textOf(value: unknown): string | undefined {
  return typeof value === 'string' || typeof value === 'number' ? String(value).trim() : undefined;
}

function shown(value: unknown): string {
  return value === undefined || value === null ? 'not shown' : JSON.stringify(value);
}
