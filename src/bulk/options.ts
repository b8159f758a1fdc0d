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

/** The array form of a run: its method's name, its options' rules, and what a non-array gets. */
interface ArrayForm {
  what: string;
  rules: Readonly<Record<string, OptionRule>>;
  notArray: string;
}

/** `getMany`: a run's options. */
export const GET_MANY: ArrayForm = {
  what: 'getMany',
  rules: RUN_RULES,
  notArray: 'getMany takes an array of tickets or references.',
};

/** `createMany`: a run's options, and the retry budget of each item's calls. */
export const CREATE_MANY: ArrayForm = {
  what: 'createMany',
  rules: { ...RUN_RULES, maxRetries: RETRIES },
  notArray: 'createMany takes an array of PayOut params; nothing was sent.',
};

/**
 * The array form of a run (`createMany`, `getMany`): `items` must be an array and `options` keep
 * the form's rules, checked as given, before the run's own total and sink are added to them.
 * Resolves with every result in input order, once `run` has handed each to the sink it is given.
 */
export async function resultsInOrder<R>(
  form: ArrayForm,
  items: unknown,
  options: unknown,
  run: (sink: (result: R, index: number) => void) => Promise<unknown>,
): Promise<R[]> {
  if (!Array.isArray(items)) throw new ConfigurationError(form.notArray);
  checkRunOptions(form.what, options, form.rules);
  const results: R[] = new Array(items.length);
  await run((result, index) => {
    results[index] = result;
  });
  return results;
}

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
