/**
 * Build step: writes openapi.json at the package root (the package export `payinout/openapi.json`)
 * from the operations table and the zod schemas — the same document the simulator serves and
 * `payinout openapi` prints. At the root rather than in dist/ so that `moduleResolution: node10`,
 * which ignores `exports`, finds `payinout/openapi.json` at the same path.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { buildOpenApiDocument } from '../src/openapi/document.js';

const target = new URL('../openapi.json', import.meta.url);
mkdirSync(new URL('.', target), { recursive: true });
writeFileSync(target, `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`);
process.stdout.write(`openapi: wrote ${target.pathname}\n`);
