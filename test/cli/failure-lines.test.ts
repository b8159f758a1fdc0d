/**
 * What `payouts worker` lists of failed PayOuts (src/cli/failure-lines.ts): a few lines per
 * cause, the rest counted; causes that a service makes up anew each time cannot grow the table
 * without bound. The whole worker is exercised through the CLI in test/bullmq/cli.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { ErrorKinds } from '../../src/bullmq/error-kinds.js';
import { FailureLines, LINES_PER_CAUSE } from '../../src/cli/failure-lines.js';

/** Errors of the shape payinout's have (name, the service's code, the HTTP status). */
const failure = (name: string, fields: { errorCode?: string; status?: number } = {}) =>
  Object.assign(new Error(`refused ${fields.errorCode ?? fields.status ?? ''}`), { name }, fields);
const refused = (errorCode: string) => failure('UnprocessableEntityError', { errorCode, status: 422 });

describe('FailureLines', () => {
  it('lists the first PayOuts of each cause, says once that the rest are counted, and counts them by cause', () => {
    const lines = new FailureLines();
    const printed: (string | undefined)[] = [];
    for (let i = 0; i < 9; i++) printed.push(lines.line(`ref-${i}`, refused('INSUFFICIENT_FUNDS')));
    printed.push(lines.line('other-1', failure('ConnectionError')));
    const listed = printed.filter((line) => line?.includes(' failed: '));
    expect(listed).toHaveLength(LINES_PER_CAUSE + 1);
    expect(listed[0]).toBe('ref-0 failed: refused INSUFFICIENT_FUNDS');
    expect(printed[LINES_PER_CAUSE]).toMatch(
      /^more PayOuts failed with UnprocessableEntityError INSUFFICIENT_FUNDS/,
    );
    expect(printed.slice(LINES_PER_CAUSE + 1, 9)).toEqual([undefined, undefined, undefined]);
    expect(lines.unlisted()).toBe(' (not listed: UnprocessableEntityError INSUFFICIENT_FUNDS 4)');
  });

  it('tells causes apart by class and status when there is no service code', () => {
    const lines = new FailureLines();
    const limited = failure('RateLimitError', { status: 429 });
    for (let i = 0; i < LINES_PER_CAUSE + 2; i++) lines.line(`ref-${i}`, limited);
    expect(lines.unlisted()).toBe(' (not listed: RateLimitError (HTTP 429) 2)');
  });

  it('a new code on every answer: past 50 causes they share one, and a long code is cut', () => {
    const lines = new FailureLines();
    for (let i = 0; i < 200; i++) {
      for (let j = 0; j < LINES_PER_CAUSE + 1; j++)
        lines.line(`ref-${i}-${j}`, refused(`CODE_${i}_${'X'.repeat(100)}`));
    }
    const unlisted = lines.unlisted();
    expect(unlisted.match(/UnprocessableEntityError CODE_/g)).toHaveLength(50);
    expect(unlisted).toContain(`other causes ${150 * (LINES_PER_CAUSE + 1) - LINES_PER_CAUSE}`);
    expect(unlisted).not.toContain('X'.repeat(61));
  });
});

describe('ErrorKinds', () => {
  it('prints each kind of BullMQ error once, whatever job it names, and remembers at most 100 kinds', () => {
    const kinds = new ErrorKinds();
    const id = (i: number) => `payouts|20261127T140127-86d39a4b|ref-${i}|50`;
    const said = [
      ...Array.from({ length: 64 }, (_, i) => `could not renew lock for job ${id(i)}`),
      ...Array.from({ length: 64 }, (_, i) => `Missing lock for job ${id(i)}. moveToFinished`),
      'connect ECONNREFUSED 127.0.0.1:6390',
      'connect ECONNREFUSED 127.0.0.1:6390',
    ].filter((message) => kinds.first(message));
    expect(said).toEqual([
      `could not renew lock for job ${id(0)}`,
      `Missing lock for job ${id(0)}. moveToFinished`,
      'connect ECONNREFUSED 127.0.0.1:6390',
    ]);
    for (let i = 0; i < 500; i++) kinds.first(`unheard-of error ${i}`);
    expect(kinds.first('yet another error')).toBe(false);
  });
});
