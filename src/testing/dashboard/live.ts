/**
 * Live updates for the dashboard over server-sent events: a change (creation, status change,
 * webhook attempt) becomes one `change` event at most every {@link COALESCE_MS}, so the page
 * refreshes within a second without a storm of events under a burst. An event names nothing
 * but a sequence number; the page re-reads what it shows with its own credentials, so a
 * merchant-scoped page never learns about another merchant's data.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export const COALESCE_MS = 100;
const HEARTBEAT_MS = 15_000;

interface Client {
  readonly res: ServerResponse;
  /** Only changes of this merchant reach it; undefined: every change. */
  readonly merchant: string | undefined;
  dirty: boolean;
}

export class LiveHub {
  readonly #clients = new Set<Client>();
  #timer: NodeJS.Timeout | undefined;
  #sequence = 0;
  readonly #heartbeat: NodeJS.Timeout;

  constructor() {
    this.#heartbeat = setInterval(() => this.#write(': keep-alive\n\n'), HEARTBEAT_MS);
    this.#heartbeat.unref();
  }

  /** Answers GET /dashboard/events and keeps the response open. */
  open(req: IncomingMessage, res: ServerResponse, headers: Record<string, string>, merchant?: string): void {
    res.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    });
    // retry: how soon EventSource reconnects after the simulator restarts.
    res.write(`retry: 500\nevent: change\ndata: ${this.#sequence}\n\n`);
    const client: Client = { res, merchant, dirty: false };
    this.#clients.add(client);
    req.on('close', () => this.#clients.delete(client));
  }

  /** Something of `merchant` changed. */
  changed(merchant: string): void {
    for (const client of this.#clients) {
      if (client.merchant === undefined || client.merchant === merchant) client.dirty = true;
    }
    this.#timer ??= setTimeout(() => this.#flush(), COALESCE_MS);
  }

  /** Something every viewer sees changed (the fault rules). */
  changedAll(): void {
    for (const client of this.#clients) client.dirty = true;
    this.#timer ??= setTimeout(() => this.#flush(), COALESCE_MS);
  }

  close(): void {
    clearInterval(this.#heartbeat);
    clearTimeout(this.#timer);
    for (const client of this.#clients) client.res.end();
    this.#clients.clear();
  }

  #flush(): void {
    this.#timer = undefined;
    const message = `event: change\ndata: ${++this.#sequence}\n\n`;
    for (const client of this.#clients) {
      if (!client.dirty) continue;
      client.dirty = false;
      client.res.write(message);
    }
  }

  #write(text: string): void {
    for (const client of this.#clients) client.res.write(text);
  }
}
