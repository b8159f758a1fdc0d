/**
 * What the service answers about PayIns: the creation result with its payment_information (spec
 * "PayIn creation result"), and the PSE bank list (GET /api/v1/pse/banks). The requests are in
 * payin.ts.
 */
import * as z from 'zod/mini';
import { CURRENCY_CODES } from './catalog.js';
import { stringish } from './common.js';
import { responseSchema, type SchemaKit } from './kit.js';

/**
 * What a field of payment_information is read as: a string (a number becomes its decimal string).
 * The spec does not show these fields, so the tolerant read keeps any other value as it came
 * rather than fail a PayIn that was created; strictResponses reports it.
 */
const infoText = (strict: boolean) =>
  z.optional(
    strict
      ? stringish()
      : (z.pipe(
          z.unknown(),
          z.transform((v) => (typeof v === 'number' ? String(v) : v)),
        ) as unknown as z.ZodMiniType<string>),
  );

/**
 * payment_information of a Direct or Hybrid PayIn: what the customer needs to pay. The spec does
 * not show its fields (node_modules/payinout/docs/spec-gaps.md or https://github.com/payinout/payinout/blob/main/docs/spec-gaps.md); these are the ones the SDK and its simulator know, all
 * optional. Keys not listed here are kept and readable (`info['other_key']`).
 */
export const PaymentInformationSchema = responseSchema((k) =>
  k.openObject({
    /** BREB, BREB_QR: the Bre-B key the customer pays to (also a sandbox confirm transaction_id). */
    breb_key: infoText(k.strict),
    /** BREB_QR, QR: the QR payload to render for the customer's banking app. */
    qr_code: infoText(k.strict),
    /** QR (Peru): the QR's identifier (also a sandbox confirm transaction_id). */
    qr_id: infoText(k.strict),
    /** EFECTY, PAGOEFECTIVO, CASH: the cash payment reference (CIP for PagoEfectivo) the customer quotes. */
    payment_reference: infoText(k.strict),
    /** EFECTY, PAGOEFECTIVO: the agreement (convenio) the reference belongs to. */
    agreement: infoText(k.strict),
    /** SPEI: the 18-digit CLABE the customer transfers to (also a sandbox confirm transaction_id). */
    clabe: infoText(k.strict),
    /** SPEI: the receiving bank; PSE direct: the bank code that was sent. */
    bank: infoText(k.strict),
    /** PSE direct: the bank's name. */
    bank_name: infoText(k.strict),
    /** SPEI: the beneficiary name the customer's bank shows. */
    beneficiary: infoText(k.strict),
    /** PSE: the CUS, PSE's own transaction number. */
    cus: infoText(k.strict),
    /** PSE direct: NATURAL or JURIDICA, as sent. */
    person_type: infoText(k.strict),
    /** NEQUI_PUSH: the phone the push notification went to. */
    phone_number: infoText(k.strict),
    /** NEQUI_PUSH: whether the push notification was sent. */
    push_sent: z.optional(k.strict ? z.boolean() : (z.unknown() as z.ZodMiniType<boolean>)),
    /** Amount to pay, as the provider states it. */
    amount: z.optional(k.amount),
    /** Currency of that amount. */
    currency: infoText(k.strict),
    /** When the payment data stops working ('YYYY-MM-DD HH:MM:SS'). */
    expires_at: infoText(k.strict),
  }),
);
/** payment_information of a PayIn (see {@link PaymentInformationSchema}). */
export type PaymentInformation = z.infer<typeof PaymentInformationSchema.tolerant>;

function payInCreated(k: SchemaKit) {
  return k.object({
    /** The service's identifier of the PayIn (use it with `client.transactions.get()`). */
    ticket: z.string(),
    /** Creation time, 'YYYY-MM-DD HH:MM:SS'. */
    date: z.string(),
    /** Hosted checkout URL (Checkout or Hybrid methods): send the customer there. */
    payment_url: z.optional(z.string()),
    /** Provider payment data (Direct or Hybrid methods): Bre-B key, cash reference, CLABE, QR… */
    payment_information: z.optional(k.nested(PaymentInformationSchema)),
    /** The PayIn as the service recorded it. */
    transaction: k.object({
      /** Your reference, echoed. */
      reference: z.string(),
      /** The amount, echoed. */
      amount: k.amount,
      /** The currency, echoed. */
      currency: k.oneOf(CURRENCY_CODES),
      /** The payment method, echoed. */
      payment_method: z.string(),
      /** Echoed when sent. */
      redirect_url: z.optional(z.string()),
      /** Echoed when sent. */
      ipn_url: z.optional(z.string()),
      /** Echoed by v2 (v1 has no description). */
      description: z.optional(z.string()),
    }),
  });
}

/** data of a PayIn creation (spec "PayIn creation result"). */
export const PayInCreatedSchema = responseSchema(payInCreated);
/** The result of a PayIn creation: `ticket`, `date`, `payment_url?`, `payment_information?`, `transaction`. */
export type PayInCreated = z.infer<typeof PayInCreatedSchema.tolerant>;

/**
 * One PSE bank. The spec does not show the response of GET /api/v1/pse/banks; the SDK
 * reads `code`/`name` and the aliases listed in node_modules/payinout/docs/spec-gaps.md or https://github.com/payinout/payinout/blob/main/docs/spec-gaps.md, and keeps every key.
 */
export const PseBankSchema = responseSchema((k) =>
  z.pipe(
    z.transform((raw: unknown) => {
      if (raw === null || typeof raw !== 'object') return raw;
      const bank = raw as Record<string, unknown>;
      const code =
        bank.code ?? bank.bank_code ?? bank.financial_institution_code ?? bank.financialInstitutionCode;
      const name =
        bank.name ?? bank.bank_name ?? bank.financial_institution_name ?? bank.financialInstitutionName;
      return { ...bank, code: code === undefined ? code : String(code), name };
    }),
    k.object({ code: z.string(), name: z.string() }),
  ),
);
/** One bank of `client.payin.listPseBanks()`: `code` (for `customer_data.bank`) and `name`. */
export type PseBank = z.infer<typeof PseBankSchema.tolerant>;

/** The list may come as the envelope's data array or under a key of it (not shown by the spec). */
export const PseBankListSchema = responseSchema((k) =>
  z.pipe(
    z.transform((raw: unknown) => {
      if (Array.isArray(raw) || raw === null || typeof raw !== 'object') return raw;
      const record = raw as Record<string, unknown>;
      return record.banks ?? record.data ?? record.items ?? raw;
    }),
    z.array(k.nested(PseBankSchema)),
  ),
);
