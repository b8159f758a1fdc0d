/**
 * A TCP proxy on loopback in front of the test Redis, so a test can make "Redis" hang (pause:
 * bytes are held, as with a SIGSTOPped server) or go down (every socket destroyed, port closed)
 * and come back, without touching the redis-server other suites share.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface RedisProxy {
  url: string;
  /** Stop forwarding (connections stay open, nothing is answered). */
  pause(): void;
  /** Forward again, including what was held. */
  resume(): void;
  /** Destroy every connection and stop listening: connection refused. */
  down(): Promise<void>;
  /** Listen again on the same port. */
  up(): Promise<void>;
  close(): Promise<void>;
}

export async function startRedisProxy(redisUrl: string): Promise<RedisProxy> {
  const target = new URL(redisUrl);
  const sockets = new Set<Socket>();
  let paused = false;
  const held: (() => void)[] = [];

  const pipe = (from: Socket, to: Socket) =>
    from.on('data', (chunk) => (paused ? held.push(() => to.write(chunk)) : to.write(chunk)));

  const onConnection = (client: Socket) => {
    const upstream = connect(Number(target.port || 6379), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    pipe(client, upstream);
    pipe(upstream, client);
  };

  let server: Server = createServer(onConnection);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;

  return {
    url: `redis://127.0.0.1:${port}`,
    pause: () => {
      paused = true;
    },
    resume: () => {
      paused = false;
      for (const write of held.splice(0)) write();
    },
    down: async () => {
      held.length = 0;
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    up: async () => {
      server = createServer(onConnection);
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A loopback server that accepts connections and never answers a byte. */
export async function startSilentServer(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `redis://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
