/**
 * The CSV side of `payinout payouts send` (the public API contract, "Bulk payouts"): rows in
 * with csv-parse, streaming; results out through results-file.ts.
 */
import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';
import { validatePayOut } from '../bulk/item.js';
import type { PayOutBatchResult } from '../bulk/types.js';
import { PayinoutError, RequestValidationError, type ValidationIssue } from '../core/errors.js';
import { asRecord } from '../core/guards.js';
import { COUNTRY_TABLE } from '../schemas/catalog.js';

/** The PayOut fields, then customer_data's fields unprefixed, then the optional ones. */
const PAYOUT_COLUMNS = ['reference', 'amount', 'currency', 'country', 'payment_method', 'ipn_url'];
const CUSTOMER_COLUMNS = [
  'legal_doc',
  'legal_doc_type',
  'phone_code',
  'phone_number',
  'email',
  'full_name',
  'bank',
  'account_number',
  'account_type',
  'clabe_number',
];
const OPTIONAL_COLUMNS = new Set(['clabe_number', 'metadata']);
export const INPUT_COLUMNS = [...PAYOUT_COLUMNS, ...CUSTOMER_COLUMNS, 'metadata'];
export const RESULT_COLUMNS = ['reference', 'outcome', 'ticket', 'status', 'error'] as const;

/** The file cannot be used as a whole (header, structure): nothing is sent. */
export class CsvFileError extends Error {}

/** One data row: its line in the file, and either PayOut params or the reasons it is invalid. */
export type Row = { line: number; reference: string } & (
  | { params: Record<string, unknown>; issues?: undefined }
  | { params?: undefined; issues: ValidationIssue[] }
);

