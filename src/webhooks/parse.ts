/**
 * Reading a webhook delivery: raw body → text → plain record → zod event.
 * The spec ("Events") does not show the body's content type, so JSON (the documented
 * form) is read first-class and application/x-www-form-urlencoded tolerantly.
 * Every failure is a WebhookVerificationError; messages never echo body values.
 */
import { WebhookVerificationError } from '../core/errors.js';
import { isRecord } from '../core/guards.js';
import { guide } from '../core/guides.js';
import { safeParse } from '../schemas/kit.js';
import { type WebhookEvent, WebhookEventSchema } from '../schemas/webhook.js';

/** Fetch `Headers`, node's `IncomingHttpHeaders`, or a plain record; names are case-insensitive. */
export type HeadersLike =
  | Headers
  | {
      /** The header's value, or null when absent (the Fetch API `Headers.get` shape). */
      get(name: string): string | null;
    }
  | Record<string, string | readonly string[] | number | undefined>;

/** The raw request body, exactly as received. */
export type RawBody = string | Uint8Array;

export const DEFAULT_MAX_BODY_BYTES = 256 * 1024;

/** Where a raw body comes from, framework by framework; said once, after the cause. */
export const RAW_BODY_HELP =
  "Express: give the route express.raw({ type: '*/*' }), registered before any global express.json(); " +
  'node:http: call handler.node(req, res) before anything reads the request, or pass the bytes you read to ' +
  `handler.handle(rawBody, req.headers); Next.js: await req.text(). ${guide('webhooks.md', 'raw-bodies-framework-by-framework')}`;

/**
 * node:http: the app read the request stream before `.node` ran and left no bytes on `req.body`,
 * so the signed body is gone. Not a body parser's doing: the fix is to hand over the bytes read.
 */
export function streamAlreadyRead(): WebhookVerificationError {
  return new WebhookVerificationError(
    'malformed_body',
    'The request stream was already read before handler.node(req, res) ran, and req.body holds no raw bytes, so the ' +
      'signed body is gone. If your code reads the body itself, pass those exact bytes instead: const result = await ' +
      'handler.handle(rawBody, req.headers); res.writeHead(result.status, result.headers).end(result.body). Otherwise ' +
      `call handler.node(req, res) before anything reads the request. ${guide('webhooks.md', 'raw-bodies-framework-by-framework')}`,
  );
}

/** Keys never copied into parsed objects (prototype pollution). */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

export { isRecord };

/** Case-insensitive header lookup; a repeated header yields its first value. */
export function getHeader(headers: unknown, name: string): string | undefined {
  if (headers === null || typeof headers !== 'object') return undefined;
  const getter = (headers as { get?: unknown }).get;
  if (typeof getter === 'function') {
    const value: unknown = getter.call(headers, name);
    return typeof value === 'string' ? value : undefined;
  }
  const wanted = name.toLowerCase();
  for (const key of Object.keys(headers)) {
    if (key.toLowerCase() !== wanted) continue;
    const value: unknown = (headers as Record<string, unknown>)[key];
    const first: unknown = Array.isArray(value) ? value[0] : value;
    if (typeof first === 'string') return first;
    if (typeof first === 'number') return String(first);
  }
  return undefined;
}

/** Raw body → text, enforcing the size cap and UTF-8 validity. */
export function readBodyText(rawBody: unknown, maxBytes: number = DEFAULT_MAX_BODY_BYTES): string {
  if (typeof rawBody === 'string') {
    // A UTF-16 code unit is at most 3 UTF-8 bytes: most bodies skip the exact count.
    if (
      rawBody.length > maxBytes ||
      (rawBody.length * 3 > maxBytes && new TextEncoder().encode(rawBody).byteLength > maxBytes)
    )
      throw tooLargeError(maxBytes);
    return rawBody.replace(/^\uFEFF/, '');
  }
  if (rawBody instanceof Uint8Array) {
    if (rawBody.byteLength > maxBytes) throw tooLargeError(maxBytes);
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(rawBody);
    } catch {
      throw malformed('the body is not valid UTF-8');
    }
  }
  if (rawBody instanceof ArrayBuffer) return readBodyText(new Uint8Array(rawBody), maxBytes);
  if (rawBody !== null && typeof rawBody === 'object') {
    throw new WebhookVerificationError(
      'parsed_body',
      'Received an already-parsed object, not the raw body: a body parser ran before the webhook handler, ' +
        'usually a global app.use(express.json()) registered before the webhook route. Register the webhook ' +
        "route before app.use(express.json()), or give it express.raw({ type: '*/*' }); Next.js: await req.text(). " +
        guide('webhooks.md', 'raw-bodies-framework-by-framework'),
    );
  }
  throw new WebhookVerificationError(
    'malformed_body',
    `Unreadable webhook body: no raw body was given (got ${rawBody === null ? 'null' : typeof rawBody}); pass it as a string or bytes, exactly as received. ${RAW_BODY_HELP}`,
  );
}

