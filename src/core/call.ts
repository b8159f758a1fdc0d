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
 * changes afterwards.
 */
export function callState(
  credentials: readonly string[],
  body: string | undefined,
  options: CallOptions,
  maxRetries: number,
): Call {
  let secrets: readonly string[] | undefined;
  return {
    count: 0,
    options,
    maxRetries,
    get secrets() {
      secrets ??= body === undefined ? credentials : [...credentials, ...collectSecrets(JSON.parse(body))];
      return secrets;
    },
  };
}

/**
 * The request of one attempt of a call; its attempts are told to `scope` (the call's, or its
 * lookup's for a lookup), none when nothing observes the client.
 */
export function exchangeOf(
  spec: Pick<CallSpec, 'method' | 'path'>,
  body: string | undefined,
  call: Call,
  recovery: Recovery | undefined,
  scope: Scope | undefined,
): Exchange {
  return {
    method: spec.method,
    path: spec.path,
    body,
    options: call.options,
    counter: call,
    get secrets() {
      return call.secrets;
    },
    reference: recovery?.key,
    // Only a create (a call with a recovery) moves money: only its sends are checked.
    beforeWrite: recovery && call.options[LANE]?.beforeWrite,
    unknownAdvice: recovery && unknownAdvice(recovery),
    scope,
  };
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
