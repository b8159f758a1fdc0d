#!/usr/bin/env node
/**
 * `payinout` (package.json bin → dist/cli.js): `payinout sandbox`, `payinout confirm`,
 * `payinout get`, `payinout payouts send`, `payinout transactions check`, `payinout openapi`. Usage
 * mistakes exit 2, failures exit 1, each with one line on stderr; everything printed goes through
 * terminal.ts.
 */
import { reportFailure } from './errors.js';
import { createProgram } from './program.js';
import { printErr } from './terminal.js';

// `payinout get x | head` closes the pipe early: that is the reader's choice, not a failure.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

// A failure nothing caught (a bug) is still printed through terminal.ts: its message may hold
// text the service sent.
const crash = (error: unknown) => {
  printErr(
    `payinout: unexpected failure, please report it: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
};
process.on('uncaughtException', crash);
process.on('unhandledRejection', crash);

const argv = process.argv.slice(2);
createProgram(argv)
  .then((program) => program.parseAsync(argv, { from: 'user' }))
  .catch((error: unknown) => {
    process.exitCode = reportFailure(error, (line) => printErr(`${line}\n`));
  });
