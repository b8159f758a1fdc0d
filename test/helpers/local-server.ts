/** A node:http server on 127.0.0.1 for a test: its base URL, and a close that ends every socket. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LocalServer {
  server: http.Server;
  baseUrl: string;
  close(): Promise<void>;
}

export async function startLocalServer(handler: http.RequestListener): Promise<LocalServer> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    baseUrl: `http://127.0.0.1:${port}`,
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
