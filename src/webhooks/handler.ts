/**
 * createWebhookHandler: the receiver for Fetch-API runtimes (Next.js route handlers, Hono, Bun,
 * Deno, Workers, Vercel Edge) and node:http / Express (`.node`). This file reads the request in
 * each form; pipeline.ts does the work (verify → confirm → dedupe → dispatch → respond).
 *
 * The service retries until it gets a 200 (spec "Events", rules 3–4), so the status code is
 * the contract: 200 processed or duplicate; 401 bad or missing signature; 400 unreadable
 * body or a pre-parsed body; 413 too large; 409 while the same event is being processed
 * elsewhere or when `confirmWith`'s lookup does not show it; 500 when onEvent throws (the claim
 * is released so that retry is processed); 503 when the dedupe store or the lookup fails.
 */
import type { PaymentClient } from '../client.js';
import { type Dispatcher, dispatcherOf } from '../core/dispatch.js';
import { ConfigurationError } from '../core/errors.js';
import type { DeliveryEvents } from '../core/observer-events.js';
import { ANY, FUNCTION, type OptionTable, positive, TIMER_MS, withMethods } from '../core/options.js';
import type { Logger } from '../core/transport.js';
import type { WebhookEvent } from '../schemas/webhook.js';
import { deliveryTracing } from '../tracing/index.js';
import type { Tracer } from '../tracing/tracer.js';
import type { TransactionLookup } from './confirm.js';
import { WebhookDeduplicator } from './dedupe.js';
import { withClientSigner } from './from-client.js';
import { checkWebhookOptions } from './options.js';
import { DEFAULT_MAX_BODY_BYTES, type HeadersLike, type RawBody } from './parse.js';
import { type DeliveryNotes, type Pipeline, processDelivery, type WebhookEventContext } from './pipeline.js';
import {
  fromNode,
  fromRequest,
  type NodeWebhookRequest,
  type NodeWebhookResponse,
  safely,
} from './receive.js';
import { type OnWebhookError, reporter } from './report.js';
import type { WebhookHandlerResult } from './respond.js';
import { SCHEME_RULE, type SignatureScheme } from './signature.js';
import { keyringOf, tokensOf, type WebhookTokens } from './tokens.js';

export type { WebhookEventContext } from './pipeline.js';
export type { OnWebhookError, WebhookErrorContext } from './report.js';
export type { WebhookHandlerResult, WebhookVerdict } from './respond.js';
export type { WebhookTokens } from './tokens.js';

/** Options of {@link createWebhookHandler}. */
export interface WebhookHandlerOptions {
  /**
   * The merchant token; or, for one endpoint receiving for several merchant accounts (CO, PE,
   * MX…), an array of tokens or a record `{ [merchant]: token }`: each delivery is checked
   * against every token and `onEvent` gets `context.merchant`, the key (or index) of the one
   * that signed it.
   */
  token: WebhookTokens;
  /**
   * A PaymentClient whose token, `webhookScheme` and `tracer` the receiver uses, in place of
   * `token` (`scheme` and `tracer`, when given, win). A `token` given beside it must be, or list,
   * the client's token. It does not look deliveries up: for that, also pass `confirmWith: client`.
   */
  client?: PaymentClient;
  /**
   * Runs at most once per event (ticket + status) per dedupe store. Throw to have the service
   * retry. With `confirmWith`, `context.transaction` is the looked-up transaction; with several
   * tokens, `context.merchant` names the merchant.
   */
  onEvent: (event: WebhookEvent, context: WebhookEventContext) => unknown;
  /** Default: an in-memory WebhookDeduplicator (one process). `false` turns dedupe off. */
  dedupe?: WebhookDeduplicator | false;
  /** Signature scheme; default 'json'. */
  scheme?: SignatureScheme;
  /** Default 256 KB. */
  maxBodyBytes?: number;
  /**
   * A `PaymentClient` (or anything with `transactions.get`): each delivery is looked up by its
   * ticket before onEvent, and one whose status (or amount, currency, reference) the lookup
   * does not show is answered 409 and not handed to onEvent. See node_modules/payinout/docs/webhooks.md or https://github.com/payinout/payinout/blob/main/docs/webhooks.md.
   */
  confirmWith?: TransactionLookup;
  /** Deadline of the confirming lookup; past it the delivery is answered 503. Default 10,000 ms. */
  confirmTimeoutMs?: number;
  /**
   * Without `onError`, every failed delivery (bad signature, parsed body, onEvent threw, store
   * unavailable, not confirmed) writes one `warn` line here: the cause and what to do, redacted.
   * Leases lost are `error` lines. Default `console`.
   */
  logger?: Pick<Logger, 'warn'> & Partial<Pick<Logger, 'error'>>;
  /**
   * Told about every failed delivery instead of the default line: the error itself (onEvent's
   * whole, its message scrubbed of the tokens and the event's customer data) and the answer's
   * status and verdict. An exception it throws never changes the answer.
   */
  onError?: OnWebhookError;
  /**
   * An OpenTelemetry `Tracer`: each delivery becomes a SERVER span `payinout.webhook` with its
   * status code and verdict, and `onEvent` runs inside it, so its own spans nest under it.
   */
  tracer?: Tracer;
}

