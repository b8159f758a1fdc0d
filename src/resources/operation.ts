/**
 * A table entry (src/api/operations.ts) as the transport's CallSpec: the one place the client reads
 * the table, so each resource method is one line. What may be resent comes from `safeToResend`;
 * a create's recovery is the executable form of its descriptor (src/api/recovery.ts).
 */

import { errorsOf } from '../api/errors.js';
import { buildPath, type PathParams } from '../api/paths.js';
import { normaliseId, recoveryFor, selectTransaction } from '../api/recovery.js';
import type { Operation } from '../api/types.js';
import type { CallSpec, Resend } from '../core/types.js';

/** What varies per call: the body and the path's parameters. */
export interface CallInput {
  body?: unknown;
  params?: PathParams;
}

/** Builds CallSpecs for one operation; the recovery factory is made once per operation. */
export function caller<O extends Operation>(
  operation: O,
): (input?: CallInput) => CallSpec<O['response']['tolerant']> {
  const resend: Resend = operation.safeToResend
    ? 'safe'
    : operation.recovery
      ? recoveryFor(operation.recovery)
      : 'never';
  const request = operation.request && { schema: operation.request.schema, what: operation.request.name };
  const errors = errorsOf(operation);
  const fixedPath = operation.pathParams.length === 0 ? buildPath(operation) : undefined;
  return ({ body, params } = {}) => {
    const path = fixedPath ?? buildPath(operation, params);
    const spec: CallSpec<O['response']['tolerant']> = {
      method: operation.method,
      path,
      operation: operation.id,
      template: operation.template,
      body,
      request,
      response: operation.response as CallSpec<O['response']['tolerant']>['response'],
      resend,
      errors,
    };
    if (operation.data === 'single-or-list') {
      // The transaction search: exactly the transaction asked for, from an object or an array.
      const wanted = normaliseId(Object.values(params ?? {})[0] ?? '');
      spec.unwrap = (data, answer) => selectTransaction(data, wanted, answer);
    }
    return spec;
  };
}
