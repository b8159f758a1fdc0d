/**
 * `instanceof` across two copies of the package in one process (an app whose dependencies load
 * both the ESM and the CommonJS build). Here the second copy is a second instance of the same
 * source modules; ecosystem-tests/cases/dual-errors.mjs checks the real built copies on every
 * runtime.
 */
import { describe, expect, it, vi } from 'vitest';
import * as first from '../../src/index.js';

// A fresh module registry loads the whole graph again: new classes, same code.
vi.resetModules();
const second = await import('../../src/index.js');

const errorClasses = (copy: typeof first) =>
  Object.entries(copy).filter(
    ([, value]) =>
      typeof value === 'function' &&
      (value === copy.PayinoutError || Object.prototype.isPrototypeOf.call(copy.PayinoutError, value)),
  ) as [string, abstract new (...args: never[]) => Error][];

describe('error classes across two copies of the package', () => {
  it('are two copies', () => {
    expect(second.PayinoutError).not.toBe(first.PayinoutError);
    expect(errorClasses(first).length).toBeGreaterThanOrEqual(18);
  });

  it('answer instanceof across the copies exactly as within one', () => {
    for (const [name, Class] of errorClasses(first)) {
      const instance = Object.create(Class.prototype);
      const Other = errorClasses(second).find(([n]) => n === name)?.[1];
      expect(Other, name).toBeDefined();
      const other = Object.create(Other!.prototype);
      for (const [against, Against] of errorClasses(second)) {
        const within = other instanceof Against;
        expect(instance instanceof Against, `${name} instanceof ${against}`).toBe(within);
      }
    }
  });

  it('holds for an error a real call of the other copy threw', () => {
    const error = second.createApiError({ status: 404, body: { code: '00', error: 'NOT_FOUND' } });
    expect(error).toBeInstanceOf(first.NotFoundError);
    expect(error).toBeInstanceOf(first.ApiError);
    expect(error).toBeInstanceOf(first.PayinoutError);
    expect(error).not.toBeInstanceOf(first.ServerError);
    expect(error).not.toBeInstanceOf(first.ConnectionError);
  });

  it('does not match plain errors, non-errors, or a merchant subclass', () => {
    class MyApiError extends first.ApiError {}
    expect(new Error('x')).not.toBeInstanceOf(first.PayinoutError);
    expect({ name: 'PayinoutError' }).not.toBeInstanceOf(first.PayinoutError);
    expect((null as unknown as object) instanceof first.PayinoutError).toBe(false);
    expect(new second.ApiError({ status: 400, body: {} })).not.toBeInstanceOf(MyApiError);
    expect(new MyApiError({ status: 400, body: {} })).toBeInstanceOf(second.ApiError);
  });
});
