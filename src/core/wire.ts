/** Small pure helpers of the transport: the request body on the wire, and result decoration. */
import { RequestValidationError } from './errors.js';
import type { ResponseMeta, WithResponse } from './types.js';

export function serialize(body: unknown, what = 'request'): string | undefined {
  if (body === undefined) return undefined;
  let why = '';
  try {
    const text = JSON.stringify(body);
    if (typeof text === 'string') return text;
  } catch (error) {
    why = ` (${error instanceof Error ? error.message : String(error)})`;
  }
  throw new RequestValidationError(what, [{ path: '', message: `cannot be sent as JSON${why}` }], false);
}

export function attachResponse<T>(data: T, meta: ResponseMeta): WithResponse<T> {
  if (data !== null && typeof data === 'object') {
    Object.defineProperty(data, 'lastResponse', { value: meta, enumerable: false, configurable: true });
  }
  return data as WithResponse<T>;
}

export function toBase64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}
