/**
 * The one home of option checks: the rules every option of the SDK is held to (client options,
 * per-call RequestOptions, batch options, webhook timers) and the "unknown option; did you mean"
 * check of an options object. Each caller words its own error (ConfigurationError for a client
 * or a batch, RequestValidationError for a call) around the same rule, so the limits cannot drift.
 */
import { closestKey } from '../schemas/suggest.js';
import { RequestValidationError } from './errors.js';
import { MAX_TIMER_MS } from './limits.js';
import type { RequestOptions } from './types.js';

/** Most items of one batch in flight at once. */
export const MAX_CONCURRENCY = 64;

/** The keys of a call's RequestOptions (its last argument). */
export const REQUEST_OPTION_KEYS = ['signal', 'timeoutMs', 'maxRetries', 'headers'] as const;

/** What other HTTP and payment SDKs call the same options (axios, ky, stripe-node, openai-node). */
export const OPTION_ALIASES: Readonly<Record<string, string>> = {
  retries: 'maxRetries',
  retry: 'maxRetries',
  timeout: 'timeoutMs',
  url: 'baseUrl',
  prefixUrl: 'baseUrl',
  user: 'username',
  apiKey: 'token',
};

/** One option's rule: whether a (defined) value is acceptable, and what it must be. */
export interface OptionRule {
  valid(value: unknown): boolean;
  /** Completes "x must be …". */
  expects: string;
  /**
   * The option's values are names (an environment), never secrets: a wrong one is shown in the
   * message, quoted and cut short. Any other value is shown by its type only.
   */
  names?: true;
}

/** A timeout or any duration a timer waits for. */
export const TIMER_MS: OptionRule = {
  valid: (value) => typeof value === 'number' && Number.isFinite(value) && value > 0 && value <= MAX_TIMER_MS,
  expects: `a number of milliseconds above 0 and at most ${MAX_TIMER_MS}`,
};

/** A positive finite number of `unit`: a TTL (not a timer: it may exceed what timers hold), a size. */
export function positive(unit: 'milliseconds' | 'keys' | 'bytes'): OptionRule {
  return {
    valid: (value) => typeof value === 'number' && Number.isFinite(value) && value > 0,
    expects: `a positive number of ${unit}`,
  };
}

/** One of a fixed list of names. */
export function oneOf(values: readonly string[]): OptionRule {
  return {
    valid: (value) => values.includes(value as string),
    expects: `one of ${values.join(', ')}`,
    names: true,
  };
}

/** A retry budget: 0 means exactly one attempt. */
export const RETRIES: OptionRule = {
  valid: (value) => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0,
  expects: 'a whole number, 0 or more',
};

export const CONCURRENCY: OptionRule = {
  valid: (value) =>
    typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_CONCURRENCY,
  expects: `a whole number from 1 to ${MAX_CONCURRENCY}`,
};

export const BOOLEAN: OptionRule = {
  valid: (value) => typeof value === 'boolean',
  expects: 'true or false',
};

/** An AbortSignal, from this realm or another (an iframe's, a vm context's): read by its shape. */
export const SIGNAL: OptionRule = {
  valid: (value) =>
    value !== null &&
    typeof value === 'object' &&
    typeof (value as AbortSignal).aborted === 'boolean' &&
    typeof (value as AbortSignal).addEventListener === 'function',
  expects: 'an AbortSignal',
};

export const FUNCTION: OptionRule = {
  valid: (value) => typeof value === 'function',
  expects: 'a function',
};

/** A known option whose value is checked where it is used (a token, a store), not by a rule here. */
export const ANY: OptionRule = { valid: () => true, expects: 'anything' };

/**
 * An options object's table, written once: every key it takes, in the order a message lists
 * them, each with its rule ({@link ANY} when its value is checked where it is used). Mapped over
 * the options' type: a key the type has without a row, or a row the type lacks, does not compile.
 */
export type OptionTable<T> = { readonly [K in keyof T]-?: OptionRule };

