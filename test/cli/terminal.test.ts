/**
 * Text the service controls never reaches a terminal raw: every command's output (get,
 * transactions check, payouts send, the failure line, commander's errors) shown as bytes, with a
 * local server answering fields and error messages full of ESC/CSI, OSC, BEL, bare CR, C1
 * controls and bidi overrides.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transaction } from '../helpers/fixtures.js';
import { type LocalServer, startLocalServer } from '../helpers/local-server.js';
import {
  PAYOUT_HEADER,
  payoutLine,
  RAW_CONTROL,
  readCsv,
  runCli,
  tempDir,
  writeLines,
} from './files-support.js';

const HOSTILE_STATUS = 'APPROVED\u001b]0;pwned\u0007\u001b[2J';
const HOSTILE_MESSAGE = 'Done\r\u001b[31mRefund sent\u009b0m \u202eTXT.exe\u0000';
const HOSTILE_ERROR = 'Rejected\u001b]52;c;Y3VybCBldmlsIHwgc2g=\u0007\u001b[1A\rAll good';

let server: LocalServer;
let env: Record<string, string>;
beforeAll(async () => {
  server = await startLocalServer((req, res) => {
    const id = decodeURIComponent(req.url?.split('/').pop() ?? '');
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method === 'GET' && id === 'evil') {
      return json(200, {
        code: '01',
        status: 'SUCCESS',
        message: 'ok',
        data: {
          ...transaction,
          reference: 'evil',
          status: HOSTILE_STATUS,
          response_message: HOSTILE_MESSAGE,
        },
      });
    }
    if (req.method === 'GET' && id === 'not-found') {
      return json(404, { code: '00', status: 'ERROR', message: `No such transaction${HOSTILE_ERROR}` });
    }
    json(401, { code: '00', status: 'ERROR', message: HOSTILE_ERROR });
  });
  env = {
    PAYINOUT_BASE_URL: server.baseUrl,
    PAYINOUT_USERNAME: 'shop',
    PAYINOUT_PASSWORD: 'shop-pass',
    PAYINOUT_TOKEN: 'shop-token',
  };
});
afterAll(() => server.close());

function expectNeutral(text: string): void {
  expect(text).not.toMatch(RAW_CONTROL);
}

describe('every CLI output line is neutralised', () => {
  it('payinout get: the JSON shows each control as \\uXXXX (still the same value to a JSON reader)', async () => {
    const run = await runCli(['get', 'evil'], env);
    expect(run.code, run.stderr).toBe(0);
    expectNeutral(run.stdout);
    expect(run.stdout).toContain('\\u009b0m \\u202eTXT.exe');
    const shown = JSON.parse(run.stdout) as { status: string; response_message: string };
    expect(shown.status).toBe(HOSTILE_STATUS);
    expect(shown.response_message).toBe(HOSTILE_MESSAGE);
  });

  it('payinout get: a service error message on stderr', async () => {
    const [missing, refused] = await Promise.all([
      runCli(['get', 'not-found'], env),
      runCli(['get', 'x'], env),
    ]);
    expect(missing.code).toBe(1);
    expect(refused.code).toBe(1);
    for (const run of [missing, refused]) {
      expectNeutral(run.stderr);
      expect(run.stderr).toContain('\\u001b]52;c;');
    }
  });

  it('transactions check: the summary on stdout; the results file keeps the data as the service sent it', async () => {
    const dir = tempDir();
    const input = writeLines(dir, 'ids.csv', ['reference', 'evil', 'not-found']);
    const run = await runCli(['transactions', 'check', input], env);
    expect(run.code).toBe(1);
    expectNeutral(run.stdout);
    expectNeutral(run.stderr);
    expect(run.stdout).toContain(
      '1 found (1 APPROVED\\u001b]0;pwned\\u0007\\u001b[2J), 1 not found, 0 failed (of 2)',
    );
    const results = readCsv(readFileSync(join(dir, 'ids.results.csv')));
    expect(results[0]!.status).toBe(HOSTILE_STATUS);
  });

  it('payouts send: the batch-stopped line, row errors naming a hostile reference, and commander errors', async () => {
    const dir = tempDir();
    const input = writeLines(dir, 'p.csv', [
      PAYOUT_HEADER,
      payoutLine(1),
      payoutLine(2, 'bad\u001b[2Jref\u0007').replace('"10002"', '"abc"'),
    ]);
    const [send, unknown] = await Promise.all([
      runCli(['payouts', 'send', input, '--out', join(dir, 'out.csv')], env),
      runCli(['get', '--\u001b[31mcolour'], env),
    ]);
    expect(send.code).toBe(1);
    expectNeutral(send.stderr);
    expectNeutral(send.stdout);
    expect(send.stderr).toContain("(reference 'bad\\u001b[2Jref\\u0007')");
    expect(send.stderr).toMatch(/refused the credentials \(HTTP 401\)/);
    expect(unknown.code).toBe(2);
    expectNeutral(unknown.stderr);
    expect(unknown.stderr).toContain('--\\u001b[31mcolour');
  });
});
