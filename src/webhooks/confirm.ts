/**
 * Webhook status confirmed by lookup. The signature covers the token, ticket and reference only
 * (spec "Events", rule 1), so a captured delivery can be replayed with another `top_status` or
 * `top_amount`. With `confirmWith`, the handler looks the transaction up by its (signed) ticket
 * and hands the delivery to onEvent only when the service's own record shows what it claims.
 */
import { type Finding, find } from '../api/find.js';
import { DELIVERY_RULE } from '../api/operations.js';
import { withDeadline } from '../core/deadline.js';
import { PayinoutError } from '../core/errors.js';
import type { Transaction } from '../schemas/transaction.js';
import type { WebhookEvent } from '../schemas/webhook.js';

/**
 * What `confirmWith` needs: a `PaymentClient`, or anything with its `transactions.get`.
 * Typed structurally so the webhook code never depends on the client.
 */
export interface TransactionLookup {
  transactions: {
    /** `client.transactions.get`: the transaction with this ticket or reference, or a rejection. */
    get(
      ticketOrReference: string,
      options?: { signal?: AbortSignal; timeoutMs?: number },
    ): Promise<Transaction>;
  };
}

/** A delivery the lookup does not back: answered 409 and not handed to onEvent. */
export class WebhookNotConfirmedError extends PayinoutError {
  override name = 'WebhookNotConfirmedError';
  /** The delivery's (signed) ticket. */
  readonly ticket: string;
  /** Fields whose delivered value the lookup does not show, e.g. ['top_status']. */
  readonly mismatched: string[];
  /** The status the delivery claimed and the one the lookup shows (undefined when not found). */
  readonly deliveredStatus: string;
  readonly confirmedStatus: string | undefined;
  constructor(event: WebhookEvent, mismatched: string[], transaction: Transaction | undefined) {
    super(
      `Webhook for ticket ${event.top_ticket} not confirmed: the lookup does not show its ${mismatched.join(', ')}${
        transaction
          ? ` (lookup status ${String(transaction.status)}, delivered ${String(event.top_status)})`
          : ''
      }. Answered 409 without calling onEvent; a genuine delivery passes on a later retry.`,
    );
    this.ticket = event.top_ticket;
    this.mismatched = mismatched;
    this.deliveredStatus = String(event.top_status);
    this.confirmedStatus = transaction ? String(transaction.status) : undefined;
  }
}

/** The lookup could not be made (network, timeout, service error): answered 503, retried later. */
export class WebhookConfirmationUnavailableError extends PayinoutError {
  override name = 'WebhookConfirmationUnavailableError';
  readonly ticket: string;
  constructor(ticket: string, cause: unknown) {
    super(
      `The lookup confirming the webhook for ticket ${ticket} failed (${describe(cause)}): answered 503, the service will retry.`,
      { cause },
    );
    this.ticket = ticket;
  }
}

/**
 * The SDK's own errors are redacted when built; any other error (a custom lookup's) may carry
 * customer data in its message, so only its class name is repeated.
 */
function describe(cause: unknown): string {
  if (cause instanceof PayinoutError) return cause.message;
  return cause instanceof Error ? `${cause.name} (see error.cause)` : 'unknown failure';
}

export type Confirmation =
  | { confirmed: true; transaction: Transaction }
  | { confirmed: false; error: WebhookNotConfirmedError | WebhookConfirmationUnavailableError };

/**
 * Looks the event's ticket up (within `timeoutMs`) and decides by the one `find` (api/find.ts) and
 * the rows of `DELIVERY_RULE` (src/api/operations.ts) whether the record shows the delivery.
 * Fields a delivery leaves out are not compared. A lookup that could not be made — it failed, ran
 * out of time, showed several transactions, or resolved no transaction at all — is a 503.
 */
export async function confirmEvent(
  lookup: TransactionLookup,
  event: WebhookEvent,
  timeoutMs: number,
): Promise<Confirmation> {
  const abort = new AbortController();
  const request = () =>
    withDeadline(
      Promise.resolve(lookup.transactions.get(event.top_ticket, { signal: abort.signal, timeoutMs })),
      timeoutMs,
      () => {
        abort.abort();
        return new PayinoutError(`no answer within confirmTimeoutMs (${timeoutMs} ms).`);
      },
    );
  let finding: Finding;
  try {
    finding = await find(request, event, DELIVERY_RULE);
  } catch (error) {
    return unavailable(event, error);
  }
  if (finding.kind === 'found') return { confirmed: true, transaction: finding.transaction };
  if (finding.kind === 'absent') {
    return { confirmed: false, error: new WebhookNotConfirmedError(event, ['top_ticket'], undefined) };
  }
  if (finding.cause || !finding.transaction) return unavailable(event, finding.cause);
  const mismatched = finding.mismatches.map((m) => m.field);
  return { confirmed: false, error: new WebhookNotConfirmedError(event, mismatched, finding.transaction) };
}

function unavailable(event: WebhookEvent, cause: unknown): Confirmation {
  return { confirmed: false, error: new WebhookConfirmationUnavailableError(event.top_ticket, cause) };
}
