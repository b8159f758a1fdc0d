/**
 * createWebhookHandler: verify → dedupe → onEvent → HTTP answer, for Fetch-API runtimes
 * (Next.js route handlers, Hono, Bun, Deno, Workers) and node:http / Express (`.node`).
 *
 * The service retries until it gets a 200 (spec "Events", rules 3–4), so the status code is
 * the contract: 200 processed or duplicate; 401 bad or missing signature; 400 unreadable
 * body or a pre-parsed body; 413 too large; 409 while the same event is being processed
 * elsewhere (the service retries later and then gets 'duplicate'); 500 when onEvent throws
 * (the claim is released so that retry is processed); 503 when the dedupe store fails.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ConfigurationError, WebhookVerificationError } from '../core/errors.js';
import type { WebhookEvent } from '../schemas/webhook.js';
import { WebhookDeduplicator } from './dedupe.js';
import { DEFAULT_MAX_BODY_BYTES, getHeader, type HeadersLike, type RawBody, tooLargeError } from './parse.js';
import type { SignatureScheme } from './signature.js';
import { checkVerifyOptions, verifyWebhook } from './verify.js';

/** Options of {@link createWebhookHandler}. */
export interface WebhookHandlerOptions {
  /** The merchant token. */
  token: string;
  /** Runs at most once per event (ticket + status) per dedupe store. Throw to have the service retry. */
  onEvent: (event: WebhookEvent) => unknown;
  /** Default: an in-memory WebhookDeduplicator (one process). `false` turns dedupe off. */
  dedupe?: WebhookDeduplicator | false;
  /** Signature scheme; default 'json'. */
  scheme?: SignatureScheme;
  /** Default 256 KB. */
  maxBodyBytes?: number;
  /** Told about every delivery that is not answered 200 (for logging); never throws into the answer. */
  onError?: (error: unknown, context: { status: number; event?: WebhookEvent }) => void;
}

