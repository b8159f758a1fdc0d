/**
 * Raw `node:http` for the HTTP section: the same request as the undici.request scenario, over a
 * keep-alive agent with the settings of payinout's Node sender (src/node/keep-alive.ts: keepAlive,
 * 4 s idle timeout), the body read whole and parsed. It is the floor of anything built on
 * node:http, so its ratio to undici.request tells how much of payinout's gap is node:http's own.
 */
import http from 'node:http';

export type RawNodeHttp = (url: string, method: 'GET' | 'POST', body?: string) => Promise<unknown>;

export function rawNodeHttp(headers: Record<string, string>): { send: RawNodeHttp; close: () => void } {
  const agent = new http.Agent({ keepAlive: true, timeout: 4_000 });
  const send: RawNodeHttp = (url, method, body) =>
    new Promise((resolve, reject) => {
      const sent =
        body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) };
      const req = http.request(url, { method, headers: sent, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
        res.on('error', reject);
      });
      req.on('error', reject).end(body);
    });
  return { send, close: () => agent.destroy() };
}
