/**
 * Reads one HTTP answer: body text → JSON → envelope → `data` parsed by a zod schema,
 * or the one typed error that says what went wrong (spec "Common response envelope",
 * "Errors"). Everything about status codes and envelopes lives here and in errors.ts.
 */
import type * as z from 'zod/mini';
import type { ResponseSchema } from '../schemas/kit.js';
import { readResponse } from '../schemas/kit.js';
import { createApiError, type ErrorClassifier } from './api-errors.js';
import { ResponseValidationError, type ValidationIssue } from './errors.js';
import { isRecord } from './guards.js';
import type { Answer } from './http.js';
import type { AnswerInfo } from './types.js';

/** The id an unreadable 2xx still shows, and the advice that replaces "resend". */
export type Accepted = (body: unknown) => { id: string | undefined; advice: string };

export interface ReadOptions<T extends z.ZodMiniType> {
  schema: ResponseSchema<T>;
  /** Runs on the raw `data` before the schema (may throw a typed error, e.g. NotFoundError). */
  unwrap?: ((data: unknown, answer: AnswerInfo) => unknown) | undefined;
  /** The call's refusals by the service's identifiers (the table's); without it, by HTTP status. */
  classify?: ErrorClassifier | undefined;
  /** The client's `strictResponses`. */
  strict: boolean;
  /** For a call that must not be resent blindly: what a 2xx that cannot be read means. */
  accepted?: Accepted | undefined;
}

export interface ReadResult<T> {
  data: T;
  /** The envelope's human-readable message ('' when absent). */
  message: string;
  /** Paths of fields that were missing or null and were tolerated (default mode); the client logs them. */
  warnings: string[];
}

export function readAnswer<T extends z.ZodMiniType>(
  answer: Answer,
  options: ReadOptions<T>,
): ReadResult<z.infer<T>> {
  const { status, text } = answer;
  const body = parseJson(text);

  if (body === NOT_JSON) {
    // An HTML 502 page from a proxy is still a server error, not a parsing problem.
    if (status >= 300)
      throw createApiError({ ...answer, body: text, advice: httpAdvice(status) }, options.classify);
    throw invalid(
      answer,
      options,
      text,
      text === '' ? 'the body is empty' : 'the body is not valid JSON (truncated?)',
    );
  }

  const envelope = isRecord(body) ? body : undefined;
  const saysError = envelope !== undefined && (envelope.status === 'ERROR' || envelope.code === '00');
  // The error's context is copied on this path only: a success never pays for it.
  if (status >= 300 || saysError) throw createApiError({ ...answer, body }, options.classify);

  let data: unknown = body;
  if (envelope && 'data' in envelope) data = envelope.data;
  else if (options.strict || envelope?.code !== undefined || envelope?.status !== undefined) {
    throw invalid(answer, options, body, 'the envelope has no data field');
  }
  if (options.strict) {
    const checked = envelopeIssues(envelope);
    if (checked.length) throw invalid(answer, options, body, 'the envelope drifted from the spec', checked);
  }

  if (options.unwrap) data = options.unwrap(data, answer);
  const parsed = readResponse(options.schema, data, options.strict);
  if (!parsed.success)
    throw invalid(
      answer,
      options,
      body,
      'the data does not match the documented schema',
      dataIssues(parsed.error),
    );
  const message = envelope && typeof envelope.message === 'string' ? envelope.message : '';
  return { data: parsed.data, message, warnings: parsed.warnings.map((path) => `data.${path}`) };
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
  options: { accepted?: Accepted | undefined },
  body: unknown,
  why: string,
  issues: ValidationIssue[] = [],
): ResponseValidationError {
  const fields = issues.length ? ` (${issues.map((i) => `${i.path}: ${i.message}`).join('; ')})` : '';
  const accepted = answer.status < 300 ? options.accepted?.(body) : undefined;
  const advice =
    accepted?.advice ??
    'The service may have changed; upgrade payinout or report it with the body shown in error.body.';
  return new ResponseValidationError({
    message: `${answer.method} ${answer.path} answered HTTP ${answer.status} but ${why}${fields}. ${advice}`,
    status: answer.status,
    issues,
    method: answer.method,
    path: answer.path,
    attempts: answer.attempts,
    body,
    secrets: answer.secrets,
    ...(accepted?.id ? { ticket: accepted.id } : {}),
  });
}

function httpAdvice(status: number): string | undefined {
  if (status >= 300 && status < 400) {
    return 'The service answered with a redirect; payinout never follows redirects, so credentials cannot leak to another origin. Check baseUrl.';
  }
  return undefined;
}

const NOT_JSON = Symbol('not json');

/** Whether a body is JSON at all (a truncated or HTML body is not). */
export function isJsonText(text: string): boolean {
  return parseJson(text) !== NOT_JSON;
}

function parseJson(text: string): unknown {
  if (text === '') return NOT_JSON;
  try {
    return JSON.parse(text);
  } catch {
    return NOT_JSON;
  }
}
