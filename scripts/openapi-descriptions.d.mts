export const SCHEMA_FILES: readonly string[];
export const TARGET: URL;
export function descriptionsJson(): string;
