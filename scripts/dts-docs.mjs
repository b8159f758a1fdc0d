/**
 * Build step (after tsup): puts each schema field's doc comment on the emitted .d.ts, so an
 * editor's hover on `amount` in `client.payin.create({ amount })` shows its description.
 *
 * Why a step: TypeScript's declaration emit writes the type of `PayInCreateParamsSchema` (an
 * inferred zod type) as an inline type literal and drops the comments of its properties, so every
 * param and result type derived from it (`z.input<typeof …Schema>`) hovers bare in a consumer's
 * editor, although it does in this repository's sources. The text is the one written on the
 * schema field (src/schemas/), read by scripts/doc-comments.mjs as for the OpenAPI document and
 * the API reference; a field that already carries a comment in the .d.ts keeps it.
 *
 *   node scripts/dts-docs.mjs [dist]
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { schemaDescriptions } from './doc-comments.mjs';
import { SCHEMA_FILES } from './openapi-descriptions.mjs';

/**
 * Type aliases written by hand next to a schema whose fields they repeat: their properties take
 * that schema's descriptions (the PSE direct pair of a Colombian customer, `bank`/`person_type`).
 */
const ALIASES = { PseDirectPair: 'PayInCustomer', NoPseDirect: 'PayInCustomer' };

/** Schemas outside src/schemas/ whose types the package exports too (not part of the OpenAPI document). */
const EXTRA_SCHEMA_FILES = ['testing/faults/rule.ts'].map((path) =>
  fileURLToPath(new URL(`../src/${path}`, import.meta.url)),
);

/** Every .d.ts / .d.cts under `dir`. */
function declarationFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return declarationFiles(path);
    return /\.d\.c?ts$/.test(entry.name) ? [path] : [];
  });
}

/** A doc comment for `text`, indented like the property it precedes. */
function comment(text, indent) {
  const lines = text.split('\n');
  if (lines.length === 1) return `/** ${text.replaceAll('*/', '*\\/')} */\n${indent}`;
  const body = lines.map((line) => `${indent} * ${line.replaceAll('*/', '*\\/')}`.trimEnd()).join('\n');
  return `/**\n${body}\n${indent} */\n${indent}`;
}

function propertyName(member, source) {
  const name = member.name;
  return ts.isStringLiteral(name) || ts.isIdentifier(name) ? name.text : name.getText(source);
}

/** The property names of an object type literal, sorted: its shape, to recognise it elsewhere. */
function shapeOf(node, source) {
  const names = node.members.filter(ts.isPropertySignature).map((m) => propertyName(m, source));
  return names.length >= 3 ? names.sort().join(',') : undefined;
}

/**
 * The insertions (position → comment) for one declaration's type, by field path. Each object
 * literal met is remembered by its shape (`ctx.shapes`), so the same shape written out elsewhere
 * (a method's inferred result type) gets the same comments.
 */
function describe(node, path, fields, ctx) {
  if (!node) return;
  const { source, edits } = ctx;
  if (ts.isTypeLiteralNode(node)) {
    ctx.handled.add(node);
    const shape = shapeOf(node, source);
    if (shape && !ctx.shapes.has(shape)) ctx.shapes.set(shape, { path, fields });
    for (const member of node.members) {
      if (!ts.isPropertySignature(member)) continue;
      const at = path ? `${path}.${propertyName(member, source)}` : propertyName(member, source);
      const text = fields[at];
      const documented = ts.getJSDocCommentsAndTags(member).length > 0;
      if (text && !documented) {
        const start = member.getStart(source);
        const lineStart = source.text.lastIndexOf('\n', start - 1) + 1;
        edits.push([start, comment(text, source.text.slice(lineStart, start))]);
      }
      describe(member.type, at, fields, ctx);
    }
    return;
  }
  const array =
    ts.isArrayTypeNode(node) ||
    (ts.isTypeReferenceNode(node) && /Array$/.test(node.typeName.getText(source)));
  ts.forEachChild(node, (child) =>
    describe(child, array ? `${path ? `${path}.` : ''}[]` : path, fields, ctx),
  );
}

/** The component a declaration's name stands for (`PayInCreateParamsSchema$1` → PayInCreateParams). */
function componentOf(name) {
  const bare = name.replace(/\$\d+$/, '');
  if (bare in ALIASES) return ALIASES[bare];
  return bare.endsWith('Schema') ? bare.slice(0, -'Schema'.length) : undefined;
}

/** Adds the comments to one file's text; returns the new text and how many were added. */
export function documentDeclarations(text, descriptions, fileName = 'index.d.ts') {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const ctx = { source, edits: [], shapes: new Map(), handled: new Set() };
  const visit = (node) => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name)) {
      const fields = descriptions[componentOf(node.name.text) ?? ''];
      if (fields) describe(node.type, '', fields, ctx);
    } else if (ts.isTypeAliasDeclaration(node)) {
      const fields = descriptions[componentOf(node.name.text) ?? ''];
      if (fields && node.name.text.replace(/\$\d+$/, '') in ALIASES) describe(node.type, '', fields, ctx);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  // Second pass: a schema's shape written out elsewhere, e.g. `transactions.get()`'s result type.
  const again = (node) => {
    if (ts.isTypeLiteralNode(node) && !ctx.handled.has(node)) {
      const known = ctx.shapes.get(shapeOf(node, source));
      if (known) return describe(node, known.path, known.fields, ctx);
    }
    ts.forEachChild(node, again);
  };
  again(source);
  const { edits } = ctx;
  let out = text;
  for (const [at, insert] of edits.sort((a, b) => b[0] - a[0]))
    out = out.slice(0, at) + insert + out.slice(at);
  return { text: out, added: edits.length };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const dist = process.argv[2] ?? fileURLToPath(new URL('../dist', import.meta.url));
  const descriptions = schemaDescriptions([...SCHEMA_FILES, ...EXTRA_SCHEMA_FILES]);
  let total = 0;
  for (const file of declarationFiles(dist)) {
    const { text, added } = documentDeclarations(readFileSync(file, 'utf8'), descriptions, file);
    if (added) writeFileSync(file, text);
    total += added;
  }
  process.stdout.write(`dts-docs: ${total} field descriptions written into ${dist}\n`);
}
