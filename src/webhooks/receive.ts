/**
 * A delivery as each form of the receiver gets it, read into the pipeline: a Fetch-API
 * `Request`, a node:http / Express request (its raw stream, or the bytes `express.raw()` left),
 * with the body read under `maxBodyBytes`. Anything but POST answers 405; an unexpected failure
 * answers 500 and never rejects.
 */
import { chunksOf, emptyStream, readCapped } from '../core/body.js';
import { PayinoutError } from '../core/errors.js';
import { getHeader, type HeadersLike, type RawBody, streamAlreadyRead, tooLargeError } from './parse.js';
import { type DeliveryNotes, failed, type Pipeline, processDelivery, refused } from './pipeline.js';
import { internalError, methodNotAllowed, type WebhookHandlerResult } from './respond.js';

/**
 * What `.node` reads of a node:http `IncomingMessage` (Express's `req` too), typed by shape so that
 * the package's types compile without `@types/node` (Workers, Edge, Deno projects).
 */
export interface NodeWebhookRequest extends AsyncIterable<Uint8Array | string> {
  method?: string | undefined;
  headers: HeadersLike;
  /** True when a body parser already consumed the stream. */
  readableEnded?: boolean;
  /** What a body parser left (`express.raw()`: the exact bytes). */
  body?: unknown;
}

/** What `.node` calls on a node:http `ServerResponse` (Express's `res` too). */
export interface NodeWebhookResponse {
  readonly headersSent: boolean;
  statusCode: number;
  /** Sets one answer header. */
  setHeader(name: string, value: string): unknown;
  /** Sends the answer's body and ends it. */
  end(body: string): unknown;
}

/** Unexpected failures (a throwing custom scheme, a broken stream) answer 500, never reject. */
export async function safely(
  p: Pipeline,
  notes: DeliveryNotes,
  run: () => Promise<WebhookHandlerResult>,
): Promise<WebhookHandlerResult> {
  try {
    return await run();
  } catch (error) {
    failed(p, notes, { error, status: 500, verdict: 'internal_error', event: notes.event });
    return internalError();
  }
}

export function fromRequest(
  p: Pipeline,
  request: Request,
  notes: DeliveryNotes,
): Promise<WebhookHandlerResult> {
  if (request.method !== 'POST') return Promise.resolve(notAPost(p, notes, request.method));
  const stream = request.body ? chunksOf(request.body) : emptyStream();
  return fromStream(p, stream, request.headers.get('content-length'), request.headers, notes);
}

export function fromNode(
  p: Pipeline,
  req: NodeWebhookRequest,
  notes: DeliveryNotes,
): Promise<WebhookHandlerResult> {
  if (req.method !== 'POST') return Promise.resolve(notAPost(p, notes, req.method));
  const preRead = req.body;
  // express.raw() / express.text() left the exact bytes: use them.
  if (typeof preRead === 'string' || preRead instanceof Uint8Array)
    return processDelivery(p, preRead, req.headers, notes);
  // Something consumed the stream: a body parser that left an object (parsed_body), or the app's
  // own code that left nothing (the bytes it read are what to pass to handle()).
  if (req.readableEnded) {
    if (preRead === undefined) return Promise.resolve(refused(p, notes, streamAlreadyRead()));
    return processDelivery(p, preRead as RawBody, req.headers, notes);
  }
  return fromStream(p, req, getHeader(req.headers, 'content-length'), req.headers, notes);
}

/** 405, reported like any failed answer: a health check or a proxy misroute shows in the logs. */
function notAPost(p: Pipeline, notes: DeliveryNotes, method: string | undefined): WebhookHandlerResult {
  const shown = method && /^[A-Z]{1,10}$/.test(method) ? method : 'non-POST';
  const error = new PayinoutError(
    `A ${shown} request reached the webhook route: the service delivers webhooks with POST only. Point health checks at another path.`,
  );
  failed(p, notes, { error, status: 405, verdict: 'method_not_allowed' });
  return methodNotAllowed();
}

async function fromStream(
  p: Pipeline,
  stream: AsyncIterable<Uint8Array | string>,
  contentLength: string | null | undefined,
  headers: HeadersLike,
  notes: DeliveryNotes,
): Promise<WebhookHandlerResult> {
  const body = await readCapped(stream, p.verify.maxBodyBytes, { declaredLength: contentLength });
  if (body) return processDelivery(p, body, headers, notes);
  // Answered and reported as the pipeline answers a verification failure (413 body_too_large).
  return refused(p, notes, tooLargeError(p.verify.maxBodyBytes));
}