/** With `confirmWith`, onEvent always receives the looked-up transaction. */
export interface ConfirmedWebhookHandlerOptions
  extends Omit<WebhookHandlerOptions, 'onEvent' | 'confirmWith'> {
  confirmWith: TransactionLookup;
  /** Runs once per event, after the lookup backed it; `context.transaction` is that lookup. */
  onEvent: (
    event: WebhookEvent,
    context: WebhookEventContext & Required<Pick<WebhookEventContext, 'transaction'>>,
  ) => unknown;
}

/**
 * Options of {@link createWebhookHandler} given a `client`: the client's token signs, so `token`
 * may be left out. `T` is {@link WebhookHandlerOptions} or {@link ConfirmedWebhookHandlerOptions}.
 */
export type ClientWebhookHandlerOptions<
  T extends WebhookHandlerOptions | ConfirmedWebhookHandlerOptions = WebhookHandlerOptions,
> = Omit<T, 'token' | 'client'> & {
  /** The PaymentClient whose token (and `webhookScheme`, `tracer`) the receiver uses. */
  client: PaymentClient;
  /** Only to list more merchants' tokens beside the client's own (which it must include). */
  token?: WebhookTokens;
};

/**
 * The receiver {@link createWebhookHandler} returns: a Fetch-API function, plus `.node` and
 * `.handle` for other frameworks. Every form answers the same status codes.
 */
export interface WebhookHandler {
  /** Fetch API: `export const POST = handler` in a Next.js route, `app.post('/webhooks', (c) => handler(c.req.raw))` in Hono. */
  (request: Request): Promise<Response>;
  /** node:http and Express. Reads the raw stream itself, or uses `req.body` when it is a Buffer/string (`express.raw()`). */
  node(req: NodeWebhookRequest, res: NodeWebhookResponse): Promise<void>;
  /** Any framework: give the raw body and the headers, send back the result (Fastify, see node_modules/payinout/docs/webhooks.md or https://github.com/payinout/payinout/blob/main/docs/webhooks.md). */
  handle(rawBody: RawBody, headers: HeadersLike): Promise<WebhookHandlerResult>;
}

export const DEFAULT_CONFIRM_TIMEOUT_MS = 10_000;

/**
 * A complete webhook receiver: verifies `x-trx-signature` on the raw body, optionally confirms
 * the delivery by looking the transaction up (`confirmWith`), deduplicates (ticket + status),
 * runs `onEvent` once per event while holding (and renewing) its claim, and answers the status
 * code the service's retries depend on: 200 processed or duplicate, 401 bad signature, 400
 * unreadable or pre-parsed body, 413 too large, 409 in flight elsewhere or not confirmed, 500
 * when `onEvent` throws (the claim is released, so the retry is processed), 503 when the dedupe
 * store or the lookup fails or does not answer in time. Guide: node_modules/payinout/docs/webhooks.md or https://github.com/payinout/payinout/blob/main/docs/webhooks.md.
 * @example
 * // Fetch API (Next.js route handler, Hono, Bun, Deno, Workers, Vercel Edge)
 * const handler = createWebhookHandler({
 *   client, // its token, webhookScheme and tracer; or token: process.env.PAYINOUT_TOKEN!
 *   confirmWith: client, // optional: act only on what the service's lookup shows
 *   onEvent: async (event, { transaction }) => {
 *     if (event.top_status === 'APPROVED') await markPaid(event.top_reference);
 *   },
 * });
 * export const POST = handler;
 * @example
 * // Express: mount before any JSON body parser, with a raw body
 * app.post('/webhooks/payinout', express.raw({ type: 'application/json' }), (req, res) => handler.node(req, res));
 */
