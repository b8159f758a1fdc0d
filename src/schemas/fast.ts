/**
 * The fast path of a parse: each schema is compiled once, by walking its zod/mini definition, into
 * plain closures that return zod's exact output for an input zod accepts, and INVALID for any input
 * zod would report an issue on. `safeParse` (kit.ts) asks zod only then, so every message, path and
 * did-you-mean comes from zod as before; a failing input runs the schema's refinements twice (they
 * are pure).
 *
 * Why: zod's interpreter allocates a payload per node and tests every result for a Promise; a
 * `payin.create` spent more CPU validating its body and parsing its answer than serialising and
 * reading them (node_modules/payinout/docs/performance.md or https://github.com/payinout/payinout/blob/main/docs/performance.md, "0.4: per-call cost"). zod's own
 * `z.compile` generates code with `new Function` (refused under a strict CSP), and its generator
 * (zod's core/compile.js, ~1,900 lines) would not fit the Node entry's bundle budget.
 *
 * Exactness: only the node kinds below are compiled, each mirroring zod's parse of that kind
 * (zod 4's core/schemas.js); transforms and checks run zod's own functions, on a payload of their
 * own, except the checks `step` calls without one where that is exact. Any other kind (nullable, array, record, default, codec…: rare on the hot
 * paths, and the Node entry's bundle budget has no room for them) runs zod itself for that subtree
 * ("delegate"), and anything unexpected at run time (a Promise, a throw) abandons the fast path for
 * the whole parse. test/property/fast-parse.test.ts compares both on generated valid and invalid
 * inputs.
 */
import type * as z from 'zod/mini';
import { minLength } from 'zod/mini';

/** What a compiled node returns where zod would report an issue. */
const INVALID = Symbol('invalid');

/** A compiled node: zod's output for the value, or INVALID; throws where it cannot tell. */
type Node = (value: unknown) => unknown;

interface Payload {
  value: unknown;
  issues: unknown[];
}

/** The parts of zod's internals the compiler reads (`schema._zod`). */
interface Internals {
  def: Def;
  traits: Set<string>;
  optin?: 'optional' | 'defaulted';
  optout?: 'optional';
  values?: Set<unknown>;
  propValues?: Record<string, Set<unknown>>;
  check?: (payload: Payload) => unknown;
  run(payload: Payload, ctx: { async: false }): Payload | Promise<Payload>;
}

interface Def {
  type: string;
  checks?: Schemaish[];
  coerce?: boolean;
  when?: (payload: Payload) => boolean;
  /** A refinement's predicate (`$ZodCustom`). */
  fn?: (value: unknown) => unknown;
  /** An overwrite's function (`$ZodCheckOverwrite`: trim, toLowerCase…). */
  tx?: (value: unknown) => unknown;
  /** A `z.regex` check's pattern. */
  pattern?: unknown;
  /** A length check's minimum. */
  minimum?: number;
  innerType: Schemaish;
  shape: Record<string, Schemaish>;
  catchall?: Schemaish;
  options: Schemaish[];
  discriminator?: string;
  unionFallback?: boolean;
  in: Schemaish;
  out: Schemaish;
  element: Schemaish;
  transform(value: unknown, payload: Payload): unknown;
}

interface Schemaish {
  _zod: Internals;
}

const compiled = new WeakMap<object, Node>();

/**
 * `{ success: true, data }` exactly as `schema.safeParse(data)` would return it, or undefined when
 * zod must decide (an issue, or anything the fast path cannot vouch for).
 */
export function fastParse<T>(
  schema: z.ZodMiniType<T>,
  data: unknown,
): { success: true; data: T } | undefined {
  try {
    let node = compiled.get(schema);
    if (!node) {
      // A schema zod refuses to build (a duplicate discriminator throws) is compiled again per call, and fails again.
      node = compile(schema as unknown as Schemaish);
      compiled.set(schema, node);
    }
    const value = node(data);
    return value === INVALID ? undefined : { success: true, data: value as T };
  } catch {
    // zod would throw or go async here, or the schema cannot be compiled: zod decides.
    return undefined;
  }
}

