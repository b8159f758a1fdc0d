/**
 * What the queue commands ask of Redis beyond BullMQ: that the database in `--queue …/DB` is the
 * one used (a failed SELECT must not leave the connection on database 0, where another
 * application's queue of the same name could be), and that Redis answers within a bounded time
 * (BullMQ's connection waits for a reconnect forever; a command line must not).
 */
import { withDeadline } from '../core/deadline.js';
import { type QueueConnection, QueueSetupError, shownUrl } from './queue-connection.js';

/** How long one Redis step of `payouts send` may go unanswered before the command gives up. */
export const ANSWER_MS = 10_000;

/**
 * Connects once on database 0 and selects the wanted one explicitly, so a server without it
 * refuses here — ioredis reports a failed SELECT as an 'error' event and goes on on database 0.
 * @throws QueueSetupError naming the URL and the database, before anything is enqueued or run
 */
export async function checkDatabase(connection: QueueConnection): Promise<void> {
  const { Redis } = await import('ioredis');
  const probe = new Redis({
    ...connection,
    db: 0,
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: ANSWER_MS,
  });
  probe.on('error', () => undefined); // reported below, once
  try {
    await probe.connect().catch((error: Error) => {
      throw new QueueSetupError(
        `cannot reach Redis at ${shownUrl(connection)} (${error.message}); check --queue and that Redis is running. Nothing was enqueued or settled.`,
      );
    });
    if (connection.db === 0) return;
    await probe.select(connection.db).catch((error: Error) => {
      throw new QueueSetupError(
        `Redis at ${shownUrl(connection)} refused database ${connection.db} (${error.message}): this server has fewer databases (see CONFIG GET databases). Nothing was enqueued or settled; choose a database it has in --queue.`,
      );
    });
  } finally {
    probe.disconnect();
  }
}

/** Redis stopped answering mid-run; the message says what was done before. */
export class RedisLostError extends QueueSetupError {}

/**
 * `work`, or a RedisLostError once Redis has not answered it for `ms`. `done` words what is
 * already done and what to do next, read when the time is up (so it counts what happened until
 * then).
 */
export function answered<T>(
  work: Promise<T>,
  connection: QueueConnection,
  done: () => string,
  ms = ANSWER_MS,
): Promise<T> {
  return withDeadline(
    work,
    ms,
    () =>
      new RedisLostError(
        `Redis at ${shownUrl(connection)} stopped answering (nothing for ${ms / 1000} s). ${done()}`,
      ),
  );
}

/** Closes a queue, or drops its connection when Redis cannot take the goodbye in time. */
export async function closeQueue(queue: { close(): Promise<void>; disconnect(): Promise<void> }) {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), 2_000);
  });
  try {
    const closed = await Promise.race([queue.close().then(() => 'closed' as const), late]);
    // Not awaited: with Redis gone it may never settle, and nothing else keeps the process up.
    if (closed === 'late') void queue.disconnect().catch(() => undefined);
  } catch {
    void queue.disconnect().catch(() => undefined);
  } finally {
    clearTimeout(timer);
  }
}