/** Streams the rows of `file`, each checked with the PayOut schema; throws CsvFileError on a bad header. */
export async function* readRows(file: string): AsyncGenerator<Row> {
  const parser = parse({
    bom: true,
    trim: true,
    skip_empty_lines: true,
    relax_column_count: true,
    info: true,
  });
  createReadStream(file)
    .on('error', (error) => parser.destroy(error))
    .pipe(parser);
  let header: string[] | undefined;
  try {
    for await (const { info, record } of parser as AsyncIterable<{
      info: { lines: number };
      record: string[];
    }>) {
      if (!header) {
        header = checkHeader(record);
        continue;
      }
      yield toRow(header, record, info.lines);
    }
  } catch (error) {
    if (error instanceof CsvFileError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR')
      throw new CsvFileError(`cannot read ${file} (${code}).`);
    throw new CsvFileError(`${file} is not a readable CSV file: ${(error as Error).message}`);
  }
  if (!header)
    throw new CsvFileError(`${file} is empty; the first line must be the header: ${INPUT_COLUMNS.join(',')}`);
}

function checkHeader(cells: string[]): string[] {
  const header = cells.map((cell) => cell.toLowerCase());
  const unknown = header.filter((name) => !INPUT_COLUMNS.includes(name));
  const missing = INPUT_COLUMNS.filter((name) => !OPTIONAL_COLUMNS.has(name) && !header.includes(name));
  const twice = header.filter((name, i) => header.indexOf(name) !== i);
  const problems = [
    unknown.length ? `unknown column(s) ${unknown.join(', ')}` : '',
    missing.length ? `missing column(s) ${missing.join(', ')}` : '',
    twice.length ? `repeated column(s) ${twice.join(', ')}` : '',
  ].filter(Boolean);
  if (problems.length) {
    throw new CsvFileError(
      `the header has ${problems.join('; ')}. Expected: ${INPUT_COLUMNS.join(',')} (clabe_number and metadata optional).`,
    );
  }
  return header;
}

/** A row's cells as PayOut params, validated with the same schema as payout.create. */
function toRow(header: string[], cells: string[], line: number): Row {
  const cell = (name: string) => {
    const value = cells[header.indexOf(name)];
    return value === undefined || value === '' ? undefined : value;
  };
  const reference = cell('reference') ?? '';
  const issues: ValidationIssue[] = [];
  if (cells.length !== header.length) {
    issues.push({ path: '(row)', message: `has ${cells.length} cells; the header has ${header.length}` });
  }
  const params: Record<string, unknown> = {};
  const customer: Record<string, unknown> = {};
  for (const name of PAYOUT_COLUMNS) params[name] = cell(name);
  for (const name of CUSTOMER_COLUMNS) if (cell(name) !== undefined) customer[name] = cell(name);
  params.customer_data = customer;
  const amount = cell('amount');
  // A number when it reads as one; otherwise left as text so the schema reports it.
  if (amount !== undefined && /^-?\d+(\.\d+)?$/.test(amount)) params.amount = Number(amount);
  const metadata = cell('metadata');
  if (metadata !== undefined) {
    const parsed = parseObject(metadata);
    if (parsed) params.metadata = parsed;
    else issues.push({ path: 'metadata', message: 'must be a JSON object, e.g. {"batch":"2025-06"}' });
  }
  for (const key of Object.keys(params)) if (params[key] === undefined) delete params[key];
  const checked = validatePayOut(params);
  for (const i of schemaIssues(checked, params)) issues.push({ ...i, path: columnOf(i.path) });
  if (issues.length || 'error' in checked) return { line, reference, issues };
  // The schema's own output: the batch sends it without parsing the row again.
  return { line, reference, params: checked.params };
}

/**
 * The PayOut schema's issues for a row, as many as one pass can know. The schema is chosen by
 * `country`, so a row with no usable country would show that one error and, once it is fixed,
 * the next ones; instead the row is also checked as each country, and what every country's rules
 * say about it (an amount that is not a number, a missing bank) is reported too.
 */
function schemaIssues(
  checked: ReturnType<typeof validatePayOut>,
  params: Record<string, unknown>,
): ValidationIssue[] {
  if (!('error' in checked)) return [];
  const issues = checked.error.issues;
  if (!issues.some((i) => i.path === 'country')) return issues;
  return [...issues, ...issuesOfEveryCountry(params)];
}

function issuesOfEveryCountry(params: Record<string, unknown>): ValidationIssue[] {
  const key = (i: ValidationIssue) => `${i.path}\n${i.message}`;
  let common: Map<string, ValidationIssue> | undefined;
  for (const country of Object.keys(COUNTRY_TABLE)) {
    const checked = validatePayOut({ ...params, country });
    const found = new Map(('error' in checked ? checked.error.issues : []).map((i) => [key(i), i]));
    common = common ? new Map([...common].filter(([k]) => found.has(k))) : found;
    if (common.size === 0) break;
  }
  return [...(common?.values() ?? [])];
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    return asRecord(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/** 'customer_data.bank' → 'bank': errors name the CSV column the user edits. */
function columnOf(path: string): string {
  return path.startsWith('customer_data.') ? path.slice('customer_data.'.length) : path || '(row)';
}

/** `line 7 (reference 'p-7'): amount: must be a number; bank: is required` */
export function describeRow(row: Row & { issues: ValidationIssue[] }): string {
  const ref = row.reference ? ` (reference '${row.reference}')` : '';
  return `line ${row.line}${ref}: ${describeIssues(row.issues)}`;
}

export function describeIssues(issues: ValidationIssue[]): string {
  return issues.map((i) => `${i.path}: ${i.message}`).join('; ');
}

export function rowError(row: Row & { issues: ValidationIssue[] }): RequestValidationError {
  return new RequestValidationError(`PayOut row on line ${row.line}`, row.issues);
}

/** One line per error: field issues listed, whitespace collapsed. */
export function errorCell(error: PayinoutError | undefined): string {
  if (!error) return '';
  if (error instanceof RequestValidationError) return `invalid row: ${describeIssues(error.issues)}`;
  return (error instanceof PayinoutError ? error.message : String(error)).replace(/\s+/g, ' ').trim();
}

/** A settled row as the results CSV's cells (RESULT_COLUMNS), one machine or the queue. */
export function resultCells(result: PayOutBatchResult): string[] {
  return [
    result.reference,
    result.outcome,
    result.ticket ?? '',
    result.status ?? '',
    errorCell(result.error),
  ];
}