function compile(schema: Schemaish): Node {
  const zod = schema._zod;
  const build = zod.def.coerce ? undefined : KINDS[zod.def.type];
  const parse = build?.(zod);
  if (!parse) return delegate(zod);
  const checks = zod.traits.has('$ZodCheck') ? [schema, ...(zod.def.checks ?? [])] : (zod.def.checks ?? []);
  return checks.length ? withChecks(parse, checks) : parse;
}

/** zod's own run for a subtree the compiler does not model. */
function delegate(zod: Internals): Node {
  return (value) => {
    // Synchronous: with `async: false` zod throws rather than return a Promise.
    const result = zod.run({ value, issues: [] }, { async: false }) as Payload;
    return result.issues.length ? INVALID : result.value;
  };
}

/** One check on an issue-free value: the value it leaves (an overwrite changes it), or INVALID. */
type Step = (value: unknown) => unknown;

/** The schema's checks in order on the parsed value, as zod runs them on an issue-free payload. */
function withChecks(parse: Node, checks: Schemaish[]): Node {
  const steps = checks.map(step);
  return (value) => {
    let out = parse(value);
    for (let i = 0; i < steps.length && out !== INVALID; i++) out = steps[i]!(out);
    return out;
  };
}

/**
 * A check as a step. Where zod's own `check` function reads the payload only for its value and to
 * push an issue (zod's core/schemas.js and core/checks.js), the step calls no check and makes no
 * payload: a refine (`$ZodCustom`), an overwrite (`z.trim()`…), a `z.regex`, and a minimum length
 * that every count of the string clears. Any other check runs zod's own function on a payload.
 */
function step(schema: Schemaish): Step {
  const { def, traits } = schema._zod;
  const generic = zodStep(schema._zod);
  if (def.when) {
    // Only a length's own default `when` (a value with a length) is known to pass every string.
    if (!traits.has('$ZodCheckMinLength') || def.when !== HAS_LENGTH) return generic;
    // A string of 2 × minimum UTF-16 units has at least `minimum` code points, whichever zod counts.
    const clears = 2 * def.minimum!;
    return (value) => (typeof value === 'string' && value.length >= clears ? value : generic(value));
  }
  const { fn, tx, pattern } = def;
  if (traits.has('$ZodCustom') && typeof fn === 'function') {
    return (value) => {
      const passed = fn(value);
      if (passed instanceof Promise) throw INVALID;
      return passed ? value : INVALID;
    };
  }
  if (traits.has('$ZodCheckOverwrite') && typeof tx === 'function') return tx;
  if (traits.has('$ZodCheckRegex') && pattern instanceof RegExp) {
    return (value) => {
      pattern.lastIndex = 0;
      return pattern.test(value as string) ? value : INVALID;
    };
  }
  return generic;
}

/** zod's own check on a payload of its own. */
function zodStep(check: Internals): Step {
  const when = check.def.when;
  return (value) => {
    const payload: Payload = { value, issues: [] };
    if (when && !when(payload)) return value;
    if (check.check!(payload) instanceof Promise) throw INVALID;
    return payload.issues.length ? INVALID : payload.value;
  };
}

/** zod's default `when` of a length check (core/checks.js): read once from a check zod builds. */
const HAS_LENGTH = (minLength(0) as unknown as Schemaish)._zod.def.when;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The parse of each modelled kind (`def.type`); undefined: the kind's variant is left to zod. */
const KINDS: Record<string, ((zod: Internals) => Node | undefined) | undefined> = {
  string: () => (value) => (typeof value === 'string' ? value : INVALID),
  number: () => (value) => (typeof value === 'number' && Number.isFinite(value) ? value : INVALID),
  unknown: () => (value) => value,
  literal: oneOf,
  enum: oneOf,
  optional: (zod) => {
    const inner = zod.def.innerType;
    if (zod.traits.has('$ZodExactOptional') || inner._zod.optin === 'defaulted') return undefined;
    const parse = compile(inner);
    return (value) => (value === undefined ? value : parse(value));
  },
  pipe: (zod) => {
    if (zod.traits.has('$ZodCodec')) return undefined;
    const first = compile(zod.def.in);
    const then = compile(zod.def.out);
    return (value) => {
      const left = first(value);
      return left === INVALID ? INVALID : then(left);
    };
  },
  transform: (zod) => (value) => {
    const payload: Payload = { value, issues: [] };
    const out = zod.def.transform(value, payload);
    if (out instanceof Promise) throw INVALID;
    return payload.issues.length ? INVALID : out;
  },
  union: (zod) => {
    if (zod.traits.has('$ZodXor')) return undefined;
    return zod.def.discriminator === undefined ? union(zod) : discriminated(zod);
  },
  object: object,
};

