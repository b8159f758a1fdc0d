/**
 * The webhook payload (spec "Events", payload fields). The spec does not show the field
 * names inside top_user and top_card; the ones here come from the issue (#3) and are all
 * optional. The schema is tolerant: unknown keys are kept, an unknown top_status is kept
 * as a string, and top_amount may arrive as a number or a numeric string.
 */
import * as z from 'zod';
import { TRANSACTION_STATUSES } from './catalog.js';
import { stringish } from './common.js';
import { responseSchema } from './kit.js';

/** Customer details (PII: legal_doc, email, phone_number, full_name are redacted in logs). */
const userSchemas = responseSchema((k) =>
  k.object({
    legal_doc_type: z.string().nullish(),
    legal_doc: stringish().nullish(),
    phone_code: stringish().nullish(),
    phone_number: stringish().nullish(),
    email: z.string().nullish(),
    full_name: z.string().nullish(),
  }),
);

/** Card details for card payments: bin, last four digits, brand, type, issuing bank. */
const cardSchemas = responseSchema((k) =>
  k.object({
    bank: z.string().nullish(),
    bin: stringish().nullish(),
    country: z.string().nullish(),
    lastFourDigits: stringish().nullish(),
    type: z.string().nullish(),
    brand: z.string().nullish(),
  }),
);

const eventSchemas = responseSchema((k) =>
  k.object({
    top_status: k.oneOf(TRANSACTION_STATUSES),
    // Ticket and reference feed the signature and the dedupe key, so they are required.
    top_ticket: stringish().pipe(z.string().min(1)),
    top_reference: stringish().pipe(z.string().min(1)),
    top_amount: k.amount.nullish(),
    top_currency: z.string().nullish(),
    top_payment_method: z.string().nullish(),
    top_bank_name: z.string().nullish(),
    top_response_message: z.string().nullish(),
    top_user: userSchemas.tolerant.nullish(),
    top_card: cardSchemas.tolerant.nullish(),
  }),
);

export const WebhookUserSchema = userSchemas.tolerant;
export const WebhookCardSchema = cardSchemas.tolerant;
/** A verified webhook event, as `verifyWebhook` returns it. Use `.parse()` on trusted data only. */
export const WebhookEventSchema = eventSchemas.tolerant;

export type WebhookUser = z.infer<typeof WebhookUserSchema>;
export type WebhookCard = z.infer<typeof WebhookCardSchema>;
export type WebhookEvent = z.infer<typeof WebhookEventSchema>;
/** What `buildWebhookDelivery` accepts: the payload before parsing (amount may be a string). */
export type WebhookEventInput = z.input<typeof WebhookEventSchema>;