/** An object whose named members are functions (a logger, a tracer). */
export function withMethods(...names: string[]): OptionRule {
  return {
    valid: (value) =>
      value !== null &&
      typeof value === 'object' &&
      names.every((name) => typeof (value as Record<string, unknown>)[name] === 'function'),
    expects: `an object with ${names.join(', ')} method${names.length > 1 ? 's' : ''}`,
  };
}

/** A problem found in an options object: which key, and what is wrong with it. */
export interface OptionProblem {
  key: string;
  message: string;
  /** For an unknown key: the known option it most likely meant. */
  suggestion?: string | undefined;
}

/**
 * Every problem of an options object at once: each key that is not a known option (with the
 * closest known one), then each defined value that breaks its rule. Values are never repeated
 * (an option may hold a credential); `shown` gives a safe glimpse for numbers.
 */
export function optionProblems(
  options: object,
  known: readonly string[],
  rules: Readonly<Record<string, OptionRule>> = {},
  /** Names other libraries use for a known option (`timeout` → `timeoutMs`), too far to be a typo. */
  aliases: Readonly<Record<string, string>> = {},
): OptionProblem[] {
  const problems: OptionProblem[] = [];
  for (const key of Object.keys(options)) {
    if (known.includes(key)) continue;
    const suggestion = closestKey(key, known) ?? (Object.hasOwn(aliases, key) ? aliases[key] : undefined);
    const message = suggestion
      ? `unknown option; did you mean ${suggestion}?`
      : `unknown option; the options are ${known.join(', ')}`;
    problems.push({ key, message, suggestion });
  }
  for (const [key, rule] of Object.entries(rules)) {
    const value = (options as Record<string, unknown>)[key];
    if (value !== undefined && !rule.valid(value)) {
      problems.push({ key, message: `must be ${rule.expects}; got ${shownValue(value, rule.names)}` });
    }
  }
  return problems;
}

/**
 * A non-secret glimpse of an option value for a message: numbers and booleans, a string only when
 * the option holds names (`names`, quoted, at most 40 characters), else the type.
 */
export function shownValue(value: unknown, names?: true): string {
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (names && typeof value === 'string') return `'${value.slice(0, 40)}'`;
  return value === null ? 'null' : typeof value;
}

/** One problem as a line of a message: `key: unknown option; …` or `key must be …`. */
export function problemLine({ key, message }: OptionProblem): string {
  return message.startsWith('unknown option') ? `${key}: ${message}` : `${key} ${message}`;
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

const REQUEST_RULES = { timeoutMs: TIMER_MS, maxRetries: RETRIES };

/**
 * No key of its own, and none of the checked ones inherited: what most calls pass (the default
 * `{}`), which every check below passes, so it is not walked.
 */
function noOptions(options: RequestOptions): boolean {
  return (
    Object.keys(options).length === 0 &&
    options.timeoutMs === undefined &&
    options.maxRetries === undefined &&
    options.headers === undefined
  );
}

/**
 * A call's RequestOptions (its last argument), checked like the client's: an unknown key
 * (`timeout: 5000`) would be silently ignored and a value timers cannot hold would fire at once,
 * so both are refused, with nothing sent.
 */
export function checkRequestOptions(options: RequestOptions): void {
  if (options === null || typeof options !== 'object') {
    throw new RequestValidationError('request options', [
      { path: '(options)', message: 'must be an object such as { timeoutMs: 10_000 }, or left out' },
    ]);
  }
  if (noOptions(options)) return;
  const issues = optionProblems(options, REQUEST_OPTION_KEYS, REQUEST_RULES, OPTION_ALIASES).map(
    ({ key, message }) => ({ path: key, message }),
  );
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    // What every sender can put on the wire as it is (node:http is the strictest): a token name,
    // a value without line breaks or control characters. The value is never repeated.
    if (!HEADER_NAME.test(name) || typeof value !== 'string' || !HEADER_VALUE.test(value)) {
      issues.push({
        path: `headers[${JSON.stringify(name).slice(0, 60)}]`,
        message:
          'must be an HTTP header: a token name, a text value without line breaks or control characters',
      });
    }
  }
  if (issues.length) throw new RequestValidationError('request options', issues);
}
