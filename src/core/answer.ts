/**
 * Reading one attempt's answer to a typed outcome: the envelope reader (envelope.ts) with the
 * client's strictness, the note a create's unreadable 2xx carries, and the once-per-client warning
 * for a missing response field. The transport decides what happens next; nothing here repeats.
 */
import type * as z from 'zod/mini';
import { type Accepted, isJsonText, readAnswer } from './envelope.js';
import { type Answer, isFailed } from './http.js';
import type { AttemptOutcome, CallSpec, Failed, Logger, Recovery, ResponseMeta } from './types.js';
import { attachResponse } from './wire.js';

export class AnswerReader {
  /** Response fields already reported missing or null, per response schema: logged once per client. */
  readonly #warned = new WeakMap<object, Set<string>>();
  readonly #strict: boolean;
  readonly #logger: Logger | undefined;

  constructor(strict: boolean, logger: Logger | undefined) {
    this.#strict = strict;
    this.#logger = logger;
  }

  /** One attempt's answer (or the failure that took its place) read to a typed outcome. */
  outcome<T extends z.ZodMiniType>(
    spec: CallSpec<T>,
    answer: Answer | Failed,
    recovery?: Recovery,
  ): AttemptOutcome {
    if (isFailed(answer)) return answer;
    let read: ReturnType<typeof readAnswer<T>>;
    try {
      read = readAnswer(answer, {
        schema: spec.response,
        unwrap: spec.unwrap,
        classify: spec.errors,
        strict: this.#strict,
        accepted: recovery && acceptedNote(recovery),
      });
    } catch (error) {
      const unreadable = !isJsonText(answer.text);
      return { ok: false, error, status: answer.status, staleSocket: false, unreadable };
    }
    for (const field of read.warnings) this.#warnOnce(spec, answer.path, field);
    const meta: ResponseMeta = {
      status: answer.status,
      headers: answer.headers,
      message: read.message,
      attempts: answer.attempts,
    };
    return { ok: true, value: attachResponse(read.data, meta) };
  }

  #warnOnce(spec: CallSpec, path: string, field: string): void {
    const warned = this.#warned.get(spec.response) ?? new Set<string>();
    this.#warned.set(spec.response, warned);
    if (warned.has(field)) return;
    warned.add(field);
    const method = spec.method;
    this.#logger?.warn(
      `payinout ${method} ${path}: the answer has no ${field} (missing or null); the result leaves it out. strictResponses: true makes this an error.`,
      { method, path, field },
    );
  }
}

/** What a 2xx that cannot be read means for a call with a recovery: accepted; do not resend. */
function acceptedNote(recovery: Recovery): Accepted {
  return (body) => {
    const id = recovery.idIn(body);
    const advice =
      `The service accepted it${id ? ` (ticket ${id})` : ''}: do not send it again. ` +
      `Look '${recovery.key}' up with ${recovery.howToLookUp} to read it.`;
    return { id, advice };
  };
}
