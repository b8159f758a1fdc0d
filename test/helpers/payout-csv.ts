/** One PayOut as a `payinout payouts send` CSV row: shared by the CLI, bulk and queue suites. */

/** The CSV header the CLI reads (docs/bulk-payouts.md), without the optional `metadata` column. */
export const PAYOUT_CSV_HEADER =
  'reference,amount,currency,country,payment_method,ipn_url,legal_doc,legal_doc_type,phone_code,phone_number,email,full_name,bank,account_number,account_type';

/** A PayOut's fields, any of them possibly missing or of the wrong type (rows a test breaks). */
interface CsvPayOut {
  reference?: unknown;
  amount?: unknown;
  currency?: unknown;
  country?: unknown;
  payment_method?: unknown;
  ipn_url?: unknown;
  customer_data: { [field: string]: unknown };
}

/** The row's cells in PAYOUT_CSV_HEADER's order. */
export function payoutCells(p: CsvPayOut): unknown[] {
  const c = p.customer_data;
  return [
    p.reference,
    p.amount,
    p.currency,
    p.country,
    p.payment_method,
    p.ipn_url,
    c.legal_doc,
    c.legal_doc_type,
    c.phone_code,
    c.phone_number,
    c.email,
    c.full_name,
    c.bank,
    c.account_number,
    c.account_type,
  ];
}

/** Cells as one CSV line, every cell quoted ("" inside). */
export function quotedLine(cells: readonly unknown[]): string {
  return cells.map((v) => `"${String(v).replaceAll('"', '""')}"`).join(',');
}
