#!/usr/bin/env node
/**
 * `payinout sandbox`: the local simulator on a port, for any language or tool.
 * Prints `base_url=<url>` and one `merchant …` line per merchant on stdout, then serves until
 * SIGINT or SIGTERM, when it closes the server and exits 0.
 */
import { parseArgs } from 'node:util';
import { Command, CommanderError } from 'commander';
import { registerOpenApi } from './cli/openapi.js';
import { COUNTRY_CODES, type CountryCode } from './schemas/catalog.js';
import { startSandboxServer } from './testing/server.js';
import type { SandboxEnvironment, SandboxMerchantSeed } from './testing/types.js';
import { VERSION } from './version.js';

const USAGE = `Usage: payinout sandbox [options]
       payinout payouts send FILE.csv [--concurrency N] [--out RESULTS.csv] [--dry-run]   (see payinout payouts send --help)
       payinout openapi [--server URL]   print the service's OpenAPI 3.1 document

Starts the local payinout sandbox simulator (docs/simulator.md).

Options:
  --port N                      port to listen on (default 4010, or a free port if 4010 is taken; 0 = any free port)
  --host H                      interface to bind (default 127.0.0.1)
  --merchant USER:PASS:TOKEN:CC  a merchant (repeatable); CC is one of ${COUNTRY_CODES.join(', ')}.
                                Without --merchant, one demo merchant per country is created.
  --time-scale F                multiply simulated delays (webhook retries, auto-completion), e.g. 0.001
  --environment E               staging (default), uat or production (sandbox confirm answers 404)
  --payout-submission-delay MS  time before a new PayOut reaches the bank and can be confirmed (default 0)
  -h, --help                    show this help
  -v, --version                 print the version
`;

const DEFAULT_PORT = 4010;

class UsageError extends Error {}

function parseMerchant(spec: string): SandboxMerchantSeed {
  const parts = spec.split(':');
  const [username, password, token, country] = parts;
  if (parts.length !== 4 || !username || !password || !token || !country) {
    throw new UsageError(`--merchant '${spec}' must be USER:PASS:TOKEN:COUNTRY.`);
  }
  const code = country.toUpperCase();
  if (!(COUNTRY_CODES as readonly string[]).includes(code)) {
    throw new UsageError(`--merchant country '${country}' must be one of ${COUNTRY_CODES.join(', ')}.`);
  }
  return { username, password, token, country: code as CountryCode };
}

function number(name: string, value: string | undefined, check: (n: number) => boolean): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || !check(n)) throw new UsageError(`--${name} '${value}' is not valid.`);
  return n;
}

async function sandbox(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      merchant: { type: 'string', multiple: true },
      'time-scale': { type: 'string' },
      environment: { type: 'string' },
      'payout-submission-delay': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const port = number('port', values.port, (n) => Number.isInteger(n) && n >= 0 && n < 65536);
  const timeScale = number('time-scale', values['time-scale'], (n) => n > 0);
  const delay = number('payout-submission-delay', values['payout-submission-delay'], (n) => n >= 0);
  const environment = (values.environment ?? 'staging').toLowerCase();
  if (!['staging', 'uat', 'production'].includes(environment)) {
    throw new UsageError(`--environment '${values.environment}' must be staging, uat or production.`);
  }
  const merchants = values.merchant?.map(parseMerchant);
  const options = {
    host: values.host ?? '127.0.0.1',
    environment: environment as SandboxEnvironment,
    ...(merchants ? { merchants } : {}),
    ...(timeScale === undefined ? {} : { timeScale }),
    ...(delay === undefined ? {} : { payoutSubmissionDelayMs: delay }),
  };
  // Handlers go in before anything is printed: until Node has a listener, SIGINT/SIGTERM
  // kill the process at once, and a supervisor may signal as soon as it reads base_url.
  let server: Awaited<ReturnType<typeof startSandboxServer>> | undefined;
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`payinout sandbox: ${signal}, stopping\n`);
    (server ? server.close() : Promise.resolve()).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  try {
    server = await startSandboxServer({ ...options, port: port ?? DEFAULT_PORT });
  } catch (error) {
    // The default port is a convenience: when it is taken, any free port will do.
    if (port !== undefined || (error as { code?: string }).code !== 'EADDRINUSE') throw error;
    server = await startSandboxServer({ ...options, port: 0 });
  }

  const lines = [`base_url=${server.url}`, `environment=${server.sandbox.environment}`];
  for (const m of server.sandbox.merchants) {
    lines.push(
      `merchant username=${m.username} password=${m.password} token=${m.token} country=${m.country} currency=${m.currency}`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  process.stderr.write(
    `payinout sandbox ${VERSION} listening on ${server.url} (Ctrl+C to stop). These are sandbox-only credentials.\n`,
  );
}

/** `payinout payouts …` (src/cli/payouts.ts), loaded only when asked for: the CSV libraries stay out of `sandbox`. */
async function payouts(argv: string[]): Promise<number> {
  const [{ Command, CommanderError }, { registerPayoutsCommand }] = await Promise.all([
    import('commander'),
    import('./cli/payouts.js'),
  ]);
  const program = new Command('payinout').exitOverride();
  registerPayoutsCommand(program);
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2; // commander printed it
    throw error;
  }
  return -1; // the command set process.exitCode
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === '-v' || command === '--version') {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  if (command === undefined || command === '-h' || command === '--help') {
    process.stdout.write(USAGE);
    return command === undefined ? 2 : 0;
  }
  if (command === 'payouts') return payouts(argv);
  if (command === 'openapi') {
    const program = new Command('payinout').exitOverride();
    registerOpenApi(program);
    try {
      await program.parseAsync(['openapi', ...rest], { from: 'user' });
      return 0;
    } catch (error) {
      // commander has printed the help or the usage error already.
      if (!(error instanceof CommanderError)) throw error;
      return error.code === 'commander.helpDisplayed' ? 0 : 2;
    }
  }
  if (command !== 'sandbox') {
    process.stderr.write(`payinout: unknown command '${command}'.\n\n${USAGE}`);
    return 2;
  }
  await sandbox(rest);
  return -1;
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (error: unknown) => {
    const usage =
      error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    process.stderr.write(`payinout: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = usage ? 2 : 1;
  },
);
