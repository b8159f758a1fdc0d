/**
 * Build step: writes dist/openapi.json (the package export `payinout/openapi.json`) from the
 * operations table and the zod schemas — the same document the simulator serves and
 * `payinout openapi` prints.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { buildOpenApiDocument } from '../src/openapi/document.js';

const target = new URL('../dist/openapi.json', import.meta.url);
mkdirSync(new URL('.', target), { recursive: true });
writeFileSync(target, `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`);
process.stdout.write(`openapi: wrote ${target.pathname}\n`);
