/** Option checks shared by the webhook classes: a nonsensical number is a ConfigurationError at construction. */
import { ConfigurationError } from '../core/errors.js';
import { MAX_TIMER_MS } from '../core/options.js';

export { MAX_TIMER_MS };

/** `value` when it is a positive finite number, `fallback` when undefined; anything else throws. */
export function positive(
  value: number | undefined,
  fallback: number,
  name: string,
  unit: 'milliseconds' | 'keys' = 'milliseconds',
): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new ConfigurationError(`${name} must be a positive number of ${unit}; got ${String(value)}.`);
  }
  return value;
}

/** A timer-driven duration: positive and within what setTimeout supports. */
export function timerMs(value: number | undefined, fallback: number, name: string): number {
  const ms = positive(value, fallback, name);
  if (ms > MAX_TIMER_MS) {
    throw new ConfigurationError(
      `${name} must be at most ${MAX_TIMER_MS} ms (timers cannot wait longer); got ${ms}.`,
    );
  }
  return ms;
}