/** Text → plain record with no dangerous keys. JSON or form-urlencoded, by content type or by sniffing. */
export function decodeBody(text: string, contentType: string | undefined): Record<string, unknown> {
  const type = (contentType ?? '').toLowerCase();
  const trimmed = text.trim();
  const isForm = type.includes('application/x-www-form-urlencoded');
  if (trimmed === '') throw malformed('the body is empty');
  const record =
    isForm || (!type.includes('json') && !trimmed.startsWith('{'))
      ? decodeForm(trimmed)
      : decodeJson(trimmed);
  if (!isRecord(record)) throw malformed('the body is not a JSON object nor a form-urlencoded record');
  return record;
}

/** Record → typed event, or malformed_body naming the fields (never their values). */
export function toEvent(record: Record<string, unknown>): WebhookEvent {
  const result = safeParse(WebhookEventSchema, record);
  if (result.success) return result.data;
  const fields = result.error.issues.map((i) => `${i.path.join('.') || '(root)'} (${i.code})`);
  throw malformed(`invalid fields: ${[...new Set(fields)].join(', ')}`);
}

/**
 * A body that could hold a forbidden key: one named literally, or any \u escape (which could
 * spell one). Only such bodies pay for the reviver, which costs ~3× a plain JSON.parse.
 */
const MAY_HOLD_FORBIDDEN_KEY = /"(?:__proto__|constructor|prototype)"|\\u/;

function decodeJson(text: string): unknown {
  try {
    // The reviver drops forbidden keys at every depth before any object is used.
    return MAY_HOLD_FORBIDDEN_KEY.test(text)
      ? JSON.parse(text, (key, value) => (FORBIDDEN_KEYS.has(key) ? undefined : value))
      : JSON.parse(text);
  } catch {
    throw malformed('the body is not valid JSON');
  }
}

/** form-urlencoded: `top_user` may be a JSON string or bracketed (`top_user[email]=…`). */
function decodeForm(text: string): Record<string, unknown> {
  if (!text.includes('=')) throw malformed('the body is neither JSON nor form-urlencoded');
  const out: Record<string, unknown> = {};
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const nested = /^([^[\]]+)\[([^[\]]+)\]$/.exec(rawKey);
    const [key, sub] = nested ? [nested[1]!, nested[2]!] : [rawKey, undefined];
    if (FORBIDDEN_KEYS.has(key) || (sub !== undefined && FORBIDDEN_KEYS.has(sub))) continue;
    if (sub === undefined) {
      out[key] = maybeJsonObject(value);
      continue;
    }
    const current = out[key];
    const target = isRecord(current) ? current : {};
    target[sub] = value;
    out[key] = target;
  }
  return out;
}

/** A form value that holds a JSON object (top_user, top_card) is decoded; anything else stays text. */
function maybeJsonObject(value: string): unknown {
  if (!value.trimStart().startsWith('{')) return value;
  try {
    return decodeJson(value);
  } catch {
    return value;
  }
}

export function tooLargeError(maxBytes: number): WebhookVerificationError {
  return new WebhookVerificationError(
    'body_too_large',
    `Webhook body exceeds ${maxBytes} bytes; refused unread. Raise maxBodyBytes if your deliveries are legitimately larger.`,
  );
}

export function malformed(why: string): WebhookVerificationError {
  return new WebhookVerificationError(
    'malformed_body',
    `Unreadable webhook body: ${why}. Pass the raw body exactly as received; a genuine delivery is a JSON object with top_status, top_ticket and top_reference.`,
  );
}
