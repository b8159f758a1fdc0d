/**
 * A PayOut result as it is kept in Redis, and back. Errors are stored as their safe JSON form
 * (`PayinoutError#toJSON`: no credential, customer data redacted) and revived as instances of
 * the same class, so `instanceof ConnectionError` and `error.outcome` work on what
 * `readPayOutBatch` returns exactly as on what `createMany` returns.
 */
import { ConnectionError, PayinoutError } from '../core/errors.js';
import * as errorClasses from './error-classes.js';
import { HaltRecordError, LeaseLostError } from './errors.js';
import {
  BatchAbortedError,
  BatchHaltedError,
  type PayOutBatchResult,
  ReferenceConflictError,
} from './settle.js';

type ErrorClass = abstract new (...args: never[]) => PayinoutError;

const CLASSES = new Map<string, ErrorClass>();
for (const value of Object.values(errorClasses)) {
  if (typeof value === 'function' && value.prototype instanceof Error) {
    CLASSES.set(value.name, value as unknown as ErrorClass);
  }
}
for (const value of [
  BatchAbortedError,
  BatchHaltedError,
  ReferenceConflictError,
  LeaseLostError,
  HaltRecordError,
]) {
  CLASSES.set(value.name, value);
}
CLASSES.set('PayinoutError', PayinoutError);

/** The safe JSON form of an error (its toJSON). */
export function encodeError(error: PayinoutError): string {
  return JSON.stringify(error);
}

export function encodeResult(result: PayOutBatchResult): string {
  return JSON.stringify(result);
}

/** A stored result; a malformed one (someone else's key) is a failed result that says so. */
export function decodeResult(json: string, reference: string): PayOutBatchResult {
  try {
    const raw = JSON.parse(json) as Record<string, unknown>;
    const outcome = raw.outcome;
    if (outcome !== 'created' && outcome !== 'recovered' && outcome !== 'failed') throw new Error('outcome');
    const result: PayOutBatchResult = { reference: String(raw.reference ?? reference), outcome };
    if (typeof raw.ticket === 'string') result.ticket = raw.ticket;
    if (typeof raw.status === 'string')
      result.status = raw.status as NonNullable<PayOutBatchResult['status']>;
    if (raw.error !== undefined) result.error = reviveError(raw.error);
    return result;
  } catch {
    return {
      reference,
      outcome: 'failed',
      error: new ConnectionError({
        message: `PayOut '${reference}': its result in Redis could not be read, so its outcome is unknown. Look it up with client.transactions.get('${reference}') before sending it again.`,
        outcome: 'unknown',
        reference,
      }),
    };
  }
}

/**
 * A stored halt (the batch-wide failure's JSON form) as its error; a record that cannot be read
 * (truncated, or someone else's value under the key) is a HaltRecordError naming the key.
 */
export function decodeHalt(json: string, key: string): PayinoutError {
  try {
    const raw = JSON.parse(json) as unknown;
    if (raw === null || typeof raw !== 'object' || typeof (raw as { name?: unknown }).name !== 'string') {
      throw new TypeError('not an error record');
    }
    return reviveError(raw);
  } catch {
    return new HaltRecordError(key);
  }
}

/** An error's JSON form as an instance of its class (PayinoutError when the name is unknown). */
export function reviveError(value: unknown): PayinoutError {
  const raw = (value !== null && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  const Class = CLASSES.get(String(raw.name)) ?? PayinoutError;
  // Not constructed: constructors build messages from inputs, and the message is already built.
  const error = Object.create(Class.prototype) as PayinoutError;
  const { name, message, stack: _stack, ...fields } = raw;
  for (const [key, field] of Object.entries(fields)) {
    const nested = field !== null && typeof field === 'object' && 'name' in field && 'message' in field;
    Object.defineProperty(error, key, {
      value: nested ? reviveError(field) : field,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  Object.defineProperty(error, 'name', {
    value: String(name ?? 'PayinoutError'),
    enumerable: true,
    writable: true,
    configurable: true,
  });
  Object.defineProperty(error, 'message', {
    value: String(message ?? ''),
    writable: true,
    configurable: true,
  });
  Object.defineProperty(error, 'stack', {
    value: `${error.name}: ${error.message}`,
    writable: true,
    configurable: true,
  });
  return error;
}
