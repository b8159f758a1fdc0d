/** Type guards every layer reads untrusted values with (answers, webhook bodies, requests to the simulator). */

/** A non-null object that is not an array: what a JSON object parses to. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** `value` as a record when {@link isRecord}, else undefined: for reading optional nested fields. */
export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return isRecord(value) ? value : undefined;
}
