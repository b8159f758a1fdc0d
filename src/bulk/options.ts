/**
 * The options of a run for "many" (`createMany`, `getMany`), checked by the rule tables of
 * core/options.ts before any item starts: every problem at once, in one ConfigurationError.
 */
import { ConfigurationError } from '../core/errors.js';
import {
  CONCURRENCY,
  FUNCTION,
  type OptionRule,
  optionProblems,
  RETRIES,
  SIGNAL,
  shownValue,
} from '../core/options.js';

/** Items in flight at once when a run does not say. */
export const DEFAULT_CONCURRENCY = 4;

/** The options every run takes. */
const RUN_RULES: Readonly<Record<string, OptionRule>> = {
  concurrency: CONCURRENCY,
  signal: SIGNAL,
  onProgress: FUNCTION,
};

/** `getMany`'s options. */
export const LOOKUP_RULES = RUN_RULES;

/** `createMany`'s options: a run's, and the retry budget of each item's calls. */
export const PAYOUT_RULES: Readonly<Record<string, OptionRule>> = { ...RUN_RULES, maxRetries: RETRIES };

/**
 * Refuses `options` unless it is an object (or left out) whose keys are `rules`' and whose values
 * keep them. `what` names the method, e.g. 'getMany'. Values are never repeated, only their type.
 */
export function checkRunOptions(
  what: string,
  options: unknown,
  rules: Readonly<Record<string, OptionRule>>,
): void {
  if (options === undefined) return;
  if (options === null || typeof options !== 'object') {
    throw new ConfigurationError(
      `${what} options must be an object such as { concurrency: 8 }, or left out.`,
    );
  }
  const problems = optionProblems(options, Object.keys(rules), rules).map(({ key, message }) =>
    message.startsWith('unknown option') ? `${what} ${key}: ${message}` : `${what} option ${key} ${message}`,
  );
  if (problems.length) throw new ConfigurationError(`${problems.join('; ')}. Nothing was sent.`);
}

/** A run's concurrency, the default when left out. */
export function checkConcurrency(value: unknown): number {
  if (value === undefined) return DEFAULT_CONCURRENCY;
  if (CONCURRENCY.valid(value)) return value as number;
  throw new ConfigurationError(
    `concurrency must be ${CONCURRENCY.expects} (got ${shownValue(value)}); the default is ${DEFAULT_CONCURRENCY}.`,
  );
}

/** The retry budget of each call of an item, the client's when left out. */
export function checkMaxRetries(value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (RETRIES.valid(value)) return value as number;
  throw new ConfigurationError(
    `maxRetries must be ${RETRIES.expects} (got ${shownValue(value)}); the default is the client's maxRetries.`,
  );
}
