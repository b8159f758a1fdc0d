/**
 * A table entry (src/api/operations.ts) as the Calls of its resource method: the one place the
 * client reads the table, so each resource method is one line. What may be resent comes from
 * `safeToResend`; a create's recovery is the executable form of its descriptor (src/api/recovery.ts).
 */

import { errorsOf } from '../api/errors.js';
import { OPERATIONS } from '../api/operations.js';
import { buildPath, type PathParams } from '../api/paths.js';
import { normaliseId, recoveryFor, selectTransaction } from '../api/recovery.js';
import type { Operation } from '../api/types.js';
import { Call, type Resend } from '../core/call.js';
import type { CallOptions } from '../core/types.js';

/**
 * The Call of one request of `operation`, from the per-call options, the body and the path's
 * parameters; what the entry fixes (the recovery factory, the classifier) is made once.
 */
export function caller<O extends Operation>(
  operation: O,
): (options?: CallOptions, body?: unknown, params?: PathParams) => Call<O['response']['tolerant']> {
  const resend: Resend = operation.safeToResend
    ? 'safe'
    : operation.recovery
      ? recoveryFor(operation.recovery, lookupCall)
      : 'never';
  const entry = {
    method: operation.method,
    operation: operation.id,
    template: operation.template,
    request: operation.request && { schema: operation.request.schema, what: operation.request.name },
    response: operation.response as Call<O['response']['tolerant']>['response'],
    resend,
    errors: errorsOf(operation),
  };
  const fixedPath = operation.pathParams.length === 0 ? buildPath(operation) : undefined;
  return (options, body, params) => {
    const call = new Call(entry, fixedPath ?? buildPath(operation, params), body, options);
    if (operation.data === 'single-or-list') {
      // The transaction search: exactly the transaction asked for, from an object or an array.
      const wanted = normaliseId(Object.values(params ?? {})[0] ?? '');
      call.unwrap = (data, answer) => selectTransaction(data, wanted, answer);
    }
    return call;
  };
}

/** `client.transactions.get`'s Calls: the lookup of every create's recovery too. */
export const lookupTransaction = caller(OPERATIONS['transactions.get']);

/** The Call a create's recovery looks its reference up with (api/recovery.ts LookupCall). */
function lookupCall(id: string): Call {
  return lookupTransaction(undefined, undefined, { ticket: id });
}
