/**
 * Reading one attempt's answer to the call's result or typed error: the envelope reader
 * (envelope.ts) with the client's strictness, the note a create's unreadable 2xx carries, and the
 * once-per-client warning for a missing response field. The transport decides what happens next;
 * nothing here repeats.
 */
import type { Answer, Call, Recovery } from './call.js';
import { type Accepted, readAnswer } from './envelope.js';
import type { Logger, ResponseMeta } from './types.js';
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

  /** Reads `answer` (unless its attempt failed) to `call`'s result, or fails it with the typed error. */
  read(call: Call, answer: Answer): Answer {
    if (answer.failed) return answer;
    let data: unknown;
    try {
      data = readAnswer(answer, call, this.#strict, call.recovery && acceptedNote(call.recovery));
    } catch (error) {
      // Whether the body was JSON at all, as readAnswer found when it parsed it (not parsed again).
      return answer.fail(error, false, answer.unreadable);
    }
    for (const field of answer.missing) this.#warnOnce(call, answer.path, field);
    const meta: ResponseMeta = {
      status: answer.status as number,
      headers: answer.headers as Headers,
      message: answer.message,
      attempts: answer.attempts,
    };
    answer.value = attachResponse(data, meta);
    return answer;
  }

  #warnOnce(call: Call, path: string, field: string): void {
    const warned = this.#warned.get(call.response) ?? new Set<string>();
    this.#warned.set(call.response, warned);
    if (warned.has(field)) return;
    warned.add(field);
    const method = call.method;
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
