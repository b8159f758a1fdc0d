/**
 * The main entry's surface: what a merchant imports by name stays small (at most 60 run-time
 * values; 0.3 had 88), every error class a merchant can meet is there, and nothing that moved
 * is lost: each zod schema is in `schemas`, each list of the guide in `catalog`, the whole
 * receiving side in `webhooks`.
 */
import { describe, expect, it } from 'vitest';
import * as main from '../src/index.js';
import * as catalogModule from '../src/schemas/catalog.js';
import * as common from '../src/schemas/common.js';
import * as merchant from '../src/schemas/merchant.js';
import * as payin from '../src/schemas/payin.js';
import * as payinResult from '../src/schemas/payin-result.js';
import * as payout from '../src/schemas/payout.js';
import * as recovery from '../src/schemas/recovery.js';
import * as sandbox from '../src/schemas/sandbox.js';
import * as transaction from '../src/schemas/transaction.js';
import * as webhook from '../src/schemas/webhook.js';

const schemaModules = [merchant, payin, payinResult, payout, recovery, sandbox, transaction, webhook];
const exportedSchemas = (module: object) => Object.keys(module).filter((name) => name.endsWith('Schema'));

describe('the main entry', () => {
  it('holds at most 60 run-time values', () => {
    expect(Object.keys(main).length).toBeLessThanOrEqual(60);
  });

  it("holds every error class of the contract's Errors table, and every other one a merchant meets", () => {
    const contract = [
      'PayinoutError',
      'ConfigurationError',
      'RequestValidationError',
      'ApiError',
      'AuthenticationError',
      'NotFoundError',
      'UnprocessableEntityError',
      'AlreadyFinalError',
      'TypeMismatchError',
      'StatusNotSupportedError',
      'RateLimitError',
      'ServerError',
      'ConfirmFailedError',
      'ConnectionError',
      'TimeoutError',
      'ResponseValidationError',
      'WebhookVerificationError',
      'SandboxUnavailableError',
    ];
    const met = [
      'AmbiguousTransactionError',
      'ReferenceConflictError',
      'BatchHaltedError',
      'LookupHaltedError',
    ];
    for (const name of [...contract, ...met]) {
      const value = (main as Record<string, unknown>)[name];
      expect(typeof value, name).toBe('function');
      expect(Object.create((value as { prototype: object }).prototype), name).toBeInstanceOf(
        main.PayinoutError,
      );
    }
  });

  it('keeps by name the schemas a merchant validates with', () => {
    for (const name of [
      'PayInCreateParamsSchema',
      'PayInLegacyCreateParamsSchema',
      'PayOutCreateParamsSchema',
      'SandboxConfirmParamsSchema',
      'TransactionSchema',
      'WebhookEventSchema',
    ]) {
      expect(main.schemas[name as keyof typeof main.schemas], name).toBe(
        (main as Record<string, unknown>)[name],
      );
    }
  });
});

describe('the namespaces hold what moved', () => {
  it('schemas: every zod schema of every schema module, and the building blocks of common.ts', () => {
    const names = [
      ...schemaModules.flatMap(exportedSchemas),
      'AmountSchema',
      'CountrySchema',
      'CurrencySchema',
      'CustomerRecordSchema',
      'EnvelopeSchema',
    ];
    expect(names.length).toBeGreaterThan(20);
    for (const name of names) {
      expect(main.schemas[name as keyof typeof main.schemas], name).toBeDefined();
    }
    expect(main.schemas.AmountSchema).toBe(common.AmountSchema);
  });

  it("catalog: every value of the guide's catalog", () => {
    for (const [name, value] of Object.entries(catalogModule)) {
      expect(main.catalog[name as keyof typeof main.catalog], name).toBe(value);
    }
  });

  it('webhooks: the defaults, the lease and the errors of the receiving side, and what is also by name', () => {
    const { webhooks } = main;
    expect(webhooks.DEFAULT_DEDUPE_TTL_MS).toBe(7 * 24 * 3600 * 1000);
    expect(webhooks.SIGNATURE_HEADER).toBe('x-trx-signature');
    expect(typeof webhooks.DedupeLease).toBe('function');
    expect(webhooks.DedupeStoreTimeoutError).toBe(main.DedupeStoreTimeoutError);
    expect(webhooks.createWebhookHandler).toBe(main.createWebhookHandler);
    expect(webhooks.verifyWebhook).toBe(main.verifyWebhook);
  });
});
