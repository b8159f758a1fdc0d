/**
 * The `payinout` command line: one commander program, one file per command. A new command is a
 * file exporting `registerX(program)` and one line below.
 */
import { Command } from 'commander';
import { VERSION } from '../version.js';
import { registerConfirm } from './confirm.js';
import { registerGet } from './get.js';
import { registerSandbox } from './sandbox.js';

export function createProgram(): Command {
  const program = new Command('payinout')
    .description(
      'payinout: the local sandbox simulator and everyday commands against the PAYINOUT_* environment.',
    )
    .version(VERSION, '-v, --version', 'print the version')
    .helpOption('-h, --help', 'show help for a command')
    .configureOutput({ outputError: (text, write) => write(`payinout: ${text.replace(/^error: /, '')}`) })
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
  registerSandbox(program);
  registerConfirm(program);
  registerGet(program);
  for (const command of program.commands) command.exitOverride();
  return program;
}
