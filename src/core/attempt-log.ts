/**
 * The client's `logger` as an observer of calls (observer.ts): one debug line per HTTP attempt,
 * method, path, status and duration, never a header or a body. A logger that throws costs its
 * line (the dispatcher contains it), never the call.
 */
import type { AttemptEvent, CallEvents, Observer, ObserverScope } from './observer.js';
import type { Logger } from './types.js';

export function attemptLog(logger: Logger): Observer<CallEvents> {
  // One scope for every call: it keeps nothing between attempts.
  const scope: ObserverScope = { attempt: (event) => logAttempt(logger, event) };
  return { call: (_site, proceed) => proceed(scope) };
}

function logAttempt(logger: Logger, event: AttemptEvent): void {
  const { method, path, status, attempt } = event;
  const durationMs = Math.round(event.durationMs);
  const outcome = status === undefined ? 'no answer' : String(status);
  logger.debug(`payinout ${method} ${path} → ${outcome} in ${durationMs} ms (attempt ${attempt})`, {
    method,
    path,
    status,
    durationMs,
    attempt,
  });
}