/** A literal or an enum: zod's own set of its values. */
function oneOf(zod: Internals): Node {
  const values = zod.values!;
  return (value) => (values.has(value) ? value : INVALID);
}

/** The first option without an issue, as zod's union picks it. */
function union(zod: Internals): Node {
  const options = zod.def.options.map(compile);
  return (value) => {
    for (const option of options) {
      const out = option(value);
      if (out !== INVALID) return out;
    }
    return INVALID;
  };
}

/** The option the discriminator's value names (zod's lookup map, built the same way). */
function discriminated(zod: Internals): Node | undefined {
  const key = zod.def.discriminator!;
  if (zod.def.unionFallback) return undefined;
  const byValue = new Map<unknown, Node | null>();
  for (const option of zod.def.options) {
    const values = option._zod.propValues?.[key];
    if (!values?.size) return undefined;
    const node = compile(option);
    for (const value of values) {
      if (byValue.has(value) && value !== undefined) return undefined;
      byValue.set(value, byValue.has(value) ? null : node);
    }
  }
  return (value) => {
    if (!isObject(value)) return INVALID;
    const option = byValue.get(value[key]);
    return option ? option(value) : INVALID;
  };
}

/** Reads one field into `out`; false where zod reports an issue. */
type Field = (input: Record<string, unknown>, out: Record<string, unknown>) => boolean;

/** zod's object parse: the shape's keys in order, then unknown keys by the catchall (kept, refused or dropped). */
function object(zod: Internals): Node | undefined {
  const shape = zod.def.shape;
  if (Object.getOwnPropertySymbols(shape).length) return undefined;
  const known = new Set(Object.keys(shape));
  const fields: Field[] = [];
  for (const key of known) {
    const { optin, optout } = shape[key]!._zod;
    if (optin === 'defaulted') return undefined;
    if (key !== '__proto__') fields.push(field(key, compile(shape[key]!), optin, optout === 'optional'));
  }
  const catchall = zod.def.catchall;
  const rest = catchall && catchall._zod.def.type !== 'never' ? compile(catchall) : undefined;
  return (input) => {
    if (!isObject(input)) return INVALID;
    const out: Record<string, unknown> = {};
    for (const read of fields) if (!read(input, out)) return INVALID;
    if (catchall) {
      for (const key in input) {
        if (known.has(key)) continue;
        if (!rest) return INVALID;
        if (key === '__proto__') continue;
        const value = rest(input[key]);
        if (value === INVALID) return INVALID;
        out[key] = value;
      }
    }
    return out;
  };
}

/**
 * zod's handlePropertyResult for a field without issues (defaults are left to zod). A key is
 * present when `key in input`; a value other than undefined already proves it.
 */
function field(key: string, parse: Node, optin: Internals['optin'], optionalOut: boolean): Field {
  return (input, out) => {
    const raw = input[key];
    const value = parse(raw);
    if (raw !== undefined || key in input) {
      if (value === INVALID) return false;
      out[key] = value;
      return true;
    }
    // Absent: an optional field is left out, whatever its schema made of undefined.
    if (optin === 'optional' && optionalOut) return true;
    if (value === INVALID || optin === undefined) return false;
    if (value !== undefined) out[key] = value;
    return true;
  };
}
