/**
 * TypeDoc plugin for payinout's API reference.
 *
 * 1. Field descriptions from the schemas. A description is written once, as the doc comment of a
 *    field in a zod schema (src/schemas/). The editor shows it on hover through the inferred type;
 *    TypeDoc does not (typedoc-plugin-zod expands `z.input<typeof …>` into the field list, but a
 *    field of a type zod infers is a mapped-type symbol without declarations of its own). This
 *    gives such fields the comment TypeScript itself resolves, so every params and result page
 *    lists its fields with their descriptions. The same reader (doc-comments.mjs) feeds the
 *    OpenAPI document's descriptions.
 * 2. Groups the API reference index by what a reader looks for — Client, Resources,
 * Webhooks, Errors, Schemas, Testing — from where each export is defined, so the module index
 * does not bury PaymentClient among 20 error classes, and no source file needs a `@group` tag.
 * An explicit `@group` tag in a comment still wins.
 */
import { Comment, CommentTag, Converter, ReflectionKind } from 'typedoc';
import { docText } from './doc-comments.mjs';

/** First match wins: a source path fragment → its group. */
const GROUPS = [
  ['src/core/errors.ts', 'Errors'],
  ['src/bulk/errors.ts', 'Errors'],
  ['src/api/errors.ts', 'Errors'],
  ['src/tracing/', 'Client'],
  ['src/client.ts', 'Client'],
  ['src/client-options.ts', 'Client'],
  ['src/core/', 'Client'],
  ['src/version.ts', 'Client'],
  ['src/resources/', 'Resources'],
  ['src/bulk/', 'Resources'],
  ['src/api/', 'Schemas'],
  ['src/webhooks/', 'Webhooks'],
  ['src/redis/', 'Webhooks'],
  ['src/schemas/', 'Schemas'],
  ['src/testing/', 'Testing'],
];

/** The group of a reflection's source file, if a fragment of GROUPS names it. */
function groupOf(reflection) {
  const file = reflection.sources?.[0]?.fullFileName?.replaceAll('\\', '/') ?? '';
  return GROUPS.find(([fragment]) => file.includes(fragment))?.[1];
}

/** @param {import('typedoc').Application} app */
export function load(app) {
  app.converter.on(Converter.EVENT_CREATE_DECLARATION, (context, reflection) => {
    if (!reflection.kindOf(ReflectionKind.Property) || reflection.comment) return;
    const symbol = context.getSymbolFromReflection(reflection);
    if (!symbol || symbol.getDeclarations()?.length) return;
    const text = docText(symbol, context.checker);
    if (text) reflection.comment = new Comment([{ kind: 'text', text }]);
  });
  app.converter.on(Converter.EVENT_CREATE_DECLARATION, (_context, reflection) => {
    if (!reflection.parent?.kindOf(ReflectionKind.Module | ReflectionKind.Project)) return;
    // A name the main entry exports both by name and in a namespace (catalog) is a reference
    // declared in src/index.ts, which names no group: it takes its target's.
    const target = reflection.kindOf(ReflectionKind.Reference) && reflection.tryGetTargetReflectionDeep();
    const group = groupOf(reflection) ?? (target ? groupOf(target) : undefined);
    if (!group) return;
    reflection.comment ??= new Comment();
    if (reflection.comment.getTag('@group')) return;
    reflection.comment.blockTags.push(new CommentTag('@group', [{ kind: 'text', text: group }]));
  });
}
