/**
 * A result kept in Redis comes back as the class it was: the service's error classes (rows of
 * src/api/errors.ts, outside core) as much as core's, so `instanceof AlreadyFinalError` holds on
 * what readPayOutBatch returns as on what createMany returns.
 */
import { describe, expect, it } from 'vitest';
import { errorsOf } from '../../src/api/errors.js';
import { decodeResult, encodeResult } from '../../src/bullmq/codec.js';
import { createApiError } from '../../src/core/api-errors.js';
import {
  AlreadyFinalError,
  ConfirmFailedError,
  NotFoundError,
  UnprocessableEntityError,
} from '../../src/index.js';

const refused = (status: number, error: string) =>
  createApiError(
    { status, body: { code: '00', status: 'ERROR', error, message: 'refused' } },
    errorsOf({ sandboxOnly: false }),
  );

describe('codec: errors revived as their class', () => {
  it.each([
    [422, 'ALREADY_FINAL', AlreadyFinalError],
    [500, 'CONFIRM_FAILED', ConfirmFailedError],
    [404, 'NOT_FOUND', NotFoundError],
  ] as const)('%i %s', (status, code, ErrorClass) => {
    const error = refused(status, code);
    const back = decodeResult(encodeResult({ reference: 'r-1', outcome: 'failed', error }), 'r-1');
    expect(back.error).toBeInstanceOf(ErrorClass);
    expect(back.error?.name).toBe(ErrorClass.name);
    expect(back.error?.message).toBe(error.message);
  });

  it('a service class still is its status class', () => {
    const back = decodeResult(
      encodeResult({ reference: 'r-1', outcome: 'failed', error: refused(422, 'ALREADY_FINAL') }),
      'r-1',
    );
    expect(back.error).toBeInstanceOf(UnprocessableEntityError);
  });
});
