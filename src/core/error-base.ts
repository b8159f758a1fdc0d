/**
 * The base of the error hierarchy (the public API contract, "Errors"): `PayinoutError`, its safe
 * JSON and `util.inspect` forms, and `instanceof` across copies of the package by brand. The
 * concrete classes are in errors.ts (which brands them) and api-errors.ts.
 */
const inspectSymbol = Symbol.for('nodejs.util.inspect.custom');
/** Names each error class across copies of the package (see `PayinoutError[Symbol.hasInstance]`). */
export const BRAND = Symbol.for('payinout.error.class');
/** Any error class, abstract ones included: the `this` of `Symbol.hasInstance`. */
type Constructor<T> = abstract new (...args: never[]) => T;

/** Where the failing call went; present on every error that concerns a request. */
export interface RequestContext {
  method: string;
  path: string;
  /** How many HTTP attempts were made (1 = no retry). */
  attempts: number;
}

/**
 * The base of every error the SDK throws; catch it to handle all of them. Its subclasses say
 * what happened: {@link RequestValidationError} (nothing sent), {@link ApiError} and its
 * per-status subclasses (the service answered with an error), {@link ConnectionError} (no
 * answer), {@link ResponseValidationError}, {@link WebhookVerificationError},
 * {@link ConfigurationError}, {@link SandboxUnavailableError}. Every property, the message, the
 * JSON form and `util.inspect` output are safe to log: no credentials, customer data redacted.
 * @example
 * try {
 *   await client.payin.create(params);
 * } catch (error) {
 *   if (error instanceof RequestValidationError) console.log(error.issues); // nothing was sent
 *   else if (error instanceof ApiError) console.log(error.status, error.errorCode, error.serviceMessage);
 *   else if (error instanceof ConnectionError && error.outcome === 'unknown') {
 *     // the create may have been processed: look error.reference up before trying again
 *   } else if (error instanceof PayinoutError) console.log(error.message);
 *   else throw error;
 * }
 */
export class PayinoutError extends Error {
  override name = 'PayinoutError';

  /**
   * `instanceof` across copies of the package: an app whose dependencies load both the ESM and
   * the CommonJS build (or two installs) holds two `PayinoutError` classes; an error from one copy
   * still passes `instanceof` with the other's class (and each subclass with its own), matched by
   * the brand each class's prototype carries under a `Symbol.for` key.
   * @internal What `instanceof` calls; not a method to call yourself.
   */
  static override [Symbol.hasInstance]<T>(this: Constructor<T>, value: unknown): value is T {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class right of `instanceof`, a subclass too
    return isInstance(this, value);
  }

  /** Plain, safe representation: what `JSON.stringify(error)` prints. */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { name: this.name, message: this.message };
    for (const [key, value] of Object.entries(this)) if (key !== 'name') out[key] = value;
    return out;
  }

  /** `util.inspect` / console.log shows the same safe fields plus the stack. */
  [inspectSymbol](): string {
    const { name: _name, message: _message, ...rest } = this.toJSON();
    const fields = Object.keys(rest).length ? ` ${JSON.stringify(rest)}` : '';
    return `${this.stack ?? `${this.name}: ${this.message}`}${fields}`;
  }
}

/**
 * Gives each class the brand `instanceof` matches across copies, by the literal name it is
 * listed under (a consumer's minifier may rename the classes themselves).
 */
export function brand(classes: Record<string, Constructor<Error>>): void {
  for (const [name, ErrorClass] of Object.entries(classes)) {
    Object.defineProperty(ErrorClass.prototype, BRAND, { value: `payinout:${name}` });
  }
}

/**
 * Ordinary `instanceof`, else: the value is a payinout error of some copy (PayinoutError's brand
 * is on its prototype chain) and a class on that chain has the brand of `ErrorClass`.
 */
function isInstance(ErrorClass: Constructor<unknown>, value: unknown): boolean {
  if (Function.prototype[Symbol.hasInstance].call(ErrorClass, value)) return true;
  if (value === null || typeof value !== 'object') return false;
  const chain: object[] = [];
  for (let proto = Object.getPrototypeOf(value); proto && proto !== Object.prototype; ) {
    chain.push(proto);
    proto = Object.getPrototypeOf(proto);
  }
  if (!chain.some((proto) => brandOf(proto) === 'payinout:PayinoutError')) return false;
  const wanted = brandOf(ErrorClass.prototype as object);
  return chain.some((proto) => brandOf(proto) === wanted);
}

/**
 * The classes given to {@link brand} carry a literal brand; a subclass defined elsewhere
 * is known by its class name, which the build keeps (tsup keepNames).
 */
function brandOf(proto: object): unknown {
  if (Object.hasOwn(proto, BRAND)) return (proto as Record<symbol, unknown>)[BRAND];
  return `payinout:~${(proto as { constructor?: { name?: string } }).constructor?.name}`;
}

/**
 * A copy of `error` — same prototype, every own property — in which the own properties named in
 * `changes` hold the given values instead; the original is never changed. A replaced property is
 * a plain value even where the original's was an accessor (a `stack` bound to the original).
 * Used where an error must be handed on with a field corrected (reconcile.ts: the attempts of the
 * whole call) or scrubbed (the webhook receiver's report: message and stack).
 */
export function copyWith<E extends object>(error: E, changes: Readonly<Record<string, unknown>>): E {
  const copy = Object.create(Object.getPrototypeOf(error)) as E;
  for (const key of Object.getOwnPropertyNames(error)) {
    const descriptor = Object.getOwnPropertyDescriptor(error, key) as PropertyDescriptor;
    const replaced = Object.hasOwn(changes, key) && {
      value: changes[key],
      writable: true,
      configurable: true,
      enumerable: descriptor.enumerable === true,
    };
    Object.defineProperty(copy, key, replaced || descriptor);
  }
  return copy;
}
