/**
 * `payinout docs [topic]` as a newcomer types it: the list names every shipped guide with a path
 * that exists, a topic prints the path (and heading anchor) of the best match, a typo gets the
 * closest guide name and exit 2.
 */
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { killAll, runCli } from './support.js';

afterEach(killAll);

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const GUIDES = readdirSync(`${ROOT}docs`).filter((f) => f.endsWith('.md'));

describe('payinout docs', () => {
  it('lists every guide with a path to the file', async () => {
    const { code, stdout, stderr } = await runCli(['docs']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    for (const guide of GUIDES) {
      const line = stdout.split('\n').find((l) => l.startsWith(`${guide} `));
      expect(line, guide).toBeDefined();
      const path = line!.split(/\s{2,}/)[1]!;
      expect(existsSync(`${ROOT}${path}`), path).toBe(true);
    }
    expect(stdout).toContain('https://github.com/payinout/payinout/blob/main/docs/');
  }, 30_000);

  it.each([
    ['webhooks', 'docs/webhooks.md'],
    ['bulk', 'docs/bulk-payouts.md'],
    ['raw body', 'docs/webhooks.md#raw-bodies-framework-by-framework'],
    ['tracing', 'docs/observability.md'],
  ])(
    '"%s" prints the path of %s, then its address',
    async (topic, expected) => {
      const { code, stdout } = await runCli(['docs', ...topic.split(' ')]);
      expect(code).toBe(0);
      const [path, url] = stdout.trim().split('\n');
      expect(path).toBe(expected);
      expect(existsSync(`${ROOT}${path!.split('#')[0]}`)).toBe(true);
      expect(url).toBe(`https://github.com/payinout/payinout/blob/main/${expected}`);
    },
    30_000,
  );

  it('a typo: the closest guide name, nothing on stdout, exit 2 (usage)', async () => {
    const { code, stdout, stderr } = await runCli(['docs', 'webhoks']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/no guide or heading matches "webhoks"; did you mean webhooks\?/);
  }, 30_000);

  it('nothing close: the list of guide names, exit 2', async () => {
    const { code, stderr } = await runCli(['docs', 'xyzzy']);
    expect(code).toBe(2);
    expect(stderr).toContain('guides: architecture, bulk-payouts');
  }, 30_000);
});
