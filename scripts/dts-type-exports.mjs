/**
 * Build step (after tsup): an entry's declarations export as a value only what its JavaScript
 * exports. The declaration bundler re-exports a class the source exports type-only
 * (`export type { PayInResource }`) as `export { T as PayInResource } from './client-….js'`,
 * dropping `type`: TypeScript then accepts `new PayInResource()` and, under
 * `verbatimModuleSyntax`, keeps `import { PayInResource }` in the emitted JavaScript, which fails
 * at load ("does not provide an export named"). Each name of an entry's `export { … }` clauses
 * that the entry's JavaScript does not export gets its `type` modifier back. The TS 7 resolution
 * matrix of scripts/check-types.mjs fails on any such name left.
 *
 *   node scripts/dts-type-exports.mjs [dist]
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

/** The export names of an ESM file, as esbuild reads them (nothing is run). */
async function valueExports(file) {
  const result = await build({
    entryPoints: [file],
    bundle: false,
    write: false,
    metafile: true,
    format: 'esm',
    logLevel: 'silent',
  });
  return new Set(Object.values(result.metafile.outputs)[0].exports);
}

/** `export { A as B, type C }` clauses with each exported name missing from `values` marked `type`. */
function markTypeOnly(declarations, values) {
  let changed = 0;
  const text = declarations.replace(/^export \{([^}]*)\}/gm, (_clause, list) => {
    const items = list.split(',').map((raw) => {
      const item = raw.trim();
      if (!item || item.startsWith('type ')) return item;
      const exported = item.split(/\s+as\s+/).pop();
      if (values.has(exported)) return item;
      changed++;
      return `type ${item}`;
    });
    return `export { ${items.filter(Boolean).join(', ')} }`;
  });
  return { text, changed };
}

/** dist/…/index.js beside its index.d.ts and index.d.cts: the package's entries. */
function entries(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entries(path);
    return entry.name === 'index.d.ts' && existsSync(join(dir, 'index.js')) ? [dir] : [];
  });
}

const dist = process.argv[2] ?? 'dist';
let total = 0;
for (const dir of entries(dist)) {
  const values = await valueExports(join(dir, 'index.js'));
  for (const name of ['index.d.ts', 'index.d.cts']) {
    const path = join(dir, name);
    if (!existsSync(path)) continue;
    const { text, changed } = markTypeOnly(readFileSync(path, 'utf8'), values);
    if (changed) writeFileSync(path, text);
    total += changed;
  }
}
console.log(`dts-type-exports: ${total} type-only re-exports marked \`type\` in ${dist}`);
