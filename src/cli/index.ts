#!/usr/bin/env node
/**
 * `payinout` (package.json bin → dist/cli.js): `payinout sandbox`, `payinout confirm`,
 * `payinout get`, `payinout payouts send`. Usage mistakes exit 2, failures exit 1, each with one
 * line on stderr.
 */
import { reportFailure } from './errors.js';
import { createProgram } from './program.js';

// `payinout get x | head` closes the pipe early: that is the reader's choice, not a failure.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

const argv = process.argv.slice(2);
createProgram(argv)
  .then((program) => program.parseAsync(argv, { from: 'user' }))
  .catch((error: unknown) => {
    process.exitCode = reportFailure(error, (line) => process.stderr.write(`${line}\n`));
  });
