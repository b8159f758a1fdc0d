/**
 * The document's enumerations: status, country, currency, payment method, document, account and
 * person types are `enum` (their strict forms), so code generators and Postman offer choices
 * (answers carry no person type: it is a request field); on answers the description says the SDK's default mode also reads values not listed — and it does
 * (msw: a status the list lacks is read by a default client, refused by a strict one).
 */
import { describe, expect, it } from 'vitest';
import { ResponseValidationError } from '../../src/index.js';
import { buildOpenApiDocument } from '../../src/openapi/document.js';
import { EXTENSIBLE_ENUM_NOTE, OPEN_ENUM_NOTE } from '../../src/openapi/enums.js';
import { COUNTRY_CODES, CURRENCY_CODES, TRANSACTION_STATUSES } from '../../src/schemas/catalog.js';
import { answer, makeClient, ok, useMsw } from '../helpers/msw.js';

useMsw();

// biome-ignore lint/suspicious/noExplicitAny: a parsed JSON document, walked by key
type Json = Record<string, any>;
const schemas = (buildOpenApiDocument() as Json).components.schemas as Json;
const field = (component: string, ...path: string[]) =>
  path.reduce(
    (node: Json, key) => (/^\d+$/.test(key) ? node.oneOf[Number(key)] : node.properties[key]),
    schemas[component],
  );
/** A nullable object is `anyOf [object, null]`: its object member. */
const objectOf = (node: Json) => node.anyOf?.find((m: Json) => m.type === 'object') ?? node;

describe('answers: enum of the strict form, open in the SDK default mode', () => {
  const cases: Array<[string, Json, readonly string[]]> = [
    ['Transaction.status', field('Transaction', 'status'), TRANSACTION_STATUSES],
    ['Transaction.currency', field('Transaction', 'currency'), CURRENCY_CODES],
    ['WebhookEvent.top_status', field('WebhookEvent', 'top_status'), TRANSACTION_STATUSES],
    ['WebhookEvent.top_currency', field('WebhookEvent', 'top_currency'), CURRENCY_CODES],
    ['MerchantBalance.currency', field('MerchantBalance', 'currency'), CURRENCY_CODES],
    [
      'SandboxConfirmResult.status',
      field('SandboxConfirmResult', 'status'),
      ['APPROVED', 'REJECTED', 'EXPIRED'],
    ],
  ];
  for (const [name, node, values] of cases) {
    it(name, () => {
      expect(node.enum, name).toEqual(expect.arrayContaining([...values]));
      expect(node.description, name).toContain(OPEN_ENUM_NOTE);
      expect(node.description).toMatch(/default mode the SDK also reads a value not listed/);
    });
  }

  it('a nullable enumerated field lists null too', () => {
    expect(field('WebhookEvent', 'top_currency').enum).toContain(null);
  });

  it('what the description says holds: default reads an unlisted status, strict refuses it', async () => {
    const body = {
      ticket: 'T1',
      reference: 'r',
      amount: 1,
      currency: 'COP',
      status: 'ON_HOLD',
      date: '2026-11-24 10:00:00',
    };
    answer('get', '/api/v1/transaction/T1', () => ok(body));
    expect((await makeClient().transactions.get('T1')).status).toBe('ON_HOLD');
    answer('get', '/api/v1/transaction/T1', () => ok(body));
    const error = await makeClient({ strictResponses: true })
      .transactions.get('T1')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
  });
});

describe('requests: exact, so enum without the open note', () => {
  it("a country's own country and currency carry enum (and const)", () => {
    for (const [i, country] of COUNTRY_CODES.entries()) {
      expect(field('PayInCreateParams', String(i), 'country').enum).toEqual([country]);
      expect(CURRENCY_CODES).toContain(field('PayInCreateParams', String(i), 'currency').enum[0]);
    }
  });

  it('CO lists its payment methods, document, account and person types', () => {
    expect(field('PayInCreateParams', '0', 'payment_method').enum).toContain('BREB');
    expect(field('PayInCreateParams', '0', 'customer_data', 'legal_doc_type').enum).toContain('CC');
    expect(field('PayInCreateParams', '0', 'customer_data', 'person_type').enum).toEqual([
      'NATURAL',
      'JURIDICA',
    ]);
    expect(field('PayOutCreateParams', '0', 'customer_data', 'account_type').enum).toEqual([
      'AHORRO',
      'CORRIENTE',
    ]);
    expect(field('PayInCreateParams', '0', 'payment_method').description ?? '').not.toContain(OPEN_ENUM_NOTE);
  });
});

describe('answers: a list the guide leaves open ("Not shown" for some country) is x-extensible-enum, never enum', () => {
  const cases: Array<[string, Json, readonly string[]]> = [
    [
      'PayInCreated.transaction.payment_method',
      field('PayInCreated', 'transaction', 'payment_method'),
      ['PSE', 'BREB', 'SPEI'],
    ],
    ['SandboxConfirmResult.payment_method', field('SandboxConfirmResult', 'payment_method'), ['BREB']],
    ['WebhookEvent.top_payment_method', field('WebhookEvent', 'top_payment_method'), ['PSE', 'SPEI']],
    [
      'Transaction.customer.legal_doc_type',
      objectOf(field('Transaction', 'customer')).properties.legal_doc_type,
      ['CC', 'DNI', 'RUC'],
    ],
    [
      'WebhookEvent.top_user.legal_doc_type',
      objectOf(field('WebhookEvent', 'top_user')).properties.legal_doc_type,
      ['CC', 'DNI', 'RUC'],
    ],
  ];
  for (const [name, node, values] of cases) {
    it(name, () => {
      expect(node.enum, name).toBeUndefined();
      expect(node['x-extensible-enum'], name).toEqual(expect.arrayContaining([...values]));
      expect(node.description, name).toContain(EXTENSIBLE_ENUM_NOTE);
    });
  }

  it('what the description says holds: a strict client reads a document type the guide does not show', async () => {
    const body = {
      ticket: 'T1',
      reference: 'r',
      amount: 1,
      currency: 'MXN',
      status: 'APPROVED',
      date: '2026-11-24 10:00:00',
      customer: { legal_doc_type: 'CURP', legal_doc: 'X' },
    };
    answer('get', '/api/v1/transaction/T1', () => ok(body));
    const read = await makeClient({ strictResponses: true }).transactions.get('T1');
    expect(read.customer?.legal_doc_type).toBe('CURP');
  });
});
