/**
 * An independent fake of the service, written from the interface guide alone: nothing here comes
 * from payinout's schemas, catalog or simulator, so the document is checked against answers the
 * SDK's own code did not shape. Where the guide says "Not shown" (document types of MX, GT and HN;
 * methods and account types of GT and HN; the fields of top_user and top_card) it answers with
 * values a real deployment could plausibly send, and numbers where the guide's sample has them.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** Per country: the guide's "Country reference" row, "Not shown" cells filled with plausible values. */
export const FAKE_COUNTRIES = {
  CO: {
    currency: 'COP',
    payin: 'PSE',
    payout: 'BREB',
    document: 'NIT',
    account: 'CORRIENTE',
    amount: 75_000,
  },
  PE: {
    currency: 'PEN',
    payin: 'PAGOEFECTIVO',
    payout: 'BANK_TRANSFER',
    document: 'RUC',
    account: 'WALLET',
    amount: 120,
  },
  MX: { currency: 'MXN', payin: 'SPEI', payout: 'SPEI', document: 'CURP', account: 'CLABE', amount: 850.5 },
  GT: {
    currency: 'GTQ',
    payin: 'DEPOSITO_BANCARIO',
    payout: 'ACH',
    document: 'DPI',
    account: 'MONETARIA',
    amount: 300,
  },
  HN: {
    currency: 'HNL',
    payin: 'TIGO_MONEY',
    payout: 'ACH',
    document: 'RTN',
    account: 'CHEQUES',
    amount: 950,
  },
} as const;
export type FakeCountry = keyof typeof FAKE_COUNTRIES;

interface Stored {
  ticket: string;
  reference: string;
  kind: 'PAYIN' | 'PAYOUT';
  country: FakeCountry;
  method: string;
  status: string;
}

const DATE = '2026-11-24 10:15:00';
const ok = (data: unknown, message = 'OK') => ({ code: '01', status: 'SUCCESS', message, data });

export interface FakeService {
  url: string;
  /** The webhook body the fake sends when `ticket` reaches `status` (guide "Events"). */
  webhookFor(ticket: string, status: string): Record<string, unknown>;
  close(): Promise<void>;
}

export async function startFakeService(): Promise<FakeService> {
  const stored = new Map<string, Stored>();
  let next = 0;
  const customer = (s: Stored) => ({
    legal_doc_type: FAKE_COUNTRIES[s.country].document,
    // The guide's sample shows legal_doc and phone_number as numbers.
    legal_doc: 80012345,
    phone_code: '502',
    phone_number: 55123456,
    email: 'cliente@example.com',
    full_name: 'María López',
  });
  const transaction = (s: Stored) => ({
    ticket: s.ticket,
    reference: s.reference,
    amount: FAKE_COUNTRIES[s.country].amount,
    currency: FAKE_COUNTRIES[s.country].currency,
    type_transaction: s.kind,
    customer: customer(s),
    status: s.status,
    response_message: 'Transacción en proceso',
    date: DATE,
    cus: '7781234',
    metadata: [],
  });
  const create = (kind: Stored['kind'], body: Record<string, unknown>) => {
    const country = String(body.country) as FakeCountry;
    const s: Stored = {
      ticket: `FK-${++next}`,
      reference: String(body.reference),
      kind,
      country,
      method: String(body.payment_method),
      status: kind === 'PAYIN' ? 'CREATED' : 'PENDING',
    };
    stored.set(s.ticket, s);
    const echoed = {
      reference: s.reference,
      amount: body.amount,
      currency: body.currency,
      payment_method: s.method,
    };
    const payin = {
      payment_url: `https://checkout.example/${s.ticket}`,
      payment_information: { bank_reference: 'X1' },
    };
    return ok({ ticket: s.ticket, date: DATE, ...(kind === 'PAYIN' ? payin : {}), transaction: echoed });
  };
  const route = (method: string, path: string, body: Record<string, unknown>): [number, unknown] => {
    if (method === 'POST' && path === '/api/v2/payin') return [200, create('PAYIN', body)];
    if (method === 'POST' && path === '/api/v1/payout') return [200, create('PAYOUT', body)];
    const lookup = /^\/api\/v1\/transaction\/([^/]+)$/.exec(path);
    if (lookup) {
      const s = stored.get(decodeURIComponent(lookup[1]!));
      if (!s)
        return [404, { code: '00', status: 'ERROR', message: 'Transaction not found', error: 'NOT_FOUND' }];
      return [200, ok(transaction(s), '')];
    }
    return [404, { code: '00', status: 'ERROR', message: 'Not found' }];
  };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8').on('data', (chunk: string) => {
      raw += chunk;
    });
    req.on('end', () => {
      const [status, answer] = route(
        req.method ?? 'GET',
        (req.url ?? '/').split('?')[0]!,
        raw ? JSON.parse(raw) : {},
      );
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    webhookFor(ticket, status) {
      const s = stored.get(ticket)!;
      s.status = status;
      const { country } = s;
      return {
        top_status: status,
        top_ticket: s.ticket,
        top_reference: s.reference,
        top_amount: String(FAKE_COUNTRIES[country].amount),
        top_currency: FAKE_COUNTRIES[country].currency,
        top_payment_method: s.method,
        top_bank_name: 'Banco Industrial',
        top_response_message: 'Aprobada',
        top_user: customer(s),
        top_card: {
          bin: 411111,
          lastFourDigits: '1111',
          brand: 'VISA',
          type: 'CREDIT',
          bank: 'Banco Industrial',
        },
      };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
