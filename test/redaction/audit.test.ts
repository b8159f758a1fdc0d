/**
 * Redaction audit: a full flow against a hostile service double that echoes the request's
 * credentials and PII everywhere it can (messages, bodies, headers, low-level error messages),
 * with a recording logger, forcing every error class. No log line, error message,
 * JSON.stringify(error), util.inspect(error) or cause in the chain may contain a secret, while
 * each error keeps what a developer needs: method, path (with the id), status, error id, attempts.
 */
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  AlreadyFinalError,
  ApiError,
  AuthenticationError,
  ConfigurationError,
  ConfirmFailedError,
  ConnectionError,
  NotFoundError,
  PaymentClient,
  RateLimitError,
  RequestValidationError,
  ResponseValidationError,
  SandboxUnavailableError,
  ServerError,
  StatusNotSupportedError,
  TimeoutError,
  TypeMismatchError,
  UnprocessableEntityError,
  WebhookVerificationError,
} from '../../src/index.js';
import { verifyWebhook } from '../../src/webhooks/verify.js';

const USERNAME = 'audit-user';
const PASSWORD = 'PASSWORD-55555-secret';
const TOKEN = 'TOKEN-77777-merchant';
const BASIC_B64 = Buffer.from(`${USERNAME}:${PASSWORD}`).toString('base64');
const PII = {
  legal_doc: 'LEGALDOC-98765',
  email: 'leak.4242@example.com',
  phone_number: 'PHONE-3135550123',
  account_number: 'ACCOUNT-24680',
  clabe_number: 'CLABE-13579-00',
};
const SECRETS = [PASSWORD, TOKEN, BASIC_B64, ...Object.values(PII)];

const customer = {
  legal_doc: PII.legal_doc,
  legal_doc_type: 'CC' as const,
  phone_code: '57',
  phone_number: PII.phone_number,
  email: PII.email,
  full_name: 'Ana Pérez',
};
const payout = {
  payment_method: 'BANK_TRANSFER' as const,
  reference: 'audit-ref-1',
  amount: 20_000,
  currency: 'COP' as const,
  country: 'CO' as const,
  ipn_url: 'https://merchant.example.com/ipn',
  customer_data: {
    ...customer,
    bank: 'BANCOLOMBIA',
    account_number: PII.account_number,
    account_type: 'AHORRO' as const,
    clabe_number: PII.clabe_number,
  },
};
const payin = {
  reference: 'audit-ref-2',
  amount: 50_000,
  currency: 'COP' as const,
  country: 'CO' as const,
  payment_method: 'BREB' as const,
  description: 'audit',
  customer_data: customer,
};

type Mode =
  | { kind: 'answer'; status: number; error?: string; retryAfter?: string }
  | { kind: 'network' }
  | { kind: 'hang' }
  | { kind: 'drift' };

/** The hostile service: echoes everything it received, in every place an SDK might keep. */
function hostileService() {
  const state: { mode: Mode; requests: number } = { mode: { kind: 'answer', status: 200 }, requests: 0 };
  const fetchImpl: typeof fetch = async (input, init) => {
    state.requests++;
    const request = new Request(input, init);
    const auth = request.headers.get('authorization') ?? '';
    const token = request.headers.get('token-top') ?? '';
    const text = request.method === 'POST' ? await request.text() : '';
    const parsed = text ? JSON.parse(text) : {};
    const echo = `rejected ${text} from ${auth} with ${token}`;
    const mode = state.mode;
    if (mode.kind === 'network') {
      const cause = Object.assign(new Error(`socket hang up while sending ${auth} ${token} ${text}`), {
        code: 'ECONNRESET',
      });
      throw new TypeError(`fetch failed for ${auth}`, { cause });
    }
    if (mode.kind === 'hang') {
      return new Promise<Response>((_, reject) => {
        request.signal.addEventListener('abort', () => reject(new Error(`aborted ${auth}`)));
        init?.signal?.addEventListener('abort', () => reject(new Error(`aborted ${auth}`)));
      });
    }
    const headers = { 'content-type': 'application/json', 'x-echo': `${auth} ${token}`, authorization: auth };
    if (mode.kind === 'drift') {
      // A transaction whose ticket is not a string (a missing one is only warned about), holding
      // the customer's PII.
      const data = {
        ticket: 42,
        reference: 'audit-ref-1',
        amount: 1,
        currency: 'COP',
        status: 'PENDING',
        customer: { ...customer, note: echo },
      };
      return new Response(JSON.stringify({ code: '01', status: 'SUCCESS', message: echo, data }), {
        headers,
      });
    }
    const body = {
      code: '00',
      status: 'ERROR',
      message: echo,
      ...(mode.error ? { error: mode.error } : {}),
      data: { customer_data: parsed.customer_data, raw: echo, nested: { password: PASSWORD, token: TOKEN } },
    };
    return new Response(JSON.stringify(body), {
      status: mode.status,
      headers: { ...headers, ...(mode.retryAfter ? { 'retry-after': mode.retryAfter } : {}) },
    });
  };
  return { state, fetchImpl };
}

