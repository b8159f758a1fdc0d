/** Two receiver processes sharing one Redis: each event is processed exactly once across both. */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { delivery, sampleEvent, TOKEN } from '../webhooks/support.js';
import { REDIS_URL, requireRedis, skipRedis, uniquePrefix } from './support.js';

const receiver = fileURLToPath(new URL('./fixtures/receiver.ts', import.meta.url));

function start(
  kind: 'ioredis' | 'node-redis',
  prefix: string,
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', receiver, kind, prefix], {
    env: { ...process.env, REDIS_URL, WEBHOOK_TOKEN: TOKEN },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr?.on('data', (chunk) => {
      stderr += chunk;
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      const port = /port=(\d+)/.exec(chunk.toString())?.[1];
      if (port) resolve({ child, url: `http://127.0.0.1:${port}/webhooks` });
    });
    child.on('exit', (code) => reject(new Error(`receiver exited with ${code}: ${stderr}`)));
  });
}

describe.skipIf(skipRedis)('two receiver processes sharing one Redis', () => {
  const prefix = uniquePrefix('processes');
  const receivers: { child: ChildProcess; url: string }[] = [];
  let redis: Redis;

  beforeAll(async () => {
    requireRedis();
    redis = new Redis(REDIS_URL);
    receivers.push(...(await Promise.all([start('ioredis', prefix), start('node-redis', prefix)])));
  }, 30_000);

  afterAll(() => {
    for (const { child } of receivers) child.kill('SIGTERM');
    redis?.disconnect();
  });

  it('50 concurrent deliveries of one event split over both processes → onEvent exactly once', async () => {
    const { body, headers } = delivery(sampleEvent({ top_ticket: 'PROC-1' }));
    const statuses = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const target = receivers[i % 2]!;
        return (await fetch(target.url, { method: 'POST', body, headers })).status;
      }),
    );
    const processed = await redis.lrange(`${prefix}processed`, 0, -1);
    expect(processed).toHaveLength(1);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);

    // The service's retries, to either process, are answered 200 duplicate and not processed.
    for (const { url } of receivers) {
      const retry = await fetch(url, { method: 'POST', body, headers });
      expect(await retry.json()).toEqual({ received: true, result: 'duplicate' });
    }
    expect(await redis.llen(`${prefix}processed`)).toBe(1);
  });

  it('a different status of the same ticket is processed once too', async () => {
    const { body, headers } = delivery(sampleEvent({ top_ticket: 'PROC-1', top_status: 'PENDING' }));
    await Promise.all(receivers.map(({ url }) => fetch(url, { method: 'POST', body, headers })));
    expect(await redis.llen(`${prefix}processed`)).toBe(2);
  });
});
