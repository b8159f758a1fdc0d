/**
 * Correct usage that must compile cleanly, for every country: compiled by `npm run typecheck` against
 * src/ and by scripts/check-types.mjs against the packed package (node16/bundler, ESM/CJS, with and
 * without msw). Nothing here runs; these are type tests.
 */
import {
  ApiError,
  COUNTRIES,
  type CountryCode,
  type CurrencyCode,
  catalog,
  createWebhookHandler,
  type FinalStatus,
  isFinalStatus,
  type PayInCreated,
  type PayInCreateParams,
  type PayInCreateParamsFor,
  type PayInCustomerData,
  type PayInLegacyCreateParams,
  PaymentClient,
  type PayOutCreateParams,
  type PayOutCreateParamsFor,
  type PayOutCustomerData,
  type SandboxConfirmParams,
  schemas,
  type Transaction,
  type TransactionLookupResult,
  type TransactionStatus,
  type WebhookEvent,
  webhooks,
} from 'payinout';
import { createSandbox, startSandboxServer } from 'payinout/testing';

const client = new PaymentClient({
  username: 'u',
  password: 'p',
  token: 't',
  baseUrl: 'https://staging.example',
  environment: 'staging',
});

const customer = {
  legal_doc: '1020304050',
  legal_doc_type: 'CC',
  phone_code: '57',
  phone_number: '3001234567',
  email: 'ana@example.com',
  full_name: 'Ana Gómez',
} satisfies PayInCustomerData<'CO'>;
const customerCO: PayInCustomerData<'CO'> = customer;

export const payIns: PayInCreateParams[] = [
  // Colombia: checkout and direct methods.
  {
    reference: 'co-1',
    amount: 50_000,
    currency: 'COP',
    country: 'CO',
    payment_method: 'BREB',
    description: 'Order',
    customer_data: customerCO,
    ipn_url: 'https://shop.example/ipn',
    redirect_url: 'https://shop.example/back',
    expiration_time: 30,
  },
  // Colombia: PSE direct, bank and person_type together.
  {
    reference: 'co-2',
    amount: 75_000.5,
    currency: 'COP',
    country: 'CO',
    payment_method: 'PSE',
    description: 'Order',
    customer_data: { ...customer, legal_doc_type: 'CE', bank: '1022', person_type: 'JURIDICA' },
  },
  // Peru.
  {
    reference: 'pe-1',
    amount: 120.5,
    currency: 'PEN',
    country: 'PE',
    payment_method: 'QR',
    description: 'Pedido',
    customer_data: { ...customer, legal_doc_type: 'DNI', phone_code: '51' },
  },
  // Mexico: document types are not listed by the guide, any string.
  {
    reference: 'mx-1',
    amount: 1500,
    currency: 'MXN',
    country: 'MX',
    payment_method: 'SPEI',
    description: 'Pedido',
    customer_data: { ...customer, legal_doc_type: 'CURP', phone_code: '52' },
  },
  // Guatemala and Honduras: methods and document types are open.
  {
    reference: 'gt-1',
    amount: 99.99,
    currency: 'GTQ',
    country: 'GT',
    payment_method: 'CASH_GT',
    description: 'Pedido',
    customer_data: { ...customer, legal_doc_type: 'DPI', phone_code: '502' },
  },
  {
    reference: 'hn-1',
    amount: 250,
    currency: 'HNL',
    country: 'HN',
    payment_method: 'TIGO_MONEY',
    description: 'Pedido',
    customer_data: { ...customer, legal_doc_type: 'RTN', phone_code: '504' },
  },
];

export const legacy: PayInLegacyCreateParams[] = [
  {
    reference: 'v1-co',
    amount: 150_000,
    currency: 'COP',
    country: 'CO',
    payment_method: 'PSE',
    redirect_url: 'https://shop.example/back',
    ipn_url: 'https://shop.example/ipn',
    customer_data: customerCO,
  },
  {
    reference: 'v1-pe',
    amount: 300,
    currency: 'PEN',
    country: 'PE',
    payment_method: 'PAGOEFECTIVO',
    description: 'optional in v1',
    redirect_url: 'https://shop.example/back',
    ipn_url: 'https://shop.example/ipn',
    customer_data: { ...customer, legal_doc_type: 'RUC' },
  },
];

