/**
 * Response bodies of the simulator. Success: the common envelope (guide "Common response
 * envelope"). Errors: code '00', status 'ERROR', an `error` identifier and a message — the
 * shape the spec shows for sandbox confirm 422s, reused where the spec shows none
 * (node_modules/payinout/docs/simulator.md or https://github.com/payinout/payinout/blob/main/docs/simulator.md, "Where the spec is silent").
 */
import type { ApiErrorCode, ERROR_CODES } from '../schemas/catalog.js';
import type { SandboxResponse } from './types.js';

const JSON_HEADERS: Readonly<Record<string, string>> = { 'content-type': 'application/json; charset=utf-8' };

export function ok(data: unknown, message = 'Operation successful'): SandboxResponse {
  return {
    status: 200,
    headers: { ...JSON_HEADERS },
    body: { code: '01', status: 'SUCCESS', message, data },
  };
}

/** An error answer. Its identifier and status must be a pair of ERROR_CODES (checked when compiling). */
export function fail<C extends ApiErrorCode>(
  status: (typeof ERROR_CODES)[C]['status'],
  error: C,
  message: string,
): SandboxResponse {
  return { status, headers: { ...JSON_HEADERS }, body: { code: '00', status: 'ERROR', error, message } };
}

/** 422 VALIDATION_ERROR naming the fields, like the SDK's own RequestValidationError. */
export function invalid(message: string): SandboxResponse {
  return fail(422, 'VALIDATION_ERROR', message);
}

/** Sandbox confirm NOT_FOUND: "The body holds only error" (guide "Errors"). */
export function bareNotFound(): SandboxResponse {
  return { status: 404, headers: { ...JSON_HEADERS }, body: { error: 'NOT_FOUND' } };
}

export function unauthorized(message: string): SandboxResponse {
  const response = fail(401, 'UNAUTHORIZED', message);
  response.headers['www-authenticate'] = 'Basic realm="payinout-sandbox", charset="UTF-8"';
  return response;
}

export interface ZodLikeIssue {
  path: readonly PropertyKey[];
  message: string;
}

/** "customer_data.email: must be an e-mail address; amount: …" */
export function describeIssues(issues: readonly ZodLikeIssue[]): string {
  return issues
    .map((issue) => `${issue.path.map(String).join('.') || '(body)'}: ${issue.message}`)
    .join('; ');
}
