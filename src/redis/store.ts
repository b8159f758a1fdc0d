/**
 * RedisDedupeStore: the dedupe state shared by every process that receives webhooks.
 * The client is the merchant's own ioredis or node-redis (v4/v5) instance, passed in; this
 * module never imports either (both are optional peer dependencies). The two APIs differ in
 * argument shapes only, so the store detects which one it was given and speaks it.
 */
import { ConfigurationError } from '../core/errors.js';
import type { DedupeStore } from '../webhooks/store.js';

/** The ioredis calls used here (ioredis `Redis` and `Cluster` both fit). */
export interface IoRedisLike {
  /** Any command (used only to recognise an ioredis client). */
  call(command: string, ...args: unknown[]): Promise<unknown>;
  /** `SET key value PX ttl [NX]`. */
  set(...args: unknown[]): Promise<unknown>;
  /** `GET key`. */
  get(key: string): Promise<unknown>;
  /** `EVAL script 1 key args…` (compare-and-delete, compare-and-set of a lease). */
  eval(...args: unknown[]): Promise<unknown>;
}

/** The node-redis v4/v5 calls used here (`createClient()` and `createCluster()` both fit). */
export interface NodeRedisLike {
  /** Whether the client is connected (node-redis needs `await client.connect()` first). */
  isOpen: boolean;
  /** `SET key value` with `{ NX, PX }` options. */
  set(key: string, value: string, options: object): Promise<unknown>;
  /** `GET key`. */
  get(key: string): Promise<unknown>;
  /** `EVAL` with one key (compare-and-delete, compare-and-set of a lease). */
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

/** A connected ioredis or node-redis (v4/v5) client; the store detects which. */
export type RedisClientLike = IoRedisLike | NodeRedisLike;

/** Options of {@link RedisDedupeStore}. */
export interface RedisDedupeStoreOptions {
  /** Prepended to every key. Default 'payinout:webhook:'. */
  keyPrefix?: string;
}

/** Deletes the key only while it still holds this caller's lease value. */
const DELETE_IF_EQUALS = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;
/** Sets the key (value ARGV[2], PX ARGV[3]) only while it holds ARGV[1]: lease renewal and fenced completion. */
const REPLACE_IF_EQUALS = `if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3]) return 1 end return 0`;

interface Commands {
  setNxPx(key: string, value: string, ttlMs: number): Promise<unknown>;
  setPx(key: string, value: string, ttlMs: number): Promise<unknown>;
  get(key: string): Promise<unknown>;
  evalOneKey(script: string, key: string, args: string[]): Promise<unknown>;
}

function commandsFor(client: unknown): Commands {
  const c = client as Record<string, unknown> | null;
  if (c && typeof c === 'object' && 'isOpen' in c && typeof c.set === 'function') {
    const r = client as NodeRedisLike;
    return {
      // `{ NX, PX }` is the form both v4 and v5 accept (v5 also has `{ condition, expiration }`).
      setNxPx: (key, value, ttlMs) => r.set(key, value, { NX: true, PX: ttlMs }),
      setPx: (key, value, ttlMs) => r.set(key, value, { PX: ttlMs }),
      get: (key) => r.get(key),
      evalOneKey: (script, key, args) => r.eval(script, { keys: [key], arguments: args }),
    };
  }
  if (c && typeof c === 'object' && typeof c.call === 'function' && typeof c.set === 'function') {
    const r = client as IoRedisLike;
    return {
      setNxPx: (key, value, ttlMs) => r.set(key, value, 'PX', ttlMs, 'NX'),
      setPx: (key, value, ttlMs) => r.set(key, value, 'PX', ttlMs),
      get: (key) => r.get(key),
      evalOneKey: (script, key, args) => r.eval(script, 1, key, ...args),
    };
  }
  throw new ConfigurationError(
    'RedisDedupeStore needs a connected ioredis client (new Redis(url)) or node-redis v4/v5 client (createClient({ url }), then await client.connect()).',
  );
}

/**
 * Dedupe state on Redis. Claims use one atomic `SET key value NX PX ttl`, so any number of
 * processes and hosts sharing the Redis see each event as 'new' exactly once; a claim's lease is
 * renewed and completed with a compare-and-set script and released with a compare-and-delete
 * one, both fenced by the claim's token. The deduplicator puts a deadline on every call
 * (`storeTimeoutMs`), so a Redis that is stopped or hung answers 503, whatever the client's
 * reconnect and offline-queue settings.
 * @example
 * // ioredis
 * import { Redis } from 'ioredis';
 * import { createWebhookHandler, WebhookDeduplicator } from 'payinout';
 * import { RedisDedupeStore } from 'payinout/redis';
 *
 * const redis = new Redis(process.env.REDIS_URL);
 * redis.on('error', (error) => console.error('redis', error.message));
 * const store = new RedisDedupeStore(redis);
 * const handler = createWebhookHandler({ token, onEvent, dedupe: new WebhookDeduplicator({ store }) });
 * @example
 * // node-redis v4/v5: listen for 'error' (unhandled, it ends the process), then connect
 * const client = createClient({ url: process.env.REDIS_URL });
 * client.on('error', (error) => console.error('redis', error.message));
 * await client.connect();
 * const store = new RedisDedupeStore(client, { keyPrefix: 'shop:webhooks:' });
 */
export class RedisDedupeStore implements DedupeStore {
  readonly keyPrefix: string;
  readonly #redis: Commands;

  constructor(client: RedisClientLike, options: RedisDedupeStoreOptions = {}) {
    this.#redis = commandsFor(client);
    this.keyPrefix = options.keyPrefix ?? 'payinout:webhook:';
  }

  async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    return (await this.#redis.setNxPx(this.keyPrefix + key, value, wholeMs(ttlMs))) === 'OK';
  }

  /** The value of `key` (after the prefix), or null. */
  async get(key: string): Promise<string | null> {
    const value = await this.#redis.get(this.keyPrefix + key);
    if (value === null || value === undefined) return null;
    return typeof value === 'string' ? value : String(value);
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    await this.#redis.setPx(this.keyPrefix + key, value, wholeMs(ttlMs));
  }

  async deleteIfEquals(key: string, value: string): Promise<void> {
    await this.#redis.evalOneKey(DELETE_IF_EQUALS, this.keyPrefix + key, [value]);
  }

  async replaceIfEquals(key: string, expected: string, value: string, ttlMs: number): Promise<boolean> {
    const args = [expected, value, String(wholeMs(ttlMs))];
    return Number(await this.#redis.evalOneKey(REPLACE_IF_EQUALS, this.keyPrefix + key, args)) === 1;
  }
}

/** PX takes a positive integer. */
const wholeMs = (ttlMs: number) => Math.max(1, Math.ceil(ttlMs));
