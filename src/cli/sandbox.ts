/**
 * `payinout sandbox`: the local simulator on a port, for any language or tool. Prints
 * `base_url=`, `dashboard=`, the merchants and ready-to-paste `export PAYINOUT_…` lines on
 * stdout, then serves until SIGINT or SIGTERM, when it closes the server and exits 0.
 */
import { type Command, Option } from 'commander';
import { ENV_VARS } from '../client-options.js';
import { MAX_TIMER_MS } from '../core/limits.js';
import { COUNTRY_CODES } from '../schemas/catalog.js';
import type { FaultRuleInput } from '../testing/faults/rule.js';
import { isLoopbackHost } from '../testing/host.js';
import {
  type SandboxServer,
  type SandboxServerOptions,
  serverSandbox,
  startSandboxServer,
} from '../testing/server.js';
import type { SandboxEnvironment, SandboxMerchantSeed } from '../testing/types.js';
import { VERSION } from '../version.js';
import { UsageError } from './errors.js';
import { httpUrl, integerIn, merchant, timeScale } from './options.js';
import { faultSpec, faultStartupLines } from './sandbox-faults.js';
import { createSandboxLog, type LogFormat, type SandboxLog } from './sandbox-log.js';
import { stdoutHasColour } from './terminal.js';

export const DEFAULT_PORT = 4010;
/** Ports tried after the first before any free port: a stable URL is nicer to bookmark. */
const NEARBY_PORTS = 9;
/** Sets the first port tried when --port is not given (a second sandbox, a test that holds its own port). */
export const FIRST_PORT_VARIABLE = 'PAYINOUT_SANDBOX_PORT';

interface SandboxFlags {
  port?: number;
  host: string;
  merchant?: SandboxMerchantSeed[];
  timeScale?: number;
  environment: SandboxEnvironment;
  payoutSubmissionDelay?: number;
  forwardWebhooks?: string;
  webhookConcurrency?: number;
  maxTransactions?: number;
  seed?: number;
  fault?: FaultRuleInput[];
  quiet?: boolean;
  log: LogFormat;
}

export function registerSandbox(program: Command): void {
  program
    .command('sandbox')
    .description('Start the local payinout simulator: the whole API, signed webhooks and a live dashboard.')
    .addOption(
      new Option(
        '--port <n>',
        `port to listen on; 0 = any free port (default $${FIRST_PORT_VARIABLE} or ${DEFAULT_PORT}, or a nearby free one)`,
      ).argParser(integerIn(0, 65_535)),
    )
    .option(
      '--host <host>',
      'interface to bind; on any non-loopback address demo merchants get random passwords and tokens (printed once) and the dashboard asks for a merchant login',
      '127.0.0.1',
    )
    .addOption(
      new Option(
        '--merchant <USER:PASS:TOKEN:COUNTRY>',
        `a merchant (repeatable; COUNTRY one of ${COUNTRY_CODES.join(', ')}); default one demo merchant per country`,
      ).argParser(merchant),
    )
    .addOption(
      new Option(
        '--time-scale <factor>',
        'multiply simulated delays (webhook retries, auto-completion), e.g. 0.001',
      ).argParser(timeScale),
    )
    .addOption(
      new Option(
        '--environment <name>',
        'the environment played; production answers sandbox confirm with 404',
      )
        .choices(['staging', 'uat', 'production'])
        .default('staging'),
    )
    .addOption(
      new Option(
        '--payout-submission-delay <ms>',
        'time before a new PayOut reaches the bank and can be confirmed (default 0)',
      ).argParser(integerIn(0, MAX_TIMER_MS)),
    )
    .addOption(
      new Option(
        '--forward-webhooks <url>',
        "deliver every webhook to this URL instead of the transaction's ipn_url",
      ).argParser(httpUrl),
    )
    .addOption(
      new Option('--webhook-concurrency <n>', 'webhook attempts in flight at once (default 16)').argParser(
        integerIn(1, 1_024),
      ),
    )
    .addOption(
      new Option(
        '--max-transactions <n>',
        'bound memory: beyond N transactions the oldest final ones (and their webhook deliveries) are forgotten, never a pending one (default: keep all)',
      ).argParser(integerIn(1, Number.MAX_SAFE_INTEGER)),
    )
    .addOption(
      new Option(
        '--fault <SPEC>',
        'a fault rule, OPERATION:KIND[:key=value,...] (repeatable), e.g. payout.create:drop-after-commit:rate=0.05',
      ).argParser(faultSpec),
    )
    .addOption(
      new Option(
        '--seed <n>',
        "seed of the fault rules' rate draws: the same seed repeats a run (default random, printed)",
      ).argParser(integerIn(0, 0x7fff_ffff)),
    )
    .option('--quiet', 'print only the startup lines, no line per request or webhook attempt')
    .addOption(
      new Option('--log <format>', 'request and webhook lines as text or one JSON object per line')
        .choices(['text', 'json'])
        .default('text'),
    )
    .addHelpText(
      'after',
      "\nExamples:\n  payinout sandbox\n  payinout sandbox --seed 7 --fault payout.create:drop-after-commit:rate=0.05 --fault '*:status:status=503,rate=0.01'\n  payinout sandbox --port 0 --time-scale 0.001\n  payinout sandbox --max-transactions 100000\n  payinout sandbox --forward-webhooks http://localhost:3000/webhooks\n",
    )
    .action((flags: SandboxFlags) => runSandbox(flags));
}

