/**
 * A TCP proxy in front of Redis that shows the test each command a worker sends before passing it
 * on: the test can freeze the worker (SIGSTOP) at the exact moment it asked Redis something, so
 * Redis's answer waits in the frozen worker's socket until it wakes — the stale "still yours" a
 * long GC or a suspended VM produces.
 */
import net from 'node:net';

export interface RedisProxy {
  url: string;
  close(): Promise<void>;
}

/**
 * `onCommand` runs for each whole command (its arguments as text) before it reaches Redis; when it
 * returns a promise, that command (and everything the connection sends after it) reaches Redis
 * once the promise settles: a test holds a reader between two of its reads.
 */
export async function startRedisProxy(
  redisUrl: string,
  onCommand: (args: string[]) => unknown,
): Promise<RedisProxy> {
  const target = new URL(redisUrl);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 6379), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined).on('close', () => sockets.delete(socket));
    }
    let pending = Buffer.alloc(0);
    let sent: Promise<unknown> = Promise.resolve();
    client.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      const holds: Promise<unknown>[] = [];
      for (let command = takeCommand(pending); command; command = takeCommand(pending)) {
        pending = pending.subarray(command.length);
        const hold = onCommand(command.args);
        if (hold instanceof Promise) holds.push(hold.catch(() => undefined));
      }
      // In order: a held command holds back what follows it on the connection.
      if (holds.length === 0) sent = sent.then(() => upstream.write(chunk));
      else sent = sent.then(() => Promise.all(holds)).then(() => upstream.write(chunk));
    });
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `redis://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** One RESP command (`*N\r\n` then N bulk strings) at the start of `buffer`, if it is whole. */
function takeCommand(buffer: Buffer): { args: string[]; length: number } | undefined {
  const header = readLine(buffer, 0);
  if (!header || buffer[0] !== 0x2a /* '*' */) return undefined;
  const args: string[] = [];
  let offset = header.next;
  for (let i = 0; i < Number(header.text.slice(1)); i++) {
    const size = readLine(buffer, offset);
    if (!size) return undefined;
    const bytes = Number(size.text.slice(1));
    if (buffer.length < size.next + bytes + 2) return undefined;
    args.push(buffer.toString('utf8', size.next, size.next + bytes));
    offset = size.next + bytes + 2;
  }
  return { args, length: offset };
}

function readLine(buffer: Buffer, offset: number): { text: string; next: number } | undefined {
  const end = buffer.indexOf('\r\n', offset);
  return end < 0 ? undefined : { text: buffer.toString('latin1', offset, end), next: end + 2 };
}
