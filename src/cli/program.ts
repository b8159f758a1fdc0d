/**
 * The `payinout` command line: one commander program, one file per command. A new command is a
 * file exporting `registerX(program)` and one line below.
 */
import { Command } from 'commander';
import { VERSION } from '../version.js';
import { registerConfirm } from './confirm.js';
import { registerDocs } from './docs.js';
import { registerGet } from './get.js';
import { registerOpenApi } from './openapi.js';
import { registerSandbox } from './sandbox.js';
import { printErr, printOut } from './terminal.js';

/** `argv`: the user's arguments (no node, no script), to skip loading what the command never uses. */
export async function createProgram(argv: readonly string[]): Promise<Command> {
  const program = new Command('payinout')
    .description(
      'payinout: the local sandbox simulator and everyday commands against the PAYINOUT_* environment.',
    )
    .version(VERSION, '-v, --version', 'print the version')
    .helpOption('-h, --help', 'show help for a command')
    .configureOutput({
      // Help and errors echo what was typed (an option name, an argument): neutralised too.
      writeOut: printOut,
      writeErr: printErr,
      outputError: (text, write) => write(`payinout: ${text.replace(/^error: /, '')}`),
    })
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
  registerSandbox(program);
  registerConfirm(program);
  registerGet(program);
  registerOpenApi(program);
  registerDocs(program);
  // The CSV and progress-bar libraries behind `payouts send` and `transactions check` stay out
  // of `payinout sandbox`.
  if (argv[0] !== 'sandbox') {
    (await import('./payouts.js')).registerPayoutsCommand(program);
    (await import('./transactions.js')).registerTransactionsCommand(program);
  }
  // payouts and transactions map their own usage errors to exit 2.
  const ownExits = ['payouts', 'transactions'];
  for (const command of program.commands) if (!ownExits.includes(command.name())) command.exitOverride();
  return program;
}
