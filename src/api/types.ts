/**
 * The shape of one entry of the operations table (operations.ts). Pure types: nothing here
 * sends, parses or routes; the client's transport, the simulator's router and the OpenAPI
 * generator each read these fields for their own job.
 */
import type * as z from 'zod/mini';
import type { ApiErrorCode } from '../schemas/catalog.js';
import type { ResponseSchema } from '../schemas/kit.js';

/** The HTTP methods the service's guide uses. */
export type HttpMethod = 'GET' | 'POST';

/**
 * Which credentials an endpoint takes (guide "Authentication", rules 1–2):
 * - 'basic+token': HTTP Basic and the merchant token in Token-Top (every endpoint but one);
 * - 'token': Token-Top alone is enough, as the merchant profile example sends it; a Basic
 *   header that is present must still be right.
 */
export type AuthRule = 'basic+token' | 'token';

/** The two kinds of transaction; the values the search answer's `type_transaction` lists. */
export type TransactionKind = 'PAYIN' | 'PAYOUT';

/**
 * One field a looked-up transaction must share with what a caller claims about it (a create's
 * request, a webhook delivery) before the SDK calls it that transaction. Paths are dotted
 * (`customer_data.legal_doc`). The one rule that reads these rows is src/api/match.ts.
 */
export interface RecoveryMatch {
  /** Where the value is in the claim (the create request, the webhook delivery). */
  request: string;
  /** Where the same value is in the transaction search answer. */
  found: string;
  /**
   * 'id': trimmed, case kept (references, tickets); 'text': trimmed, any case (currencies,
   * methods, documents, statuses); 'amount': numerically (the answer may carry "150000.00").
   */
  compare: 'id' | 'text' | 'amount';
  /**
   * 'always': a missing value on either side is a mismatch; 'when-present': compared only when
   * the transaction shows it (the search answer's customer fields are optional); 'when-claimed':
   * compared only when the claim carries it (a delivery may leave `top_amount` out).
   */
  required: 'always' | 'when-present' | 'when-claimed';
}

/** What a looked-up transaction must show to be the one a claim describes. */
export interface MatchRule {
  /** The kind it must be, where its `type_transaction` says PAYIN or PAYOUT. */
  kind?: TransactionKind | undefined;
  match: readonly RecoveryMatch[];
}

/**
 * How to settle a create whose answer was lost (no idempotency key exists; the merchant
 * reference is unique per merchant and can be looked up: guide "Transaction (PayIn or PayOut)").
 * Data only: the executable strategy is src/api/recovery.ts.
 */
export interface RecoveryDescriptor extends MatchRule {
  /** The kind the looked-up transaction must be (its `type_transaction`, when it says). */
  kind: TransactionKind;
  /** The operation that looks the reference up. */
  lookup: 'transactions.get';
  /** The request field whose value is looked up (and that must come back unchanged). */
  key: 'reference';
  /** What the found transaction must share with the request to be this create. */
  match: readonly RecoveryMatch[];
  /**
   * Request fields the create answer echoes in `data.transaction` (guide "PayIn creation result",
   * "PayOut creation result"), beyond reference, amount and currency which the lookup carries.
   * A result rebuilt from a lookup copies these from the request.
   */
  echoed: readonly string[];
}

/** An error the guide documents for an endpoint (guide "Errors"). */
export interface DocumentedError {
  status: number;
  /** The envelope's `error` identifier. */
  error: ApiErrorCode;
  /** The body holds only `error` (sandbox confirm 404). */
  bare?: boolean;
}

/** A request body: its schema (params are exact) and a name for error messages ('PayIn'). */
export interface RequestBody {
  schema: z.ZodMiniType;
  name: string;
}

/** One endpoint of the service, as the guide describes it. */
export interface Operation {
  /** Stable id, the SDK method it backs: 'payin.create'. Also the OpenAPI operationId. */
  id: string;
  method: HttpMethod;
  /** OpenAPI-style template, leading slash: '/api/v1/transaction/{ticket}'. */
  template: string;
  /** Names of the `{…}` segments of `template`, in order. */
  pathParams: readonly string[];
  /** The JSON body and a human name for error messages ('PayIn'); undefined for a bodyless call. */
  request: RequestBody | undefined;
  /** The envelope's `data`, tolerant and strict. */
  response: ResponseSchema;
  /**
   * 'single': data is one value. 'single-or-list': the guide calls data an array but its samples
   * show one object (guide "GET /api/v1/transaction/{ticket} (search transaction)"): either may come, the SDK returns one.
   */
  data: 'single' | 'single-or-list';
  /** Whether the call may be sent again as it is: reads, and sandbox confirm (idempotent by the guide). */
  safeToResend: boolean;
  auth: AuthRule;
  /** Staging and UAT only; production answers 404 (guide "What the service does", "Environments"). */
  sandboxOnly: boolean;
  deprecated: boolean;
  /** Creates only: how a lost answer is settled by reference. */
  recovery: RecoveryDescriptor | undefined;
}
