/**
 * Doc comments of the zod schemas' fields, as TypeScript itself resolves them (what an editor
 * shows on hover). A field of a type zod infers is a mapped-type symbol; the checker follows it
 * back to the comment written on the schema's property. Shared by the TypeDoc plugin (API
 * reference) and scripts/openapi-descriptions.mjs (OpenAPI), so both read one source.
 */
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** The doc comment of a symbol as plain text ('' when it has none). */
export function docText(symbol, checker) {
  return ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim();
}

const PROJECT_TSCONFIG = fileURLToPath(new URL('../tsconfig.json', import.meta.url));

/** A checker over the given source files with the project's compiler options (as the editor has them). */
export function createChecker(rootNames, tsconfigPath = PROJECT_TSCONFIG) {
  const host = {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic(diagnostic) {
      throw new Error(`doc-comments: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`);
    },
  };
  const config = ts.getParsedCommandLineOfConfigFile(tsconfigPath, {}, host);
  if (!config) throw new Error(`doc-comments: cannot read ${tsconfigPath}`);
  const program = ts.createProgram({ rootNames, options: config.options });
  return { program, checker: program.getTypeChecker() };
}

/**
 * Descriptions of the `…Schema` exports of the given modules, by component name (the export
 * name without `Schema`) → field path → text. The path '' is the export's own comment; nested
 * fields are joined by '.', array items are '[]'. For a response schema (`{ tolerant, strict }`)
 * the tolerant twin's fields are read. The type read is the schema's input (zod's `_zod.input`),
 * the side the OpenAPI document describes.
 */
export function schemaDescriptions(files, tsconfigPath) {
  const { program, checker } = createChecker(files, tsconfigPath);
  const out = {};
  for (const file of files) {
    const source = program.getSourceFile(file);
    const module = source && checker.getSymbolAtLocation(source);
    if (!module) throw new Error(`doc-comments: cannot read ${file}`);
    for (const symbol of checker.getExportsOfModule(module)) {
      if (!symbol.name.endsWith('Schema')) continue;
      const input = inputType(checker.getTypeOfSymbol(symbol), checker);
      if (!input) continue;
      const fields = {};
      const own = docText(symbol, checker);
      if (own) fields[''] = own;
      collect(input, '', fields, checker, 0);
      if (Object.keys(fields).length) out[symbol.name.slice(0, -'Schema'.length)] = fields;
    }
  }
  inherit(out);
  return sortKeys(out);
}

/**
 * A country's customer object replaces a shared field by its own list (`legal_doc_type` of CO's
 * PayIn customer) without repeating its comment: such a field takes the comment written on the
 * schema the object is built from, so it is still written once.
 */
const INHERITS = {
  PayInCreateParams: { customer_data: 'PayInCustomer' },
  PayInLegacyCreateParams: { customer_data: 'PayInCustomer' },
  PayOutCreateParams: { customer_data: 'PayOutCustomer' },
};

function inherit(out) {
  for (const [component, nested] of Object.entries(INHERITS)) {
    const fields = out[component];
    if (!fields) continue;
    for (const [prefix, source] of Object.entries(nested)) {
      for (const [path, text] of Object.entries(out[source] ?? {})) {
        const at = path ? `${prefix}.${path}` : prefix;
        if (path && !(at in fields)) fields[at] = text;
      }
    }
  }
}

function inputType(type, checker) {
  const tolerant = type.getProperty('tolerant');
  const schema = tolerant ? checker.getTypeOfSymbol(tolerant) : type;
  const zod = schema.getProperty('_zod');
  const input = zod && checker.getTypeOfSymbol(zod).getProperty('input');
  return input ? checker.getTypeOfSymbol(input) : undefined;
}

const MAX_DEPTH = 6;

/** Walks an input type's properties (every member of a union), nested objects and array items. */
function collect(type, path, fields, checker, depth) {
  if (depth > MAX_DEPTH) return;
  const target = checker.getNonNullableType(type);
  if (target.isUnion()) {
    for (const member of target.types) collect(member, path, fields, checker, depth + 1);
    return;
  }
  if (checker.isArrayType(target)) {
    const [item] = checker.getTypeArguments(target);
    if (item) collect(item, join(path, '[]'), fields, checker, depth + 1);
    return;
  }
  if (!(target.flags & ts.TypeFlags.Object) && !target.isIntersection()) return;
  for (const property of checker.getPropertiesOfType(target)) {
    const at = join(path, property.name);
    const text = docText(property, checker);
    if (text && !(at in fields)) fields[at] = text;
    collect(checker.getTypeOfSymbol(property), at, fields, checker, depth + 1);
  }
}

function join(path, name) {
  return path ? `${path}.${name}` : name;
}

function sortKeys(value) {
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys(value[key])]),
  );
}
