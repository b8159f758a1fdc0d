/**
 * The one supported-status rule of sandbox confirm (guide "POST /api/v1/sandbox/payin/confirm and
 * POST /api/v1/sandbox/payout/confirm", "Supported statuses" and "Prerequisites", item 5). The
 * client checks it before sending; the simulator answers 422 STATUS_NOT_SUPPORTED by it. Both call
 * `sandboxConfirmSupport`, so they cannot disagree.
 */
import {
  COUNTRIES,
  type CountryCode,
  SANDBOX_CONFIRM_SUPPORT,
  SANDBOX_CONFIRM_UNSUPPORTED_PAYIN,
} from '../schemas/catalog.js';

/** Which confirm endpoint: the PayIn one or the PayOut one. */
export type ConfirmDirection = 'payin' | 'payout';

export interface ConfirmSupportQuery {
  direction: ConfirmDirection;
  payment_method: string;
  status: string;
  /** The transaction's country, when known (the simulator knows it; the client does not). */
  country?: CountryCode | undefined;
}

/**
 * - 'supported': a row of the guide's tables says yes;
 * - 'unsupported': a row says no, or the guide says the method is not driven by sandbox confirm;
 * - 'unlisted': no row names this method (in this country): the guide is silent. The client
 *   leaves it to the service; the simulator, playing the service, refuses it.
 */
export type ConfirmSupport =
  | { verdict: 'supported' }
  | { verdict: 'unsupported' | 'unlisted'; reason: string; supported: readonly string[] };

export function sandboxConfirmSupport(query: ConfirmSupportQuery): ConfirmSupport {
  const { direction, payment_method: method, status, country } = query;
  const kind = direction === 'payin' ? 'PayIn' : 'PayOut';
  const outside = direction === 'payin' ? SANDBOX_CONFIRM_UNSUPPORTED_PAYIN[method] : undefined;
  if (outside) {
    return {
      verdict: 'unsupported',
      supported: [],
      reason: `${method} cannot be driven by sandbox confirm: ${outside}`,
    };
  }
  const rows: Readonly<Record<string, readonly string[]>> = SANDBOX_CONFIRM_SUPPORT[direction];
  const row = inCountry(direction, method, country) ? rows[method] : undefined;
  if (!row) {
    const where = country ? ` in ${country}` : '';
    return {
      verdict: 'unlisted',
      supported: [],
      reason: `the guide's supported-status table lists no ${kind} row for ${method}${where}`,
    };
  }
  if (row.includes(status)) return { verdict: 'supported' };
  return {
    verdict: 'unsupported',
    supported: row,
    reason: `${method} ${kind} supports ${row.join(', ')} in sandbox confirm, not ${status}`,
  };
}

/**
 * The statuses sandbox confirm can set for this method (in this country): its row of the guide's
 * tables, or undefined when no row names it or the guide says it is not driven by sandbox confirm.
 * What a UI offers as buttons; `sandboxConfirmSupport` says why a status is refused.
 */
export function confirmableStatuses(
  query: Omit<ConfirmSupportQuery, 'status'>,
): readonly string[] | undefined {
  const { direction, payment_method: method, country } = query;
  if (direction === 'payin' && SANDBOX_CONFIRM_UNSUPPORTED_PAYIN[method]) return undefined;
  const rows: Readonly<Record<string, readonly string[]>> = SANDBOX_CONFIRM_SUPPORT[direction];
  return inCountry(direction, method, country) ? rows[method] : undefined;
}

/** The tables' rows name a country; a method outside that country's list has no row there. */
function inCountry(direction: ConfirmDirection, method: string, country: CountryCode | undefined): boolean {
  if (country === undefined) return true;
  const info = COUNTRIES[country];
  const methods = direction === 'payin' ? info.payinMethods : info.payoutMethods;
  return methods?.includes(method) ?? false;
}
