/**
 * The options objects of webhooks/ (verifyWebhook, createWebhookHandler, WebhookDeduplicator,
 * MemoryDedupeStore), checked through the rule tables of core/options.ts: an unknown key (with the
 * closest known one) and every value that breaks its rule, all named at once in one
 * ConfigurationError at construction — a misconfigured receiver fails at startup, not at the
 * first delivery.
 */
import { ConfigurationError } from '../core/errors.js';
import { type OptionRule, optionProblems, problemLine } from '../core/options.js';

/**
 * Throws a ConfigurationError naming every problem of `options` against its `table` (its keys are
 * the options known); `who` opens the message.
 */
export function checkWebhookOptions(
  who: string,
  options: unknown,
  table: Readonly<Record<string, OptionRule>>,
): void {
  if (options === null || typeof options !== 'object') {
    throw new ConfigurationError(
      `${who} takes an options object; got ${options === null ? 'null' : typeof options}.`,
    );
  }
  const problems = optionProblems(options, Object.keys(table), table);
  if (problems.length) throw new ConfigurationError(`${who}: ${problems.map(problemLine).join('; ')}.`);
}
