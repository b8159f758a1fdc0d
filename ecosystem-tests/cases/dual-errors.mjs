/**
 * Dual-package hazard: one process loads the ESM build (`import`) and the CommonJS build
 * (`require`) of the installed package, as an app does when one dependency imports payinout
 * and another requires it. `instanceof` must hold across the two copies for every error class
 * the package exports (found by walking the exports, so a new class is covered without listing
 * it here), must not hold where the classes are unrelated, and must hold for an error thrown by
 * a real call of the other copy.
 */
import { createRequire } from 'node:module';
import { startSandboxServer } from 'payinout/testing';
import { check, MERCHANT } from './money-flow.mjs';
import { runtimeName } from './server-flow.mjs';

// A dynamic import: the exports are walked below.
const esm = await import('payinout');
const cjs = createRequire(import.meta.url)('payinout');
check(esm.PayinoutError !== cjs.PayinoutError, 'the ESM and CJS builds are two copies');

const isErrorClass = (value) =>
  typeof value === 'function' &&
  (value === esm.PayinoutError || Object.prototype.isPrototypeOf.call(esm.PayinoutError, value));
const names = Object.keys(esm).filter((name) => isErrorClass(esm[name]));
check(names.length >= 18, `found ${names.length} error classes`);

/**
 * An instance of the class `name` of `copy`. Only the prototype chain decides `instanceof`, so
 * the constructor (each takes other arguments) is not run; the real errors at the end are.
 */
const make = (copy, name) => Object.create(copy[name].prototype);

let pairs = 0;
for (const made of names) {
  for (const [from, to] of [
    [esm, cjs],
    [cjs, esm],
  ]) {
    const error = make(from, made);
    for (const against of names) {
      // What `instanceof` says within one copy is what it must say across the two.
      const expected = make(to, made) instanceof to[against];
      check(
        error instanceof to[against] === expected,
        `${made} from one build instanceof ${against} of the other: ${!expected}, want ${expected}`,
      );
      pairs++;
    }
  }
}
check(!(new Error('x') instanceof esm.PayinoutError), 'a plain Error is no PayinoutError');
check(!({} instanceof esm.PayinoutError) && !(null instanceof esm.PayinoutError), 'non-errors are not');

// A merchant's own subclass of one copy: an instance of the other copy's ApiError is not one.
class MyApiError extends cjs.ApiError {}
check(make(cjs, 'NotFoundError') instanceof cjs.ApiError, 'sanity: same copy');
check(!(make(esm, 'ApiError') instanceof MyApiError), 'an ApiError is not an instance of a user subclass');
check(new MyApiError({ status: 400, body: {} }) instanceof esm.ApiError, 'a user subclass is an ApiError');

// A real error thrown by the CommonJS client, caught with the ESM classes.
const server = await startSandboxServer();
try {
  const client = new cjs.PaymentClient({ ...MERCHANT, baseUrl: server.url, maxRetries: 0 });
  const thrown = await client.transactions.get('no-such-ticket').catch((e) => e);
  check(thrown instanceof esm.NotFoundError, `CJS client's 404 is an ESM NotFoundError (${thrown?.name})`);
  check(thrown instanceof esm.ApiError && !(thrown instanceof esm.ServerError), 'and an ApiError only');
} finally {
  await server.close();
}
console.log(`RESULT ${JSON.stringify({ runtime: runtimeName(), classes: names.length, pairs })}`);
