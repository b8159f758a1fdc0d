/** `payinout get <ticket|reference>`: one transaction, as JSON, from the PAYINOUT_* environment. */
import type { Command } from 'commander';
import { clientFromEnv } from './client.js';
import { envHelp } from './help.js';
import { printOut } from './terminal.js';

export function registerGet(program: Command): void {
  program
    .command('get')
    .description('Look up a transaction by ticket or reference and print it as JSON.')
    .argument('<ticket|reference>', "the service's ticket or your reference")
    .addHelpText('after', `\n${envHelp}\nExample:\n  payinout get order-1001\n`)
    .action(async (id: string) => {
      const transaction = await clientFromEnv().transactions.get(id);
      printOut(`${JSON.stringify(transaction, null, 2)}\n`);
    });
}
