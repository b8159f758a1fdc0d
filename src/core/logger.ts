/**
 * The client's `logger`: an observer of calls (observer.ts) that writes one debug line per HTTP
 * attempt (method, path, status and duration, never a header or a body), and the contained form
 * every other line goes through. A logger that throws or returns a rejected promise costs its
 * line, never the call.
 */
import { contain } from './dispatch.js';
import type { AttemptEvent, CallEvents, Observer, ObserverScope } from './observer.js';
import type { Logger } from './types.js';

/** The logger with each method contained (dispatch.ts `contain`): its faults stop at the line. */
export function containedLogger(logger: Logger): Logger {
  const line =
    (level: keyof Logger) =>
    (message: string, fields?: Record<string, unknown>): void =>
      contain(() => logger[level](message, fields));
  return { debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error') };
}

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
