/**
 * Reads one HTTP answer: body text → JSON → envelope → `data` parsed by a zod schema,
 * or the one typed error that says what went wrong (spec "Common response envelope",
 * "Errors"). Everything about status codes and envelopes lives here and in errors.ts.
 */
import type * as z from 'zod/mini';
import { readResponse } from '../schemas/kit.js';
import { createApiError, isNotFoundRefusal } from './api-errors.js';
import { type Answer, type Call, NOT_FOUND, type NotFound } from './call.js';
import { ResponseValidationError, type ValidationIssue } from './errors.js';
import { isRecord } from './guards.js';

/** The id an unreadable 2xx still shows, and the advice that replaces "resend". */
export type Accepted = (body: unknown) => { id: string | undefined; advice: string };

/**
 * Reads `answer` as an answer of `call` (its response schema, `unwrap` and refusal classifier):
 * the parsed `data`, with the envelope's message and the tolerated missing fields set on the
 * answer; NOT_FOUND for a miss the call expects (call.ts); or throws the typed error. `strict` is the client's `strictResponses`; `accepted`, for
 * a call that must not be resent blindly, says what a 2xx that cannot be read means.
 */
export function readAnswer<T extends z.ZodMiniType>(
  answer: Answer,
  call: Call<T>,
  strict: boolean,
  accepted: Accepted | undefined,
): z.infer<T> | NotFound {
  // Read only once answered: the status is known.
  const status = answer.status as number;
  const body = parseJson(answer.text);

  if (body === NOT_JSON) {
    // Marked here, where the body was parsed, for the reader's failure (answer.ts).
    answer.unreadable = true;
    // An HTML 502 page from a proxy is still a server error, not a parsing problem.
    const { text } = answer;
    if (status >= 300) throw createApiError(errorInit(answer, text, httpAdvice(status)), call.errors);
    const why = text === '' ? 'the body is empty' : 'the body is not valid JSON (truncated?)';
    throw invalid(answer, accepted, text, why);
  }

  const envelope = isRecord(body) ? body : undefined;
  const saysError = envelope !== undefined && (envelope.status === 'ERROR' || envelope.code === '00');
  if (status >= 300 || saysError) {
    // A miss the caller expects is its answer: no error built (call.ts NOT_FOUND).
    if (call.notFoundIsAnswer && isNotFoundRefusal({ status, body }, call.errors)) return NOT_FOUND;
    // The error's context is copied on this path only: a success never pays for it.
    throw createApiError(errorInit(answer, body), call.errors);
  }

  let data: unknown = body;
  if (envelope && 'data' in envelope) data = envelope.data;
  else if (strict || envelope?.code !== undefined || envelope?.status !== undefined) {
    throw invalid(answer, accepted, body, 'the envelope has no data field');
  }
  if (strict) {
    const checked = envelopeIssues(envelope);
    if (checked.length) throw invalid(answer, accepted, body, 'the envelope drifted from the spec', checked);
  }

  if (call.unwrap) data = call.unwrap(data, answer);
  const parsed = readResponse(call.response, data, strict);
  if (!parsed.success) {
    const issues = dataIssues(parsed.error);
    throw invalid(answer, accepted, body, 'the data does not match the documented schema', issues);
  }
  if (envelope && typeof envelope.message === 'string') answer.message = envelope.message;
  if (parsed.warnings.length) answer.missing = parsed.warnings.map((path) => `data.${path}`);
  return parsed.data;
}

/**
 * What an ApiError is built from: named field by field, since the answer gives `method`, `path`
 * and `secrets` through getters (the secrets are collected only on a failure).
 */
function errorInit(answer: Answer, body: unknown, advice?: string) {
  const { method, path, attempts, secrets } = answer;
  // Read only once answered: status and headers are known.
  const status = answer.status as number;
  const headers = answer.headers as Headers;
  return { status, headers, method, path, attempts, secrets, body, advice };
}

/** The schema's issues, as paths under the envelope's `data`. */
function dataIssues(error: {
  issues: readonly { path: readonly PropertyKey[]; message: string }[];
}): ValidationIssue[] {
  return error.issues.map((i) => ({ path: ['data', ...i.path.map(String)].join('.'), message: i.message }));
}

/** In strict mode the envelope itself must be the documented one: code '01', status 'SUCCESS'. */
function envelopeIssues(envelope: Record<string, unknown> | undefined): ValidationIssue[] {
  if (!envelope) return [{ path: '(root)', message: 'expected the {code, status, message, data} envelope' }];
  const issues: ValidationIssue[] = [];
  if (envelope.code !== '01') issues.push({ path: 'code', message: "expected '01'" });
  if (envelope.status !== 'SUCCESS') issues.push({ path: 'status', message: "expected 'SUCCESS'" });
  const known = new Set(['code', 'status', 'message', 'data', 'error']);
  for (const key of Object.keys(envelope)) {
    if (!known.has(key)) issues.push({ path: key, message: 'unknown key (strictResponses)' });
  }
  return issues;
}

function invalid(
  answer: Answer,
  accepted: Accepted | undefined,
  body: unknown,
  why: string,
  issues: ValidationIssue[] = [],
): ResponseValidationError {
  const fields = issues.length ? ` (${issues.map((i) => `${i.path}: ${i.message}`).join('; ')})` : '';
  const status = answer.status as number;
  const note = status < 300 ? accepted?.(body) : undefined;
  const advice =
    note?.advice ??
    'The service may have changed; upgrade payinout or report it with the body shown in error.body.';
  return new ResponseValidationError({
    message: `${answer.method} ${answer.path} answered HTTP ${status} but ${why}${fields}. ${advice}`,
    status,
    issues,
    method: answer.method,
    path: answer.path,
    attempts: answer.attempts,
    body,
    secrets: answer.secrets,
    ...(note?.id ? { ticket: note.id } : {}),
  });
}

function httpAdvice(status: number): string | undefined {
  if (status >= 300 && status < 400) {
    return 'The service answered with a redirect; payinout never follows redirects, so credentials cannot leak to another origin. Check baseUrl.';
  }
  return undefined;
}

const NOT_JSON = Symbol('not json');

function parseJson(text: string): unknown {
  if (text === '') return NOT_JSON;
  try {
    return JSON.parse(text);
  } catch {
    return NOT_JSON;
  }
}
