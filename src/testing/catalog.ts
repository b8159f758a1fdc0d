/**
 * What the simulator invents where the spec says "Not shown": bank catalogs, how each PayIn
 * method answers (Checkout, Direct or Hybrid) and the external references it hands out.
 * Every choice is listed in node_modules/payinout/docs/simulator.md or https://github.com/payinout/payinout/blob/main/docs/simulator.md.
 */
import { randomInt } from 'node:crypto';
import { type CountryCode, isValidClabe } from '../schemas/catalog.js';

/** GET /api/v1/pse/banks. "Banka" is the sandbox bank the spec names for PSE tests. */
export const SANDBOX_PSE_BANKS: readonly { code: string; name: string }[] = [
  { code: '1077', name: 'Banka' },
  { code: '1007', name: 'Bancolombia' },
  { code: '1051', name: 'Davivienda' },
  { code: '1001', name: 'Banco de Bogota' },
  { code: '1023', name: 'Banco de Occidente' },
  { code: '1507', name: 'Nequi' },
];
/** The sandbox PSE bank, `{ code: '1077', name: 'Banka' }`: PSE PayIns with it complete by themselves. */
export const SANDBOX_PSE_BANK = SANDBOX_PSE_BANKS[0]!;

/**
 * The PSE test e-mail: in staging a designated address approves and any other rejects
 * (guide "customer_data (PayIn request)"); the address is not shown, so the simulator picks one.
 */
export const SANDBOX_PSE_APPROVED_EMAIL = 'approved@sandbox.payinout.dev';

/**
 * PayOut destination banks the simulator knows. Peru enforces its catalog at creation
 * (guide "POST /api/v1/payout (create PayOut)"); other countries accept any uppercase identifier.
 */
export const SANDBOX_PAYOUT_BANKS: { readonly [C in CountryCode]?: readonly string[] } = {
  PE: ['BCP', 'INTERBANK', 'BBVA', 'SCOTIABANK', 'BANBIF', 'PICHINCHA', 'YAPE', 'PLIN'],
  CO: ['BANCOLOMBIA', 'DAVIVIENDA', 'BANCO_DE_BOGOTA', 'BBVA_COLOMBIA', 'NEQUI', 'DAVIPLATA'],
  MX: ['STP', 'BBVA_MEXICO', 'BANORTE', 'SANTANDER', 'BANAMEX'],
};

/** Mode of a PayIn method: which of payment_url / payment_information it answers with. */
export type PayInMode = 'checkout' | 'direct' | 'hybrid';

const MODES: Readonly<Record<string, PayInMode>> = {
  BREB: 'direct',
  NEQUI_PUSH: 'direct',
  SPEI: 'direct',
  BREB_QR: 'hybrid',
  EFECTY: 'hybrid',
  QR: 'hybrid',
  PAGOEFECTIVO: 'hybrid',
};

/** PSE with bank + person_type is "PSE direct" (guide "customer_data (PayIn request)"); everything unlisted is Checkout. */
export function payInMode(method: string, pseDirect: boolean): PayInMode {
  if (method === 'PSE') return pseDirect ? 'hybrid' : 'checkout';
  return MODES[method] ?? 'checkout';
}

const digits = (n: number) => {
  let out = '';
  for (let i = 0; i < n; i++) out += String(randomInt(10));
  return out;
};

/** A CLABE with a valid check digit, found with the SDK's own isValidClabe (no second implementation). */
export function generateClabe(bankPrefix = '646180'): string {
  const body = bankPrefix + digits(17 - bankPrefix.length);
  for (let check = 0; check < 10; check++) {
    if (isValidClabe(body + check)) return body + check;
  }
  throw new Error('unreachable: one check digit always fits');
}

export interface PaymentInformation {
  info: Record<string, unknown>;
  /** Values that work as sandbox confirm transaction_id (guide "POST /api/v1/sandbox/payin/confirm and POST /api/v1/sandbox/payout/confirm", "Prerequisites"). */
  externalIds: string[];
}

/** What a method's payment_information is built from. */
export interface PaymentInput {
  method: string;
  amount: number;
  currency: string;
  expiresAt: string;
  customer: { phone_number: string; bank?: string | undefined; person_type?: string | undefined };
  cus: string | undefined;
}

type Builder = (input: PaymentInput) => PaymentInformation;

const breb: Builder = ({ method, amount, currency, expiresAt }) => {
  const key = `@sbx${digits(10)}`;
  const info: Record<string, unknown> = { breb_key: key, amount, currency, expires_at: expiresAt };
  if (method === 'BREB_QR') info.qr_code = `000201010212BREB${key}5303170540${amount}6304SBX0`;
  return { info, externalIds: [key] };
};

const cash: Builder = ({ method, amount, currency, expiresAt }) => {
  const reference = (method === 'EFECTY' ? '' : 'CIP') + digits(10);
  const agreement = method === 'EFECTY' ? '110757' : 'PAGOEFECTIVO';
  return {
    info: { payment_reference: reference, agreement, amount, currency, expires_at: expiresAt },
    externalIds: [reference],
  };
};

const spei: Builder = ({ amount, currency, expiresAt }) => {
  const clabe = generateClabe();
  const info = {
    clabe,
    bank: 'STP',
    beneficiary: 'PAYINOUT SANDBOX',
    amount,
    currency,
    expires_at: expiresAt,
  };
  return { info, externalIds: [clabe] };
};

const qr: Builder = ({ amount, currency }) => {
  const qrId = `QR${digits(12)}`;
  return {
    info: { qr_id: qrId, qr_code: `0002010102125303604540${amount}${qrId}`, amount, currency },
    externalIds: [qrId],
  };
};

const BUILDERS: Readonly<Record<string, Builder>> = {
  BREB: breb,
  BREB_QR: breb,
  EFECTY: cash,
  PAGOEFECTIVO: cash,
  SPEI: spei,
  QR: qr,
  NEQUI_PUSH: ({ customer }) => ({
    info: { phone_number: customer.phone_number, push_sent: true },
    externalIds: [],
  }),
  PSE: ({ customer, cus }) => ({
    info: { bank: customer.bank, person_type: customer.person_type, cus },
    externalIds: cus ? [cus] : [],
  }),
};

/**
 * payment_information of a Direct/Hybrid PayIn; its fields are not shown by the guide
 * ("PayIn creation result"), so the simulator's are documented in node_modules/payinout/docs/simulator.md or https://github.com/payinout/payinout/blob/main/docs/simulator.md.
 */
export function paymentInformation(input: PaymentInput): PaymentInformation {
  return BUILDERS[input.method]?.(input) ?? { info: {}, externalIds: [] };
}

export function newCus(): string {
  return digits(10);
}

export function newTrackingId(): string {
  return `TRK${digits(12)}`;
}
