/**
 * How the CLI fails: one clear line on stderr and a non-zero exit — 2 for a usage mistake
 * (arguments, or a setup refused before anything was sent: missing PAYINOUT_* variables), 1 for
 * everything else. SDK errors are already safe to print (credentials and PII scrubbed).
 */
import { CommanderError } from 'commander';
import { ConfigurationError, PayinoutError } from '../core/errors.js';

/** A mistake in how the command was called (exit code 2). */
export class UsageError extends Error {
  override name = 'UsageError';
}

export function reportFailure(error: unknown, write: (line: string) => void): number {
  if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2; // commander printed it
  if (error instanceof UsageError) {
    write(`payinout: ${error.message}`);
    return 2;
  }
  if (error instanceof PayinoutError) {
    write(`payinout: ${error.name}: ${oneLine(error.message)}`);
    // As every command that reads the environment: `payouts send`, `transactions check`.
    return error instanceof ConfigurationError ? 2 : 1;
  }
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  write(`payinout: ${oneLine(message)}${code && !message.includes(code) ? ` (${code})` : ''}`);
  return 1;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}
