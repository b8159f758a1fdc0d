/**
 * `payinout confirm <ticket|reference> <APPROVED|REJECTED|EXPIRED>`: sandbox confirm against
 * the PAYINOUT_* environment. Sandbox confirm needs the transaction's payment_method. The command
 * looks the transaction up first and confirms with its own method when the answer shows one (the
 * simulator's does; the guide's field list does not name it): a method sandbox confirm cannot
 * drive is refused with what the sandbox supports for it, exactly as `--method` would be. Only
 * when the lookup shows no method does it try the methods the supported-status table allows for
 * the transaction's country and direction, in order; a refusal that is not about the method stops
 * it at once, and when no guess was the method it says so instead of showing the last refusal.
 */
import { Argument, type Command, Option } from 'commander';
import { UnprocessableEntityError } from '../core/errors.js';
import { guide } from '../core/guides.js';
import type { PaymentClient } from '../node/client.js';
import {
  COUNTRIES,
  SANDBOX_CONFIRM_STATUSES,
  SANDBOX_CONFIRM_SUPPORT,
  SANDBOX_CONFIRM_UNSUPPORTED_PAYIN,
  type SandboxConfirmStatus,
} from '../schemas/catalog.js';
import type { Transaction } from '../schemas/transaction.js';
import { clientFromEnv } from './client.js';
import { UsageError } from './errors.js';
import { envHelp } from './help.js';
import { printOut } from './terminal.js';

type Direction = 'payin' | 'payout';

interface ConfirmFlags {
  method?: string;
}

interface Target {
  client: PaymentClient;
  transaction: Transaction;
  direction: Direction;
  status: SandboxConfirmStatus;
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
        'the payment_method it was created with (default: the one its lookup shows, else found by trying the supported ones)',
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
  const target = { client, transaction, direction, status };
  const method = flags.method?.toUpperCase() ?? ownMethod(transaction);
  if (method) return confirmWith(target, method);
  return confirmByTrying(target);
}

/** The payment_method the lookup answer shows, if it shows one. */
function ownMethod(transaction: Transaction): string | undefined {
  const method = transaction.payment_method;
  return method ? method.toUpperCase() : undefined;
}

/** One confirm; the client refuses a status the method does not support before sending. */
async function confirmWith(
  { client, transaction, direction, status }: Target,
  method: string,
): Promise<void> {
  const params = { transaction_id: transaction.ticket, payment_method: method, status };
  const result =
    direction === 'payin'
      ? await client.sandbox.confirmPayIn(params)
      : await client.sandbox.confirmPayOut(params);
  const kind = direction === 'payin' ? 'PayIn' : 'PayOut';
  printOut(`${transaction.reference} (ticket ${transaction.ticket}, ${kind} ${method}) → ${result.status}\n`);
}

/** The lookup shows no method: each supported one in turn; a wrong method changes nothing. */
async function confirmByTrying(target: Target): Promise<void> {
  const { transaction, direction, status } = target;
  const methods = candidates(direction, transaction.currency, status);
  const kind = direction === 'payin' ? 'PayIn' : 'PayOut';
  const table = guide('testing.md', 'sandbox-confirm-supported-statuses');
  if (methods.length === 0) {
    throw new UsageError(
      `No ${kind} method in ${transaction.currency} supports ${status} in sandbox confirm; see ${table}.`,
    );
  }
  for (const method of methods) {
    try {
      return await confirmWith(target, method);
    } catch (error) {
      if (!aboutTheMethod(error)) throw error;
    }
  }
  const outside = direction === 'payin' ? Object.keys(SANDBOX_CONFIRM_UNSUPPORTED_PAYIN).join(', ') : '';
  throw new UsageError(
    `${transaction.reference} was not confirmed (nothing changed): its lookup does not show its payment_method, and it was created with none of ${methods.join(', ')}, the ${kind} methods in ${transaction.currency} that support ${status}. ` +
      `${outside ? `If it is ${outside}, sandbox confirm cannot drive it. ` : ''}Otherwise pass --method METHOD; see ${table}.`,
  );
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
