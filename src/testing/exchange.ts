/**
 * What the request core learned about a request beyond its answer — operation, merchant, the
 * reference or ticket it was about, the fault that fired — for the front ends' request lines
 * (the sandbox terminal). Kept beside the answer, not in it, so `sandbox.handle()`'s answer
 * stays what the service would send.
 */
import type { OperationId } from '../api/operations.js';
import type { SandboxAppliedFault, SandboxResponse } from './types.js';

/** One API request as the sandbox terminal shows it. */
export interface ExchangeInfo {
  readonly operation: OperationId;
  readonly merchant: string;
  /** Reference, ticket or transaction id the request was about; '' when none. */
  readonly subject: string;
}

const INFO = new WeakMap<SandboxResponse, ExchangeInfo>();

export function noteExchange(response: SandboxResponse, info: ExchangeInfo): SandboxResponse {
  INFO.set(response, info);
  return response;
}

/** undefined for answers that are not an operation's (404, checkout page, openapi.json, 401). */
export function exchangeOf(response: SandboxResponse): ExchangeInfo | undefined {
  return INFO.get(response);
}

/** One API request as the HTTP server saw it, for `startSandboxServer({ onRequest })` (the CLI's terminal). */
export interface SandboxRequestRecord {
  /** Wall-clock time the request arrived (ms since epoch). */
  readonly at: number;
  readonly method: string;
  /** The path without its query (a query may carry anything). */
  readonly path: string;
  /** The operation of the table, when the request named one and its credentials were good. */
  readonly operation?: OperationId;
  readonly merchant?: string;
  /** Reference, ticket or transaction id the request was about. */
  readonly subject?: string;
  /** The status answered; 0 when a fault dropped the connection with no answer. */
  readonly status: number;
  /** From arrival to the answer (or the drop), in milliseconds. */
  readonly ms: number;
  /** The fault rule that fired, if one did. */
  readonly fault?: SandboxAppliedFault;
}
