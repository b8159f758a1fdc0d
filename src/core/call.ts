/**
 * The state of one public call across its HTTP attempts, and the request each attempt sends.
 * The transport creates one per call; http.ts reads the exchange, never the call's options.
 */
import type { Scope } from './dispatch.js';
import type { Exchange } from './http.js';
import { collectSecrets } from './redact.js';
import { type CallOptions, type CallSpec, LANE, type Recovery } from './types.js';

/** State of one public call across its HTTP attempts. */
export interface Call {
  /** HTTP requests made so far (sends and lookups alike). */
  count: number;
  /** Credential and PII values of the request, scrubbed from anything an error keeps. */
  readonly secrets: readonly string[];
  options: CallOptions;
  maxRetries: number;
}

/**
 * A call's state. Its secrets are collected on first read, which only an error or a failed
 * attempt does: a call that succeeds never walks its body for PII (bench "cpu"). They are read
 * from the body as serialized, so they are exactly what was sent even if the caller's object
 * changes afterwards. A class, not an object literal with a getter: V8 builds such a literal
 * slowly, about 1 µs per call (docs/performance.md, "0.4: per-call cost").
 */
class CallState implements Call {
  count = 0;
  // Private: the body holds the customer's data, which nothing that inspects a call may show.
  readonly #credentials: readonly string[];
  readonly #body: string | undefined;
  #secrets: readonly string[] | undefined;

  constructor(
    credentials: readonly string[],
    body: string | undefined,
    public options: CallOptions,
    public maxRetries: number,
  ) {
    this.#credentials = credentials;
    this.#body = body;
  }

  get secrets(): readonly string[] {
    const body = this.#body;
    this.#secrets ??=
      body === undefined ? this.#credentials : [...this.#credentials, ...collectSecrets(JSON.parse(body))];
    return this.#secrets;
  }
}

export function callState(
  credentials: readonly string[],
  body: string | undefined,
  options: CallOptions,
  maxRetries: number,
): Call {
  return new CallState(credentials, body, options, maxRetries);
}

/**
 * The request of one attempt of a call; its attempts are told to `scope` (the call's, or its
 * lookup's for a lookup), none when nothing observes the client.
 */
class CallExchange implements Exchange {
  readonly method: Exchange['method'];
  readonly path: string;
  readonly options: CallOptions;
  readonly reference: string | undefined;
  readonly beforeWrite: (() => void) | undefined;
  readonly #recovery: Recovery | undefined;

  constructor(
    spec: Pick<CallSpec, 'method' | 'path'>,
    readonly body: string | undefined,
    readonly counter: Call,
    recovery: Recovery | undefined,
    readonly scope: Scope | undefined,
  ) {
    this.method = spec.method;
    this.path = spec.path;
    this.options = counter.options;
    this.reference = recovery?.key;
    // Only a create (a call with a recovery) moves money: only its sends are checked.
    this.beforeWrite = recovery && counter.options[LANE]?.beforeWrite;
    this.#recovery = recovery;
  }

  /** Worded only for a failure's message. */
  get unknownAdvice(): string | undefined {
    return this.#recovery && unknownAdvice(this.#recovery);
  }

  get secrets(): readonly string[] {
    return this.counter.secrets;
  }
}

export function exchangeOf(
  spec: Pick<CallSpec, 'method' | 'path'>,
  body: string | undefined,
  call: Call,
  recovery: Recovery | undefined,
  scope: Scope | undefined,
): Exchange {
  return new CallExchange(spec, body, call, recovery, scope);
}

function unknownAdvice(recovery: Recovery): string {
  return `It may have been processed: look it up with ${recovery.howToLookUp} before sending it again.`;
}

/** `make()` on first use, then the same value: a call that succeeds at once never builds it. */
export function lazy<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => {
    value ??= make();
    return value;
  };
}