export function createWebhookHandler(
  options: ConfirmedWebhookHandlerOptions | ClientWebhookHandlerOptions<ConfirmedWebhookHandlerOptions>,
): WebhookHandler;
export function createWebhookHandler(
  options: WebhookHandlerOptions | ClientWebhookHandlerOptions,
): WebhookHandler;
export function createWebhookHandler(
  given:
    | WebhookHandlerOptions
    | ClientWebhookHandlerOptions
    | ConfirmedWebhookHandlerOptions
    | ClientWebhookHandlerOptions<ConfirmedWebhookHandlerOptions>,
): WebhookHandler {
  const options = withClientSigner(given as WebhookHandlerOptions);
  // With confirmWith, the pipeline always passes the transaction: the narrower onEvent is safe.
  const pipeline = toPipeline(options);
  const { tracer } = options;
  // Every form runs the delivery inside its observers' wrap (a tracer: its span).
  const observers = dispatcherOf<DeliveryEvents>([tracer && deliveryTracing(tracer)]);
  const handle = (rawBody: RawBody, headers: HeadersLike) =>
    observed(observers, 'POST', (notes) =>
      safely(pipeline, notes, () => processDelivery(pipeline, rawBody, headers, notes)),
    );
  const fetchHandler = async (request: Request): Promise<Response> => {
    const result = await observed(observers, request.method, (notes) =>
      safely(pipeline, notes, () => fromRequest(pipeline, request, notes)),
    );
    return new Response(result.body, { status: result.status, headers: result.headers });
  };
  const node = async (req: NodeWebhookRequest, res: NodeWebhookResponse): Promise<void> => {
    const result = await observed(observers, req.method, (notes) =>
      safely(pipeline, notes, () => fromNode(pipeline, req, notes)),
    );
    if (res.headersSent) return;
    res.statusCode = result.status;
    for (const [name, value] of Object.entries(result.headers)) res.setHeader(name, value);
    res.end(result.body);
  };
  return Object.assign(fetchHandler, { node, handle });
}

/** Runs one delivery, told to the observers (through the guarded dispatcher) when there are any. */
function observed(
  observers: Dispatcher<DeliveryEvents> | undefined,
  method: string | undefined,
  run: (notes: DeliveryNotes) => Promise<WebhookHandlerResult>,
): Promise<WebhookHandlerResult> {
  const notes: DeliveryNotes = {};
  if (!observers) return run(notes);
  return observers.around('delivery', { method, notes }, () => run(notes));
}

/** Options → the fixed half of every delivery; configuration mistakes fail here, at startup. */
function toPipeline(options: WebhookHandlerOptions): Pipeline {
  if (options === null || typeof options !== 'object' || typeof options.onEvent !== 'function') {
    throw new ConfigurationError('createWebhookHandler needs { token, onEvent } or { client, onEvent }.');
  }
  const { onEvent, onError, confirmWith } = options;
  if (confirmWith !== undefined && typeof confirmWith?.transactions?.get !== 'function') {
    throw new ConfigurationError(
      'confirmWith needs a PaymentClient (or an object with transactions.get(ticket)).',
    );
  }
  checkWebhookOptions('createWebhookHandler', options, KNOWN_OPTIONS);
  const keyring = keyringOf(options.token, 'createWebhookHandler');
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const verify = { maxBodyBytes, ...(options.scheme ? { scheme: options.scheme } : {}) };
  const logger = loggerOf(options.logger);
  const dedupe =
    options.dedupe === false ? undefined : (options.dedupe ?? new WebhookDeduplicator({ logger }));
  const report = reporter({ onError, logger, tokens: tokensOf(keyring) });
  const confirmTimeoutMs = options.confirmTimeoutMs ?? DEFAULT_CONFIRM_TIMEOUT_MS;
  return { verify, keyring, onEvent, dedupe, confirmWith, confirmTimeoutMs, report };
}

/** The handler's logger; one with `warn` only gets its `error` lines (a lease lost) as warnings. */
function loggerOf(given: WebhookHandlerOptions['logger']): Pick<Logger, 'warn' | 'error'> {
  if (!given) return console;
  const { error } = given;
  if (typeof error === 'function') return { warn: given.warn.bind(given), error: error.bind(given) };
  return { warn: (...line) => given.warn(...line), error: (...line) => given.warn(...line) };
}

/**
 * Every option createWebhookHandler knows; any other key is a ConfigurationError naming it. A
 * misspelt option (`onerror`) would be silently ignored, and onError, logger and tracer are
 * called on failures only: each is checked at creation instead, every problem named at once.
 * The token, client, onEvent, dedupe and confirmWith are checked where they are used (ANY here).
 */
const KNOWN_OPTIONS: OptionTable<WebhookHandlerOptions> = {
  token: ANY,
  onEvent: ANY,
  dedupe: ANY,
  scheme: SCHEME_RULE,
  maxBodyBytes: positive('bytes'),
  confirmWith: ANY,
  confirmTimeoutMs: TIMER_MS,
  logger: withMethods('warn'),
  onError: FUNCTION,
  tracer: withMethods('startActiveSpan'),
  client: ANY,
};
