import type ts from 'typescript';

/** Component name → field path ('' = the schema itself; '.' nests, '[]' is an array item) → text. */
export type SchemaDescriptions = Record<string, Record<string, string>>;

export function docText(symbol: ts.Symbol, checker: ts.TypeChecker): string;
export function createChecker(
  rootNames: readonly string[],
  tsconfigPath?: string,
): { program: ts.Program; checker: ts.TypeChecker };
export function schemaDescriptions(files: readonly string[], tsconfigPath?: string): SchemaDescriptions;
