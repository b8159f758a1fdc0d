import { describe, expect, it } from 'vitest';
import {
  buildPath,
  createRouter,
  OPERATION_LIST,
  OPERATIONS,
  sandboxConfirmSupport,
} from '../../src/api/index.js';

describe('the operations table', () => {
  it('has every endpoint of the guide, each method+path once', () => {
    const routes = OPERATION_LIST.map((op) => `${op.method} ${op.template}`);
    expect(routes).toStrictEqual([
      'POST /api/v2/payin',
      'POST /api/v1/payin',
      'GET /api/v1/pse/banks',
      'POST /api/v1/payout',
      'GET /api/v1/merchant/me',
      'GET /api/v1/merchant/balance',
      'GET /api/v1/transaction/{ticket}',
      'POST /api/v1/transaction/{ticket}',
      'POST /api/v1/sandbox/payin/confirm',
      'POST /api/v1/sandbox/payout/confirm',
    ]);
    for (const [id, op] of Object.entries(OPERATIONS)) expect(op.id).toBe(id);
  });

  it('marks creates unsafe to resend and gives them a recovery by reference; reads are safe', () => {
    for (const op of OPERATION_LIST) {
      const create = op.recovery !== undefined;
      expect(op.safeToResend).toBe(!create);
      if (create) expect(op.recovery?.match.map((m) => m.request)).toContain('reference');
    }
    expect(OPERATIONS['payout.create'].recovery.kind).toBe('PAYOUT');
    expect(OPERATIONS['payin.createLegacy'].recovery.kind).toBe('PAYIN');
  });

  it('lets the merchant profile take Token-Top alone, as the guide example does', () => {
    const tokenAlone = OPERATION_LIST.filter((op) => op.auth === 'token').map((op) => op.id);
    expect(tokenAlone).toStrictEqual(['merchant.getProfile']);
  });
});

describe('paths', () => {
  it('builds relative paths with each parameter percent-encoded', () => {
    expect(buildPath(OPERATIONS['transactions.get'], { ticket: 'order 1/2' })).toBe(
      'api/v1/transaction/order%201%2F2',
    );
    expect(buildPath(OPERATIONS['payin.create'])).toBe('api/v2/payin');
    expect(() => buildPath(OPERATIONS['transactions.get'])).toThrow(/ticket is missing/);
  });

  it('matches what it builds, and tells a wrong method from an unknown path', () => {
    const match = createRouter(OPERATION_LIST);
    const path = `/${buildPath(OPERATIONS['transactions.get'], { ticket: 'order 1/2' })}`;
    expect(match('GET', `${path}?x=1`)).toMatchObject({
      found: 'operation',
      operation: { id: 'transactions.get' },
      params: { ticket: 'order 1/2' },
    });
    expect(match('post', path)).toMatchObject({ operation: { id: 'transactions.getByPost' } });
    expect(match('DELETE', '/api/v1/payout/')).toStrictEqual({ found: 'wrong-method', allowed: ['POST'] });
    expect(match('GET', '/api/v1/nothing')).toStrictEqual({ found: 'nothing' });
    expect(match('GET', '/api/v1/transaction/%E0%A4%A')).toStrictEqual({ found: 'bad-path' });
  });
});

describe('sandboxConfirmSupport', () => {
  it('follows the guide rows, per country when the country is known', () => {
    const q = { direction: 'payin', payment_method: 'BREB', status: 'APPROVED' } as const;
    expect(sandboxConfirmSupport(q).verdict).toBe('supported');
    expect(sandboxConfirmSupport({ ...q, status: 'EXPIRED' })).toMatchObject({
      verdict: 'unsupported',
      supported: ['APPROVED', 'REJECTED'],
    });
    expect(sandboxConfirmSupport({ ...q, payment_method: 'CARD' }).verdict).toBe('unsupported');
    expect(sandboxConfirmSupport({ ...q, payment_method: 'TRANSFIYA' }).verdict).toBe('unlisted');
    expect(sandboxConfirmSupport({ ...q, country: 'PE' }).verdict).toBe('unlisted');
    const payout = { direction: 'payout', payment_method: 'BANK_TRANSFER', status: 'EXPIRED' } as const;
    expect(sandboxConfirmSupport({ ...payout, country: 'CO' }).verdict).toBe('supported');
    expect(sandboxConfirmSupport({ ...payout, country: 'MX' }).verdict).toBe('unlisted');
  });
});
