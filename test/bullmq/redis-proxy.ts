/**
 * A TCP proxy in front of Redis that shows the test each command a worker sends before passing it
 * on: the test can freeze the worker (SIGSTOP) at the exact moment it asked Redis something, so
 * Redis's answer waits in the frozen worker's socket until it wakes — the stale "still yours" a
 * long GC or a suspended VM produces. `onCommand` may also hold a command (return a promise):
 * it and every later command of that connection reach Redis once the promise settles, so a test
 * can land something else between two commands of one client. It may instead return
 * `{ replace }`: Redis gets that command in its place (an error reply where a write was refused).
 */
import net from 'node:net';

export interface RedisProxy {
  url: string;
  close(): Promise<void>;
}

/** What becomes of a command: passed on (nothing), held until the promise settles, or replaced. */
export type CommandAction = undefined | Promise<void> | { replace: string[] };

/**
 * `onCommand` runs for each whole command (its arguments as text) before it reaches Redis; a
 * promise it returns holds that command, and the connection's later ones, until it settles.
 */
export async function startRedisProxy(
  redisUrl: string,
  // biome-ignore lint/suspicious/noConfusingVoidType: a callback without a return passes the command on
  onCommand: (args: string[]) => CommandAction | void,
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
    // Commands behind a held one wait for it, in order; none held: each is written at once.
    let held: Promise<void> | undefined;
    const holdUntil = (done: Promise<void>) => {
      held = done;
      void done.then(() => {
        if (held === done) held = undefined;
      });
    };
    const forward = (args: string[], bytes: Buffer) => {
      const send = (action: CommandAction) =>
        void upstream.write(action && 'replace' in action ? encode(action.replace) : bytes);
      // What `onCommand` says, done: a promise it returns is what holds the connection.
      const decide = (): Promise<void> | undefined => {
        const action = onCommand(args);
        if (action instanceof Promise) return action.then(() => send(undefined));
        send(action ?? undefined);
        return undefined;
      };
      if (held) return holdUntil(held.then(decide));
      const hold = decide();
      if (hold) holdUntil(hold);
    };
    client.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      for (let command = takeCommand(pending); command; command = takeCommand(pending)) {
        forward(command.args, pending.subarray(0, command.length));
        pending = pending.subarray(command.length);
      }
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

/** `args` as one RESP command. */
function encode(args: string[]): Buffer {
  const parts = args.map((arg) => `$${Buffer.byteLength(arg)}\r\n${arg}\r\n`);
  return Buffer.from(`*${args.length}\r\n${parts.join('')}`);
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