const destination = { bank: 'BANCOLOMBIA', account_number: '12345678901', account_type: 'AHORRO' } as const;
const payoutCustomer: PayOutCustomerData<'CO'> = { ...customer, legal_doc_type: 'NIT', ...destination };
export const payOuts: PayOutCreateParams[] = [
  {
    reference: 'po-co',
    amount: 20_000,
    currency: 'COP',
    country: 'CO',
    payment_method: 'BREB',
    ipn_url: 'https://shop.example/ipn',
    customer_data: payoutCustomer,
    metadata: { order: 1001 },
  },
  {
    reference: 'po-pe',
    amount: 80.25,
    currency: 'PEN',
    country: 'PE',
    payment_method: 'BANK_TRANSFER',
    ipn_url: 'https://shop.example/ipn',
    customer_data: {
      ...customer,
      legal_doc_type: 'DNI',
      bank: 'BCP',
      account_number: '1',
      account_type: 'WALLET',
    },
  },
  {
    reference: 'po-mx',
    amount: 1500,
    currency: 'MXN',
    country: 'MX',
    payment_method: 'SPEI',
    ipn_url: 'https://shop.example/ipn',
    customer_data: {
      ...customer,
      legal_doc_type: 'RFC',
      bank: 'STP',
      account_type: 'CLABE',
      account_number: '002010077777777771',
      clabe_number: '002010077777777771',
    },
  },
  {
    reference: 'po-gt',
    amount: 10,
    currency: 'GTQ',
    country: 'GT',
    payment_method: 'BANK_TRANSFER',
    ipn_url: 'https://shop.example/ipn',
    customer_data: {
      ...customer,
      legal_doc_type: 'DPI',
      bank: 'BI',
      account_number: '9',
      account_type: 'MONETARIA',
    },
  },
  {
    reference: 'po-hn',
    amount: 10,
    currency: 'HNL',
    country: 'HN',
    payment_method: 'BANK_TRANSFER',
    ipn_url: 'https://shop.example/ipn',
    customer_data: {
      ...customer,
      legal_doc_type: 'DNI',
      bank: 'ATL',
      account_number: '9',
      account_type: 'AHORRO',
    },
  },
];

const confirm: SandboxConfirmParams = { transaction_id: 'T-1', payment_method: 'BREB', status: 'APPROVED' };

/** What a merchant does with results: literal unions narrow, unknown keys read by index. */
export async function flow(): Promise<string[]> {
  const seen: string[] = [];
  const created = await client.payin.create(payIns[0]!, { timeoutMs: 10_000, maxRetries: 1 });
  seen.push(created.ticket, created.payment_url ?? '', created.lastResponse.message);
  const info = created.payment_information;
  if (info)
    seen.push(
      info.breb_key ?? info.payment_reference ?? info.clabe ?? info.qr_code ?? String(info.extra_key),
    );
  if (created.recovered) seen.push('recovered');
  await client.payin.createLegacy(legacy[0]!);
  const payout = await client.payout.create(payOuts[2]!);
  seen.push(payout.transaction.payment_method);
  const tx: Transaction = await client.transactions.get(created.ticket);
  const status: TransactionStatus = tx.status;
  switch (status) {
    case 'APPROVED':
    case 'REJECTED':
    case 'DECLINED':
    case 'EXPIRED':
    case 'CREATED':
    case 'PENDING':
      seen.push(status);
      break;
  }
  if (isFinalStatus(tx.status)) {
    const final: FinalStatus = tx.status;
    seen.push(final);
  }
  if (tx.type_transaction === 'PAYIN') seen.push(tx.reference);
  const result = await client.sandbox.confirmPayIn(confirm);
  if (result.status === 'APPROVED') seen.push(result.transaction_id);
  await client.sandbox.confirmPayOut({
    transaction_id: payout.ticket,
    payment_method: 'SPEI',
    status: 'REJECTED',
  });
  const done = await client.transactions.waitForFinalStatus(created.ticket, { timeoutMs: 60_000 });
  seen.push(done.status);
  seen.push(...(COUNTRIES.CO.payinMethods ?? []));
  return seen;
}