async function runSandbox(flags: SandboxFlags): Promise<void> {
  const options: SandboxServerOptions = {
    host: flags.host,
    environment: flags.environment,
    ...(flags.merchant ? { merchants: flags.merchant } : {}),
    ...(flags.timeScale === undefined ? {} : { timeScale: flags.timeScale }),
    ...(flags.payoutSubmissionDelay === undefined
      ? {}
      : { payoutSubmissionDelayMs: flags.payoutSubmissionDelay }),
    ...(flags.forwardWebhooks === undefined ? {} : { forwardWebhooksTo: flags.forwardWebhooks }),
    ...(flags.webhookConcurrency === undefined ? {} : { webhookConcurrency: flags.webhookConcurrency }),
    ...(flags.maxTransactions === undefined ? {} : { maxTransactions: flags.maxTransactions }),
    ...(flags.seed === undefined ? {} : { seed: flags.seed }),
    ...(flags.fault ? { faults: flags.fault } : {}),
  };
  // Made once the sandbox exists (its merchants' credentials are what the lines are scrubbed of).
  let log: SandboxLog | undefined;
  if (!flags.quiet) options.onRequest = (record) => log?.request(record);
  // Handlers go in before anything is printed: until Node has a listener, SIGINT/SIGTERM
  // kill the process at once, and a supervisor may signal as soon as it reads base_url.
  let server: SandboxServer | undefined;
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
  server = await listen(options, flags.port);
  if (!flags.quiet) {
    const secrets = server.sandbox.merchants.flatMap((m) => [m.password, m.token]);
    log = createSandboxLog(flags.log, flags.log === 'text' && stdoutHasColour(), secrets);
    server.sandbox.onWebhookAttempt(log.webhook);
  }
  process.stdout.write(banner(server, flags.forwardWebhooks));
  process.stderr.write(
    `payinout sandbox ${VERSION} listening on ${server.url} (Ctrl+C to stop). Dashboard: ${server.dashboardUrl}\n` +
      'These are sandbox-only credentials.\n' +
      (flags.maxTransactions === undefined
        ? ''
        : `Keeping at most ${flags.maxTransactions} transactions: beyond that the oldest final ones are forgotten.\n`),
  );
  if (!isLoopbackHost(flags.host)) process.stderr.write(networkWarning(flags));
}

/** The port asked for; without one the default, then the next few, then any free port. */
async function listen(options: SandboxServerOptions, port: number | undefined): Promise<SandboxServer> {
  if (port !== undefined) {
    return startSandboxServer({ ...options, port }).catch((error: unknown) => {
      if ((error as { code?: string }).code !== 'EADDRINUSE') throw error;
      throw new Error(
        `port ${port} on ${options.host ?? '127.0.0.1'} is in use: stop what listens there, pick another --port, or leave --port out to get a free one.`,
      );
    });
  }
  const sandbox = serverSandbox({ ...options, host: options.host ?? '127.0.0.1' });
  const first = firstPort();
  for (let candidate = first; candidate <= first + NEARBY_PORTS + 1; candidate++) {
    const last = candidate > first + NEARBY_PORTS || candidate > 65_535;
    try {
      const server = await startSandboxServer({ ...options, sandbox, port: last ? 0 : candidate });
      if (server.port !== first) {
        process.stderr.write(
          `payinout sandbox: port ${first} is in use; listening on port ${server.port} instead (choose one with --port).\n`,
        );
      }
      return server;
    } catch (error) {
      if ((error as { code?: string }).code !== 'EADDRINUSE' || last) throw error;
    }
  }
  throw new Error('unreachable');
}

/** The first port tried without --port: $PAYINOUT_SANDBOX_PORT when set, else 4010. */
function firstPort(): number {
  const value = process.env[FIRST_PORT_VARIABLE];
  if (value === undefined || value === '') return DEFAULT_PORT;
  try {
    return integerIn(1, 65_535)(value);
  } catch (error) {
    throw new UsageError(`${FIRST_PORT_VARIABLE}='${value}' is invalid. ${(error as Error).message}`);
  }
}

/** Bound beyond loopback: anyone who can reach the port can use the API with those credentials. */
function networkWarning(flags: SandboxFlags): string {
  const credentials = flags.merchant
    ? 'the --merchant credentials above'
    : 'the demo merchants above, which got random passwords and tokens for this run (printed only here, once)';
  return (
    `payinout sandbox: WARNING: bound to ${flags.host}, so this simulator is reachable from the network. ` +
    `Anyone who can reach the port can call the API with ${credentials}; the dashboard asks for a merchant's username and password. ` +
    'Bind to 127.0.0.1 (the default) unless another machine needs it.\n'
  );
}

function banner(server: SandboxServer, forward: string | undefined): string {
  const { sandbox } = server;
  const lines = [
    `base_url=${server.url}`,
    `dashboard=${server.dashboardUrl}`,
    `environment=${sandbox.environment}`,
  ];
  if (forward) lines.push(`forward_webhooks=${forward}`);
  lines.push(...faultStartupLines(sandbox.faults));
  for (const m of sandbox.merchants) {
    lines.push(
      `merchant username=${m.username} password=${m.password} token=${m.token} country=${m.country} currency=${m.currency}`,
    );
  }
  const first = sandbox.merchants[0];
  if (first) {
    lines.push(
      '',
      `# Point PaymentClient.fromEnv() and payinout get/confirm at ${first.username} (${first.country}):`,
    );
    const env: [string, string][] = [
      [ENV_VARS.baseUrl, server.url],
      [ENV_VARS.username, first.username],
      [ENV_VARS.password, first.password],
      [ENV_VARS.token, first.token],
      [ENV_VARS.environment, sandbox.environment],
    ];
    for (const [name, value] of env) lines.push(`export ${name}=${shellQuote(value)}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Safe to paste into sh/bash/zsh whatever the merchant's credentials contain. */
function shellQuote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}
