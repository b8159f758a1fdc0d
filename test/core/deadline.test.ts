/**
 * The one deadline race (core/deadline.ts), as its users meet it: the CLI's wait for a queue's
 * Redis (a hung connection fails naming the address, never its password), and a late result
 * handed to `late` instead of being lost.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { connected, QueueSetupError, queueUrl } from '../../src/cli/queue-connection.js';
import { withDeadline } from '../../src/core/deadline.js';

afterEach(() => vi.useRealTimers());

describe('withDeadline', () => {
  it('a Redis connection that never gets ready fails after 10 s, naming the address without its password', async () => {
    vi.useFakeTimers();
    const waiting = connected(
      { waitUntilReady: () => new Promise(() => {}) },
      queueUrl('redis://:s3cret@127.0.0.1:6390/2'),
    );
    const failed = expect(waiting).rejects.toThrow(QueueSetupError);
    await vi.advanceTimersByTimeAsync(10_000);
    await failed;
    const message = await waiting.catch((e: Error) => e.message);
    expect(message).toMatch(/cannot reach Redis at .*127\.0\.0\.1:6390.*waited 10 s/);
    expect(message).not.toContain('s3cret');
  });

  it('a result after the deadline goes to `late`; one before it is returned and the timer cleared', async () => {
    vi.useFakeTimers();
    let finish: (value: string) => void = () => {};
    const late = vi.fn();
    const slow = withDeadline(
      new Promise<string>((resolve) => {
        finish = resolve;
      }),
      50,
      () => new Error('too slow'),
      late,
    );
    const rejected = expect(slow).rejects.toThrow('too slow');
    await vi.advanceTimersByTimeAsync(50);
    await rejected;
    finish('claimed');
    await vi.advanceTimersByTimeAsync(0);
    expect(late).toHaveBeenCalledWith('claimed');
    await expect(withDeadline(Promise.resolve(1), 50, () => new Error('x'))).resolves.toBe(1);
    expect(vi.getTimerCount()).toBe(0);
  });
});
