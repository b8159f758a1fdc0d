/**
 * The webhook payload (spec "Events", payload fields). The spec does not show the field
 * names inside top_user and top_card; the ones here come from the issue (#3) and are all
 * optional. The schema is tolerant: unknown keys are kept, an unknown top_status is kept
 * as a string, and top_amount may arrive as a number or a numeric string.
 */
import * as z from 'zod/mini';
import { TRANSACTION_STATUSES } from './catalog.js';
import { CustomerRecordSchema, stringish } from './common.js';
import { responseSchema } from './kit.js';

/** Customer details (PII: legal_doc, email, phone_number, full_name are redacted in logs). */
const userSchemas = CustomerRecordSchema;

/** Card details for card payments: bin, last four digits, brand, type, issuing bank. */
const cardSchemas = responseSchema((k) =>
  k.object({
    bank: z.nullish(z.string()),
    bin: z.nullish(stringish()),
    country: z.nullish(z.string()),
    lastFourDigits: z.nullish(stringish()),
    type: z.nullish(z.string()),
    brand: z.nullish(z.string()),
  }),
);

const eventSchemas = responseSchema((k) =>
  k.object({
    top_status: k.oneOf(TRANSACTION_STATUSES),
    // Ticket and reference feed the signature and the dedupe key, so they are required.
    top_ticket: z.pipe(stringish(), z.string().check(z.minLength(1))),
    top_reference: z.pipe(stringish(), z.string().check(z.minLength(1))),
    top_amount: z.nullish(k.amount),
    top_currency: z.nullish(z.string()),
    top_payment_method: z.nullish(z.string()),
    top_bank_name: z.nullish(z.string()),
    top_response_message: z.nullish(z.string()),
    top_user: z.nullish(userSchemas.tolerant),
    top_card: z.nullish(cardSchemas.tolerant),
  }),
);

/** The `top_user` object of a webhook. */
export const WebhookUserSchema = userSchemas.tolerant;
/** The `top_card` object of a card-payment webhook. */
export const WebhookCardSchema = cardSchemas.tolerant;
/** A verified webhook event, as `verifyWebhook` returns it. Use `.parse()` on trusted data only. */
export const WebhookEventSchema = eventSchemas.tolerant;

/** A webhook's `top_user`. */
export type WebhookUser = z.infer<typeof WebhookUserSchema>;
/** A webhook's `top_card`. */
export type WebhookCard = z.infer<typeof WebhookCardSchema>;
/** A verified webhook event, as `verifyWebhook()` and `createWebhookHandler()` give it. */
export type WebhookEvent = z.infer<typeof WebhookEventSchema>;
/** What `buildWebhookDelivery` accepts: the payload before parsing (amount may be a string). */
export type WebhookEventInput = z.input<typeof WebhookEventSchema>;
