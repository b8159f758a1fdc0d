/**
 * Every documented example runs. The TypeScript blocks of each guide (docs/*.md), in order, are
 * one program — the way a reader follows the guide — which must type-check under the repository's
 * strict settings and run to completion against the real simulator (`payinout sandbox`, with the
 * PAYINOUT_* variables it prints). A block that is a fragment on purpose (a framework's route, an
 * alternative to the block before it, something that needs Redis or OpenTelemetry's SDK) says so
 * in its fence, ```ts partial, and is left out; nothing else is. The CSV examples hold only rows
 * sandbox confirm can finish.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confirmableStatuses } from '../../src/api/confirm-support.js';
import type { CountryCode } from '../../src/schemas/catalog.js';
import { killAll, type Started, spawnCli } from '../cli/support.js';
import { codeBlocks, SCRIPT_LANGS } from './markdown.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WORK = `${ROOT}.tmp/guides-${randomUUID()}`;
const GUIDES = readdirSync(`${ROOT}docs`).filter((f) => f.endsWith('.md'));

interface Program {
  guide: string;
  code: string;
  lines: number[];
}

const PROGRAMS: Program[] = GUIDES.flatMap((guide) => {
  const blocks = codeBlocks(readFileSync(`${ROOT}docs/${guide}`, 'utf8')).filter(
    (b) => SCRIPT_LANGS.has(b.lang) && !b.flags.includes('partial'),
  );
  if (blocks.length === 0) return [];
  const code = blocks.map((b) => `// docs/${guide}:${b.line}\n${b.code}`).join('\n');
  return [{ guide, code: `${code}\nexport {};\n`, lines: blocks.map((b) => b.line) }];
});
const file = (p: Program) => `${WORK}/${p.guide.replace(/\.md$/, '')}.mts`;

let sandbox: Started;
const children: ChildProcess[] = [];

beforeAll(async () => {
  await mkdir(WORK, { recursive: true });
  await Promise.all(PROGRAMS.map((p) => writeFile(file(p), p.code)));
  sandbox = await spawnCli(['sandbox', '--port', '0']).started;
}, 30_000);

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  killAll();
  await rm(WORK, { recursive: true, force: true });
});

function collect(child: ChildProcess) {
  children.push(child);
  const out = { stdout: '', stderr: '' };
  child.stdout!.on('data', (chunk) => {
    out.stdout += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    out.stderr += chunk;
  });
  return { out, exit: once(child, 'exit').then(([code]) => code as number | null) };
}

describe('the TypeScript blocks of docs/*.md', () => {
  it('getting-started is one complete program (PayIn, PayOut, errors, webhooks, confirm, the simulator)', () => {
    const started = PROGRAMS.find((p) => p.guide === 'getting-started.md');
    expect(started?.lines.length).toBeGreaterThanOrEqual(8);
    expect(started?.code).toContain('client.payout.create(');
    expect(started?.code).toContain('PayInCreateParamsFor');
  });

  it('type-check as one program per guide (strict, the repository settings)', async () => {
    const config = {
      extends: '../../tsconfig.json',
      include: PROGRAMS.map((p) => file(p).slice(WORK.length + 1)),
    };
    await writeFile(`${WORK}/tsconfig.json`, JSON.stringify(config));
    const tsc = spawn(process.execPath, [`${ROOT}node_modules/typescript/bin/tsc`, '-p', WORK], {
      cwd: ROOT,
    });
    const { out, exit } = collect(tsc);
    expect(await exit, out.stdout).toBe(0);
  }, 90_000);

  it.each(PROGRAMS.map((p) => [p.guide, p] as const))(
    '%s runs to completion against payinout sandbox',
    async (_, program) => {
      const clean = Object.fromEntries(
        Object.entries(process.env).filter(([k]) => !k.startsWith('PAYINOUT_')),
      );
      const child = spawn(process.execPath, ['--import', 'tsx', file(program)], {
        cwd: ROOT,
        env: { ...clean, ...sandbox.env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const { out, exit } = collect(child);
      expect(
        await exit,
        `docs/${program.guide} (blocks at ${program.lines.join(', ')}):\n${out.stderr}`,
      ).toBe(0);
    },
    60_000,
  );
});

describe('the CSV examples', () => {
  const HEADER = /^reference,amount,currency,country,payment_method,/;
  const csvs = [
    ...GUIDES.flatMap((guide) =>
      codeBlocks(readFileSync(`${ROOT}docs/${guide}`, 'utf8'))
        .filter((b) => HEADER.test(b.code))
        .map((b) => ({ where: `docs/${guide}:${b.line}`, text: b.code })),
    ),
    ...readdirSync(`${ROOT}examples`)
      .filter((f) => f.endsWith('.csv'))
      .map((f) => ({ where: `examples/${f}`, text: readFileSync(`${ROOT}examples/${f}`, 'utf8') })),
  ];

  it('hold only PayOuts sandbox confirm can approve (country and method of a row of the guide)', () => {
    expect(csvs.length).toBeGreaterThanOrEqual(2);
    for (const { where, text } of csvs) {
      const [header, ...rows] = text.trim().split('\n');
      const columns = header!.split(',');
      for (const row of rows) {
        const cells = row.split(',');
        const country = cells[columns.indexOf('country')] as CountryCode;
        const method = cells[columns.indexOf('payment_method')]!;
        const statuses = confirmableStatuses({ direction: 'payout', payment_method: method, country });
        expect(statuses ?? [], `${where}: ${cells[0]} (${country} ${method})`).toContain('APPROVED');
      }
    }
  });
});
