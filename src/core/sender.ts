/**
 * How one HTTP request reaches the wire and comes back as text. A client has one sender: `fetch`
 * (every runtime; also whenever the options pass a `fetch`), or on Node the `node:http` sender
 * that the Node entry's PaymentClient passes in (src/node/client.ts). A sender sends, reads the whole body under the request's
 * deadline, and rejects with the caller's abort reason, a {@link WireFailure}, or the low-level
 * network error; what a failure means is decided above it (http.ts).
 */

import { whenAborted } from './abort.js';
import { chunksOf, readCapped } from './body.js';
import { MAX_ANSWER_BYTES } from './limits.js';

export interface WireRequest {
  url: string;
  method: 'GET' | 'POST';
  headers: Readonly<Record<string, string>>;
  body: string | undefined;
  /** The caller's signal: aborting it rejects with its reason, at any stage. */
  signal: AbortSignal | undefined;
  /** Covers the response headers and the whole body. */
  timeoutMs: number;
  /**
   * Called synchronously as late as the sender can before any byte is written (on Node, once the
   * socket is connected); what it throws rejects the request as {@link Withheld}.
   */
  beforeWrite?: (() => void) | undefined;
}

export interface WireResponse {
  status: number;
  headers: Headers;
  text: string;
}

export type Sender = (request: WireRequest) => Promise<WireResponse>;

/**
 * A request that failed once its status was known (the body was cut or stalled), or that ran out
 * of time: what a sender rejects with besides the caller's abort reason and a plain network error.
 */
export class WireFailure extends Error {
  constructor(
    /** The deadline passed (else the connection failed). */
    readonly deadline: boolean,
    /** Set when the headers had arrived before the failure. */
    readonly status: number | undefined,
    cause?: unknown,
  ) {
    super(deadline ? 'the request did not complete within its deadline' : 'the response body was cut', {
      cause,
    });
  }
}

/** A request its `beforeWrite` refused: nothing of it was written. `reason` is what it threw. */
export class Withheld extends Error {
  constructor(readonly reason: unknown) {
    super('the request was withheld before anything was written');
  }
}

/** Runs the request's `beforeWrite`; false (after `reject`) when it refused. */
export function mayWrite(request: WireRequest, reject: (error: Withheld) => void): boolean {
  try {
    request.beforeWrite?.();
    return true;
  } catch (reason) {
    reject(new Withheld(reason));
    return false;
  }
}

/** The failure a sender reports for an answer above MAX_ANSWER_BYTES. */
export function answerTooLarge(): Error {
  return Object.assign(new Error(`the answer is larger than ${MAX_ANSWER_BYTES} bytes`), {
    code: 'ERR_ANSWER_TOO_LARGE',
  });
}

/**
 * The key under which a platform entry's PaymentClient class names its default sender (the Node
 * entry: `node:http`). A static of the class, never a module-level global: importing the Node
 * entry changes no client built from the main one.
 */
export const PLATFORM_SENDER: unique symbol = Symbol('payinout.platformSender');

/** A sender over a WHATWG `fetch` (the global one unless the client was given its own). */
export function fetchSender(fetchImpl: typeof fetch): Sender {
  return async (request) => {
    // fetch gives no hook closer to the wire than its call.
    let withheld: Withheld | undefined;
    if (!mayWrite(request, (error) => (withheld = error))) throw withheld;
    // One controller per request, aborted by the deadline or by the caller's signal (abort.ts
    // says why it is not AbortSignal.any over the caller's).
    const controller = new AbortController();
    let late = false;
    const timer = setTimeout(() => {
      late = true;
      controller.abort();
    }, request.timeoutMs);
    const caller = request.signal;
    const stop = caller && whenAborted(caller, () => controller.abort(caller.reason));
    let status: number | undefined;
    try {
      const response = await fetchImpl(request.url, {
        method: request.method,
        headers: request.headers,
        signal: controller.signal,
        // Never followed: credentials must not reach another origin (node_modules/payinout/docs/reliability.md or https://github.com/payinout/payinout/blob/main/docs/reliability.md).
        redirect: 'manual',
        body: request.body ?? null,
      });
      status = response.status;
      return { status, headers: response.headers, text: await readText(response) };
    } catch (error) {
      if (late && !caller?.aborted) throw new WireFailure(true, status);
      throw status === undefined ? error : new WireFailure(false, status, error);
    } finally {
      clearTimeout(timer);
      stop?.();
    }
  };
}

/**
 * The body as text, at most MAX_ANSWER_BYTES decoded. A declared length within the cap is read in
 * one go (the runtime holds the body to it) unless the body is compressed: the length is then of
 * the compressed bytes, and a few hundred kilobytes of gzip can decode to gigabytes. Anything
 * else is counted as it streams.
 */
async function readText(response: Response): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  const encoded =
    (response.headers.get('content-encoding') ?? 'identity').trim().toLowerCase() !== 'identity';
  if ((declared <= MAX_ANSWER_BYTES && !encoded) || !response.body) return response.text();
  const bytes = await readCapped(chunksOf(response.body), MAX_ANSWER_BYTES);
  if (bytes === undefined) throw answerTooLarge();
  return new TextDecoder().decode(bytes);
}
