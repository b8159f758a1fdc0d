/**
 * `payinout confirm <ticket|reference> <APPROVED|REJECTED|EXPIRED>`: sandbox confirm against
 * the PAYINOUT_* environment. Sandbox confirm needs the transaction's payment_method, which a
 * lookup does not return, so without --method the command tries the methods the
 * supported-status table allows for the transaction's country and direction, in order, until
 * one is accepted; a refusal that is not about the method stops it at once.
 */
import { Argument, type Command, Option } from 'commander';
import { UnprocessableEntityError } from '../core/errors.js';
import { guide } from '../core/guides.js';
import {
  COUNTRIES,
  SANDBOX_CONFIRM_STATUSES,
  SANDBOX_CONFIRM_SUPPORT,
  type SandboxConfirmStatus,
} from '../schemas/catalog.js';
import { clientFromEnv } from './client.js';
import { UsageError } from './errors.js';
import { envHelp } from './help.js';
import { printOut } from './terminal.js';

type Direction = 'payin' | 'payout';

interface ConfirmFlags {
  method?: string;
}

export function registerConfirm(program: Command): void {
  program
    .command('confirm')
    .description(
      'Sandbox confirm: move a pending transaction to APPROVED, REJECTED or EXPIRED (fires its webhook).',
    )
    .argument('<ticket|reference>', "the service's ticket or your reference")
    .addArgument(new Argument('<status>', 'the final status').choices(SANDBOX_CONFIRM_STATUSES))
    .addOption(
      new Option(
        '--method <METHOD>',
        'the payment_method it was created with (default: found by trying the supported ones)',
      ),
    )
    .addHelpText(
      'after',
      `\n${envHelp}\nExamples:\n  payinout confirm order-1001 APPROVED\n  payinout confirm 6b85272a-… REJECTED --method BREB\n`,
    )
    .action((id: string, status: SandboxConfirmStatus, flags: ConfirmFlags) => runConfirm(id, status, flags));
}

async function runConfirm(id: string, status: SandboxConfirmStatus, flags: ConfirmFlags): Promise<void> {
  const client = clientFromEnv();
  const transaction = await client.transactions.get(id);
  const direction: Direction =
    String(transaction.type_transaction).toUpperCase() === 'PAYOUT' ? 'payout' : 'payin';
  const methods = flags.method
    ? [flags.method.toUpperCase()]
    : candidates(direction, transaction.currency, status);
  if (methods.length === 0) {
    throw new UsageError(
      `No ${direction === 'payin' ? 'PayIn' : 'PayOut'} method in ${transaction.currency} supports ${status} in sandbox confirm; see ${guide('testing.md', 'sandbox-confirm-supported-statuses')}.`,
    );
  }
  const confirm = direction === 'payin' ? client.sandbox.confirmPayIn : client.sandbox.confirmPayOut;
  for (const [index, method] of methods.entries()) {
    try {
      const result = await confirm.call(client.sandbox, {
        transaction_id: transaction.ticket,
        payment_method: method,
        status,
      });
      const kind = direction === 'payin' ? 'PayIn' : 'PayOut';
      printOut(
        `${transaction.reference} (ticket ${transaction.ticket}, ${kind} ${method}) → ${result.status}\n`,
      );
      return;
    } catch (error) {
      const last = index === methods.length - 1;
      if (last || !aboutTheMethod(error)) throw error;
    }
  }
}

/** Methods of the table that support `status` in the country of `currency`. */
function candidates(direction: Direction, currency: string, status: string): string[] {
  const country = Object.values(COUNTRIES).find((c) => c.currency === currency);
  const allowed = direction === 'payin' ? country?.payinMethods : country?.payoutMethods;
  const table: Readonly<Record<string, readonly string[]>> = SANDBOX_CONFIRM_SUPPORT[direction];
  return Object.entries(table)
    .filter(([method, statuses]) => statuses.includes(status) && (allowed ?? [method]).includes(method))
    .map(([method]) => method);
}

/** A 422 that names payment_method: the guess was wrong, nothing changed, try the next one. */
function aboutTheMethod(error: unknown): boolean {
  return error instanceof UnprocessableEntityError && /payment_method/i.test(error.serviceMessage ?? '');
}