function recordingLogger() {
  const lines: string[] = [];
  const record = (level: string) => (message: string, fields?: Record<string, unknown>) => {
    lines.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`);
  };
  return {
    lines,
    logger: { debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error') },
  };
}

/** Every textual view of an error and of each cause in its chain. */
function views(error: unknown): string[] {
  const out: string[] = [];
  for (let e: unknown = error, depth = 0; e && depth < 10; e = (e as { cause?: unknown }).cause, depth++) {
    out.push(
      String((e as Error).message),
      String((e as Error).stack),
      JSON.stringify(e),
      inspect(e, { depth: 10 }),
    );
    // The non-enumerable cause is printed by inspect only on plain errors; walk it explicitly too.
  }
  return out;
}

async function failure(run: () => unknown): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

describe('redaction audit', () => {
  it('no secret or PII in any log line, error view or cause, for every error class', async () => {
    const service = hostileService();
    const { lines, logger } = recordingLogger();
    const options = {
      username: USERNAME,
      password: PASSWORD,
      token: TOKEN,
      baseUrl: 'https://api.audit.test/root',
    };
    const client = new PaymentClient({
      ...options,
      fetch: service.fetchImpl,
      logger,
      maxRetries: 0,
      timeoutMs: 50,
    });
    const set = (mode: Mode) => {
      service.state.mode = mode;
    };
    const errors: Array<{ error: unknown; expected: abstract new (...args: never[]) => Error }> = [];
    const force = async (
      expected: (typeof errors)[number]['expected'],
      mode: Mode | undefined,
      run: () => unknown,
    ) => {
      if (mode) set(mode);
      const error = await failure(run);
      expect(error).toBeInstanceOf(expected);
      errors.push({ error, expected });
      return error as Record<string, unknown>;
    };

    // ApiError and each subclass, each echoing the request.
    const api = await force(ApiError, { kind: 'answer', status: 400 }, () => client.payin.create(payin));
    expect(api).toMatchObject({ method: 'POST', path: '/api/v2/payin', status: 400, attempts: 1 });
    // The echo is there, scrubbed: the audit below is not vacuous.
    expect(String(api.message)).toContain('[REDACTED]');
    expect(JSON.stringify(api)).toContain('"legal_doc":"[REDACTED]"');
    await force(AuthenticationError, { kind: 'answer', status: 401 }, () => client.payout.create(payout));
    const notFound = await force(NotFoundError, { kind: 'answer', status: 404, error: 'NOT_FOUND' }, () =>
      client.transactions.get('audit-ref-1'),
    );
    expect(notFound).toMatchObject({
      method: 'GET',
      path: '/api/v1/transaction/audit-ref-1',
      errorCode: 'NOT_FOUND',
    });
    const unprocessable = await force(
      UnprocessableEntityError,
      { kind: 'answer', status: 422, error: 'VALIDATION_ERROR' },
      () => client.payout.create(payout),
    );
    expect(unprocessable).toMatchObject({
      status: 422,
      errorCode: 'VALIDATION_ERROR',
      path: '/api/v1/payout',
      attempts: 1,
    });
    const confirm = { transaction_id: 'audit-ref-2', payment_method: 'QR', status: 'APPROVED' as const };
    const final = await force(
      AlreadyFinalError,
      { kind: 'answer', status: 422, error: 'ALREADY_FINAL' },
      () => client.sandbox.confirmPayIn(confirm),
    );
    expect(final).toMatchObject({ errorCode: 'ALREADY_FINAL', path: '/api/v1/sandbox/payin/confirm' });
    await force(TypeMismatchError, { kind: 'answer', status: 422, error: 'TYPE_MISMATCH' }, () =>
      client.sandbox.confirmPayOut({ ...confirm, payment_method: 'SPEI' }),
    );
    await force(StatusNotSupportedError, { kind: 'answer', status: 422, error: 'STATUS_NOT_SUPPORTED' }, () =>
      client.sandbox.confirmPayIn(confirm),
    );
    await force(RateLimitError, { kind: 'answer', status: 429, retryAfter: '0' }, () =>
      client.merchant.getBalance(),
    );
    await force(ServerError, { kind: 'answer', status: 503, retryAfter: '0' }, () =>
      client.merchant.getProfile(),
    );
    await force(
      ConfirmFailedError,
      { kind: 'answer', status: 500, error: 'CONFIRM_FAILED', retryAfter: '0' },
      () => client.sandbox.confirmPayIn(confirm),
    );
    // The 503 of a create is reconciled: the lookup answers 503 too, so the outcome is unknown.
    const unknown = await force(ConnectionError, { kind: 'answer', status: 503, retryAfter: '0' }, () =>
      client.payout.create(payout),
    );
    expect(unknown).toMatchObject({
      outcome: 'unknown',
      reference: 'audit-ref-1',
      method: 'POST',
      path: '/api/v1/payout',
      attempts: 2,
    });

    // No HTTP answer, with a low-level error message quoting the credentials.
    const network = await force(ConnectionError, { kind: 'network' }, () => client.merchant.getBalance());
    expect(network).toMatchObject({ method: 'GET', path: '/api/v1/merchant/balance', attempts: 1 });
    // The hostile text did reach the SDK: it is kept, scrubbed, in the cause chain.
    expect(views(network).join('\n')).toMatch(/socket hang up while sending \[REDACTED\] \[REDACTED\]/);
    await force(TimeoutError, { kind: 'hang' }, () => client.transactions.get('audit-ref-1'));
    const drift = await force(ResponseValidationError, { kind: 'drift' }, () =>
      client.transactions.get('audit-ref-1'),
    );
    expect(drift).toMatchObject({
      method: 'GET',
      path: '/api/v1/transaction/audit-ref-1',
      status: 200,
      attempts: 1,
    });

    // Client-side failures: nothing sent.
    const before = service.state.requests;
    await force(RequestValidationError, undefined, () =>
      client.payout.create({
        ...payout,
        customer_data: { ...payout.customer_data, email: `${PII.email} ${PII.legal_doc}` },
      }),
    );
    await force(RequestValidationError, undefined, () =>
      client.payin.create({ ...payin, customer_data: { ...customer, phone_number: `+${PII.phone_number}` } }),
    );
    const production = new PaymentClient({
      ...options,
      environment: 'production',
      fetch: service.fetchImpl,
      logger,
    });
    await force(SandboxUnavailableError, undefined, () => production.sandbox.confirmPayIn(confirm));
    expect(service.state.requests).toBe(before);
    await force(
      ConfigurationError,
      undefined,
      () => new PaymentClient({ ...options, baseUrl: 'http://api.audit.test' }),
    );
    await force(ConfigurationError, undefined, () =>
      PaymentClient.fromEnv({
        PAYINOUT_USERNAME: USERNAME,
        PAYINOUT_PASSWORD: PASSWORD,
        PAYINOUT_BASE_URL: 'https://x.test',
      }),
    );
    const webhookBody = JSON.stringify({
      top_status: 'APPROVED',
      top_ticket: 'T-1',
      top_reference: 'audit-ref-2',
      top_user: customer,
    });
    await force(WebhookVerificationError, undefined, () =>
      verifyWebhook(webhookBody, { 'x-trx-signature': `${TOKEN}-forged` }, { token: TOKEN }),
    );
    await force(WebhookVerificationError, undefined, () =>
      verifyWebhook(
        `{"top_user":${JSON.stringify(customer)},`,
        { 'x-trx-signature': 'abc' },
        { token: TOKEN },
      ),
    );

    // The audit itself.
    expect(lines.length).toBeGreaterThan(10);
    const leaks: string[] = [];
    for (const line of lines)
      for (const secret of SECRETS) if (line.includes(secret)) leaks.push(`log: ${secret} in ${line}`);
    for (const { error, expected } of errors) {
      for (const view of views(error)) {
        for (const secret of SECRETS)
          if (view.includes(secret)) leaks.push(`${expected.name}: ${secret} in ${view.slice(0, 300)}`);
      }
    }
    expect(leaks).toEqual([]);
    // Every class of the contract was forced.
    const forced = new Set(errors.map(({ error }) => (error as Error).constructor));
    for (const cls of [
      ApiError,
      AuthenticationError,
      NotFoundError,
      UnprocessableEntityError,
      AlreadyFinalError,
      TypeMismatchError,
      StatusNotSupportedError,
      RateLimitError,
      ServerError,
      ConfirmFailedError,
      ConnectionError,
      TimeoutError,
      ResponseValidationError,
      RequestValidationError,
      SandboxUnavailableError,
      ConfigurationError,
      WebhookVerificationError,
    ]) {
      expect(forced.has(cls), cls.name).toBe(true);
    }
  });
});