/** Params built apart from the call (getting-started.md, "Building params in a variable"), and wrappers generic in them. */
export async function builtApart(): Promise<PayInCreated[]> {
  const satisfied = {
    reference: 'co-9',
    amount: 50_000,
    currency: 'COP',
    country: 'CO',
    payment_method: 'BREB',
    description: 'Order',
    customer_data: customer,
  } satisfies PayInCreateParamsFor<'CO'>;
  const frozen = { ...satisfied, reference: 'co-10', payment_method: 'EFECTY' } as const;
  const annotated: PayOutCreateParamsFor<'MX'> = {
    reference: 'mx-9',
    amount: 1_000,
    currency: 'MXN',
    country: 'MX',
    payment_method: 'SPEI',
    ipn_url: 'https://shop.example/ipn',
    customer_data: {
      ...customer,
      legal_doc_type: 'RFC',
      bank: 'STP',
      account_number: '646180157000000004',
      account_type: 'CLABE',
      clabe_number: '646180157000000004',
    },
  };
  const anyCountry = async <P extends PayInCreateParams>(params: P) => client.payin.create(params);
  const mexican = async <P extends PayOutCreateParamsFor<'MX'>>(params: P) => client.payout.create(params);
  const fromUnion = async (params: PayInCreateParamsFor<'CO'> | PayInCreateParamsFor<'PE'>) =>
    client.payin.create(params);
  await mexican(annotated);
  await client.payout.create(annotated);
  return [
    await client.payin.create(satisfied),
    await client.payin.create(frozen),
    await anyCountry(satisfied),
    await fromUnion(satisfied),
  ];
}

export function handle(error: unknown): string {
  if (!(error instanceof ApiError)) return 'other';
  switch (error.errorCode) {
    case 'ALREADY_FINAL':
      return 'already final';
    case 'NOT_FOUND':
      return 'not found';
    case undefined:
      return 'no identifier';
    default:
      return `other: ${error.errorCode}`;
  }
}

export function onEvent(event: WebhookEvent): boolean {
  return event.top_status === 'APPROVED' && event.top_user?.email !== undefined;
}

export async function simulator(): Promise<void> {
  const sandbox = createSandbox({ webhooks: false });
  const server = await startSandboxServer({ sandbox });
  await server.close();
}

/** Catching up after missed webhooks: one result per id, narrowed by outcome. */
export async function catchUp(ids: string[]): Promise<string[]> {
  const results: TransactionLookupResult[] = await client.transactions.getMany(ids, {
    concurrency: 8,
    signal: AbortSignal.timeout(60_000),
    onProgress: (p) => p.done + p.found + p.notFound + p.failed <= 4 * p.total,
  });
  const settled: string[] = [];
  for (const r of results) {
    if (r.outcome === 'found' && r.transaction && isFinalStatus(r.transaction.status)) settled.push(r.id);
    else if (r.outcome === 'failed') settled.push(r.error?.message ?? '');
  }
  return settled;
}

// The namespaces of the main entry: what moved out of it by name, typed as before.
export const parsedPayIn: PayInCreated | undefined = schemas.PayInCreatedSchema.tolerant.safeParse({}).data;
export const currencies: readonly CurrencyCode[] = catalog.CURRENCY_CODES;
// The namespace's types are the main entry's (declared as aliases in catalog-namespace.ts).
export const colombia: catalog.CountryCode = 'CO';
export const wallet: catalog.AccountType<'PE'> = 'WALLET';
export const sameCountry: CountryCode = colombia;
export const signatureHeader: 'x-trx-signature' = webhooks.SIGNATURE_HEADER;
export const ttl: number = webhooks.DEFAULT_DEDUPE_TTL_MS;

// A receiver given the client: its token, scheme and tracer; confirmWith narrows onEvent as before.
export const receiver = createWebhookHandler({ client, onEvent: (event) => void event.top_ticket });
export const confirmed = createWebhookHandler({
  client,
  confirmWith: client,
  onEvent: (_event, context) => void context.transaction.status,
});
