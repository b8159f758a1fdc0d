/**
 * Bodies of the service that no SDK result carries, written once so the operations table
 * (src/api/) and the OpenAPI document can name them: the POST form of the transaction search
 * and the error bodies (guide "Errors").
 */
import * as z from 'zod/mini';
import { text } from './common.js';

// The error bodies are read by the OpenAPI document and the simulator only: `@__PURE__`, so a
// bundle of the client drops them (docs/performance.md, "Package → 0.4").

/** Body of the POST form of the transaction search (guide "GET /api/v1/transaction/{ticket}"). */
export const TransactionLookupBodySchema = z.object({
  /** The service ticket or the merchant reference; the same value as the path parameter. */
  ticket: text(),
});
/** What the POST form of the transaction search sends. */
export type TransactionLookupBody = z.input<typeof TransactionLookupBodySchema>;

/**
 * An error answer in the envelope form: code '00', status 'ERROR', an `error` identifier and a
 * human message (guide "Errors": the 422 body example). The guide does not show the error bodies of
 * the other endpoints; the SDK reads them the same way (node_modules/payinout/docs/spec-gaps.md or https://github.com/payinout/payinout/blob/main/docs/spec-gaps.md).
 */
export const ErrorBodySchema = /* @__PURE__ */ z.looseObject({
  /** '00': validation error or processing failure. */
  code: z.optional(z.string()),
  /** 'ERROR'. */
  status: z.optional(z.string()),
  /** Error identifier, e.g. VALIDATION_ERROR, ALREADY_FINAL. */
  error: z.optional(z.string()),
  /** Human-readable text. */
  message: z.optional(z.string()),
});
/** An error answer of the service. */
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** Sandbox confirm 404: "The body holds only error" (guide "Errors"). */
export const NotFoundBodySchema = /* @__PURE__ */ z.looseObject({
  /** 'NOT_FOUND'. */
  error: z.literal('NOT_FOUND'),
});