/** What the handler answers, framework-neutral. */
export interface WebhookHandlerResult {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * The receiver {@link createWebhookHandler} returns: a Fetch-API function, plus `.node` and
 * `.handle` for other frameworks. Every form answers the same status codes.
 */
export interface WebhookHandler {
  /** Fetch API: `export const POST = handler` in a Next.js route, `app.post('/webhooks', (c) => handler(c.req.raw))` in Hono. */
  (request: Request): Promise<Response>;
  /** node:http and Express. Reads the raw stream itself, or uses `req.body` when it is a Buffer/string (`express.raw()`). */
  node(req: IncomingMessage & { body?: unknown }, res: ServerResponse): Promise<void>;
  /** Any framework: give the raw body and the headers, send back the result (Fastify, see docs/webhooks.md). */
  handle(rawBody: RawBody, headers: HeadersLike): Promise<WebhookHandlerResult>;
}

const STATUS_BY_REASON = {
  missing_signature: 401,
  signature_mismatch: 401,
  malformed_body: 400,
  parsed_body: 400,
  body_too_large: 413,
} as const;

/**
 * A complete webhook receiver: verifies `x-trx-signature` on the raw body, deduplicates
 * (ticket + status), runs `onEvent` once per event, and answers the status code the service's
 * retries depend on: 200 processed or duplicate, 401 bad signature, 400 unreadable or pre-parsed
 * body, 413 too large, 409 in flight elsewhere, 500 when `onEvent` throws (the claim is released,
 * so the retry is processed), 503 when the dedupe store fails. Guide: docs/webhooks.md.
 * @example
 * // Fetch API (Next.js route handler, Hono, Bun, Deno, Workers)
 * const handler = createWebhookHandler({
 *   token: process.env.PAYINOUT_TOKEN!,
 *   onEvent: async (event) => {
 *     if (event.top_status === 'APPROVED') await markPaid(event.top_reference);
 *   },
 * });
 * export const POST = handler;
 * @example
 * // Express: mount before any JSON body parser, with a raw body
 * app.post('/webhooks/payinout', express.raw({ type: 'application/json' }), (req, res) => handler.node(req, res));
 */
export function createWebhookHandler(options: WebhookHandlerOptions): WebhookHandler {
  if (options === null || typeof options !== 'object' || typeof options.onEvent !== 'function') {
    throw new ConfigurationError('createWebhookHandler needs { token, onEvent }.');
  }
  const { token, onEvent, onError } = options;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const verifyOptions = { token, maxBodyBytes, ...(options.scheme ? { scheme: options.scheme } : {}) };
  checkVerifyOptions(verifyOptions); // fail at startup, not on the first delivery
  const dedupe = options.dedupe === false ? undefined : (options.dedupe ?? new WebhookDeduplicator());

  const report = (error: unknown, status: number, event?: WebhookEvent) => {
    try {
      onError?.(error, event ? { status, event } : { status });
    } catch {
      // A failing logger must not change the answer.
    }
  };

  async function handle(rawBody: RawBody, headers: HeadersLike): Promise<WebhookHandlerResult> {
    let event: WebhookEvent;
    try {
      event = verifyWebhook(rawBody, headers, verifyOptions);
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      const status = STATUS_BY_REASON[error.reason];
      report(error, status);
      return answer(status, { error: error.reason, message: error.message });
    }
    let claim: 'new' | 'duplicate' | 'in-flight' = 'new';
    try {
      if (dedupe) claim = await dedupe.claim(event);
    } catch (error) {
      report(error, 503, event);
      return answer(503, { error: 'dedupe_unavailable', message: 'Dedupe store unavailable; retry later.' });
    }
    if (claim === 'duplicate') return answer(200, { received: true, result: 'duplicate' });
    if (claim === 'in-flight') {
      return answer(
        409,
        { error: 'in_flight', message: 'This event is being processed by another request; retry later.' },
        { 'retry-after': '60' },
      );
    }
    try {
      await onEvent(event);
    } catch (error) {
      // Release first so the service's retry is processed; the error text may hold PII, so it is not sent.
      await dedupe?.release(event).catch((releaseError: unknown) => report(releaseError, 500, event));
      report(error, 500, event);
      return answer(500, { error: 'handler_failed', message: 'onEvent failed; the service will retry.' });
    }
    // Processed: a failure to record it only risks a duplicate later, so the answer stays 200.
    await dedupe?.complete(event).catch((error: unknown) => report(error, 200, event));
    return answer(200, { received: true, result: 'processed' });
  }

  /** Unexpected failures (a throwing custom scheme, a broken stream) answer 500, never reject. */
  async function safely(run: () => Promise<WebhookHandlerResult>): Promise<WebhookHandlerResult> {
    try {
      return await run();
    } catch (error) {
      report(error, 500);
      return answer(500, { error: 'internal_error', message: 'The webhook could not be processed.' });
    }
  }

  async function fromStream(
    stream: AsyncIterable<Uint8Array | string>,
    contentLength: string | null | undefined,
    headers: HeadersLike,
  ): Promise<WebhookHandlerResult> {
    const body = await readLimited(stream, contentLength, maxBodyBytes);
    if (body) return handle(body, headers);
    const error = tooLargeError(maxBodyBytes);
    report(error, 413);
    return answer(413, { error: error.reason, message: error.message });
  }

  const fetchHandler = async (request: Request): Promise<Response> => {
    const result = await safely(async () => {
      if (request.method !== 'POST') return methodNotAllowed();
      const stream = request.body ? chunksOf(request.body) : emptyStream();
      return fromStream(stream, request.headers.get('content-length'), request.headers);
    });
    return new Response(result.body, { status: result.status, headers: result.headers });
  };

  const node = async (req: IncomingMessage & { body?: unknown }, res: ServerResponse): Promise<void> => {
    const result = await safely(async () => {
      if (req.method !== 'POST') return methodNotAllowed();
      const preRead = req.body;
      // express.raw() / express.text() left the exact bytes: use them.
      if (typeof preRead === 'string' || preRead instanceof Uint8Array) return handle(preRead, req.headers);
      // A body parser consumed the stream: the signed bytes are gone (parsed_body / malformed_body).
      if (req.readableEnded) return handle(preRead as RawBody, req.headers);
      return fromStream(req, getHeader(req.headers, 'content-length'), req.headers);
    });
    if (res.headersSent) return;
    res.statusCode = result.status;
    for (const [name, value] of Object.entries(result.headers)) res.setHeader(name, value);
    res.end(result.body);
  };

  return Object.assign(fetchHandler, {
    node,
    handle: (rawBody: RawBody, headers: HeadersLike) => safely(() => handle(rawBody, headers)),
  });
}

function answer(status: number, payload: object, extra: Record<string, string> = {}): WebhookHandlerResult {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...extra },
    body: JSON.stringify(payload),
  };
}

function methodNotAllowed(): WebhookHandlerResult {
  return answer(
    405,
    { error: 'method_not_allowed', message: 'Webhooks are delivered with POST.' },
    { allow: 'POST' },
  );
}

/** Reads a stream up to `max` bytes; undefined as soon as it is over (a huge body is never buffered). */
async function readLimited(
  stream: AsyncIterable<Uint8Array | string>,
  contentLength: string | null | undefined,
  max: number,
): Promise<Uint8Array | undefined> {
  if (contentLength && Number(contentLength) > max) return undefined;
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    total += bytes.byteLength;
    if (total > max) return undefined;
    chunks.push(bytes);
  }
  return Buffer.concat(chunks);
}

async function* emptyStream(): AsyncIterable<Uint8Array> {}

/** A web ReadableStream as an async iterable, via its reader (portable to runtimes without stream iteration). */
async function* chunksOf(stream: ReadableStream<Uint8Array>): AsyncIterable<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}
