/**
 * Build step (before tsup): writes src/openapi/descriptions.generated.json — the doc comments of
 * the schemas' fields, by component and field path — so the OpenAPI document (built in the
 * testing entry and the CLI, never the main entry) carries the descriptions written once on the
 * schema fields, without the text reaching the `payinout` bundle or a `.meta()` copy of it.
 * A test fails when the committed file is stale: run `npm run build` (or this script).
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { schemaDescriptions } from './doc-comments.mjs';

/** The schema modules whose `…Schema` exports become components (src/openapi/components.ts). */
export const SCHEMA_FILES = [
  'common',
  'merchant',
  'payin',
  'payin-result',
  'payout',
  'sandbox',
  'transaction',
  'webhook',
  'wire',
].map((name) => fileURLToPath(new URL(`../src/schemas/${name}.ts`, import.meta.url)));

export const TARGET = new URL('../src/openapi/descriptions.generated.json', import.meta.url);

/** The file's text: component → field path ('' = the schema itself) → description. */
export function descriptionsJson() {
  return `${JSON.stringify(schemaDescriptions(SCHEMA_FILES), null, 2)}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(TARGET, descriptionsJson());
  process.stdout.write(`openapi: wrote ${fileURLToPath(TARGET)}\n`);
}
