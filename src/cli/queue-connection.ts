/**
 * `--queue redis://[user:pass@]HOST:PORT[/DB]` (or rediss:// for TLS) as BullMQ connection
 * options, for `payouts send --queue` and `payouts worker`. Read without bullmq, so a mistyped
 * URL is a usage error before anything is loaded or enqueued.
 */
import { InvalidArgumentError } from 'commander';
import { withDeadline } from '../core/deadline.js';
import { UsageError } from './errors.js';

export interface QueueConnection {
  host: string;
  port: number;
  db: number;
  username?: string;
  password?: string;
  tls?: Record<string, never>;
  /** BullMQ requires this of a Worker's connection: a command waits for a reconnect. */
  maxRetriesPerRequest: null;
}

export function queueUrl(value: string): QueueConnection {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError(
      'Expected a Redis URL, e.g. redis://127.0.0.1:6379 or redis://HOST:PORT/DB.',
    );
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    throw new InvalidArgumentError('Expected a redis:// or rediss:// URL, e.g. redis://127.0.0.1:6379.');
  }
  const db = url.pathname.replace(/^\//, '');
  if (db !== '' && !/^\d{1,2}$/.test(db)) {
    throw new InvalidArgumentError(
      'The database after the port must be a number, e.g. redis://127.0.0.1:6379/2.',
    );
  }
  const connection: QueueConnection = {
    host: url.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1',
    port: url.port ? Number(url.port) : 6379,
    db: db === '' ? 0 : Number(db),
    maxRetriesPerRequest: null,
  };
  if (url.username) connection.username = decodeURIComponent(url.username);
  if (url.password) connection.password = decodeURIComponent(url.password);
  if (url.protocol === 'rediss:') connection.tls = {};
  return connection;
}

/** The URL as it may be shown: without its password. */
export function shownUrl(connection: QueueConnection): string {
  const scheme = connection.tls ? 'rediss' : 'redis';
  const user = connection.username ? `${connection.username}@` : '';
  return `${scheme}://${user}${connection.host}:${connection.port}/${connection.db}`;
}

/** Queue names become Redis keys; BullMQ refuses ':'. */
export function queueName(value: string): string {
  if (!/^[A-Za-z0-9._-]{1,100}$/.test(value)) {
    throw new InvalidArgumentError('Expected 1-100 letters, digits, ".", "_" or "-", e.g. payouts.');
  }
  return value;
}

/** The same rule as enqueuePayOuts' batchId. */
export function batchIdOption(value: string): string {
  if (!/^[A-Za-z0-9._-]{1,100}$/.test(value)) {
    throw new InvalidArgumentError('Expected 1-100 letters, digits, ".", "_" or "-", e.g. payday-2025-06.');
  }
  return value;
}

/** bullmq is an optional peer: loading payinout/bullmq without it says what to install. */
export async function loadQueueModule(): Promise<typeof import('../bullmq/index.js')> {
  // BullMQ 6 no longer brings ioredis (BullMQ 5 depends on it); the CLI connects with it.
  const missing = [
    ...((await resolvable(() => import('../bullmq/index.js'))) ? [] : ['bullmq']),
    ...((await resolvable(() => import('ioredis'))) ? [] : ['ioredis']),
  ];
  if (missing.length) {
    // A setup refused before anything was enqueued or sent: a usage error (exit 2), as help says.
    throw new UsageError(
      `the queue needs ${missing.join(' and ')}: npm install bullmq ioredis (bullmq 5 or 6).`,
    );
  }
  return import('../bullmq/index.js');
}

async function resolvable(load: () => Promise<unknown>): Promise<boolean> {
  try {
    await load();
    return true;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') return false;
    throw error;
  }
}

/** The queue cannot be used as asked (no bullmq, no Redis): nothing was enqueued or settled. */
export class QueueSetupError extends Error {}

const CONNECT_MS = 10_000;

/** Waits for BullMQ's connection, or fails after 10 s naming the URL (ioredis would retry forever). */
export async function connected(thing: { waitUntilReady(): Promise<unknown> }, connection: QueueConnection) {
  const waited = `cannot reach Redis at ${shownUrl(connection)} (waited ${CONNECT_MS / 1000} s); check --queue and that Redis is running.`;
  await withDeadline(thing.waitUntilReady(), CONNECT_MS, () => new QueueSetupError(waited));
}
