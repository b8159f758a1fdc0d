/** Shared fixtures of the webhook suites: a token, a genuine event with PII, and signing done independently. */
import { createHash } from 'node:crypto';

export const TOKEN = 'tok_live_4f9a8b7c6d5e';

/** A genuine delivery's payload; the PII values must never show up in an error message. */
export const PII = {
  legal_doc: '1032456789',
  email: 'maria.gomez@example.com',
  phone_number: '3115550199',
  full_name: 'Maria Gomez Restrepo',
};

export function sampleEvent(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    top_status: 'APPROVED',
    top_ticket: 'TCK-0001',
    top_reference: 'order-1001',
    top_amount: 150000,
    top_currency: 'COP',
    top_payment_method: 'PSE',
    top_bank_name: 'Banka',
    top_response_message: 'Aprobada',
    top_user: { legal_doc_type: 'CC', phone_code: '57', ...PII },
    ...overrides,
  };
}

/** sha256 hex computed here with node:crypto, not through the SDK (known-vector style). */
export const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

export const jsonSignature = (token: string, ticket: string, reference: string) =>
  sha256(JSON.stringify({ token, ticket, reference }));

/** A signed JSON delivery built by hand. */
export function delivery(event: Record<string, unknown> = sampleEvent(), token = TOKEN) {
  const body = JSON.stringify(event);
  const headers = {
    'content-type': 'application/json',
    'x-trx-signature': jsonSignature(token, String(event.top_ticket), String(event.top_reference)),
  };
  return { body, headers };
}

/** True when a text leaks the token or any PII value. */
export function leaksSecrets(text: string): boolean {
  return [TOKEN, ...Object.values(PII)].some((secret) => text.includes(secret));
}

/** A handler behind a real node:http server on loopback; deliveries go through HTTP. */
export async function serveHandler(handler: { node(req: never, res: never): Promise<void> }) {
  const { createServer } = await import('node:http');
  const server = createServer((req, res) => void handler.node(req as never, res as never));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const url = `http://127.0.0.1:${port}/webhooks`;
  return {
    url,
    post: async (d: { body: string; headers: Record<string, string> }) => {
      const response = await fetch(url, { method: 'POST', body: d.body, headers: d.headers });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A logger that keeps its lines, for asserting on warnings and errors. */
export function recordingLogger() {
  const lines: { level: string; message: string }[] = [];
  const at = (level: string) => (message: string) => void lines.push({ level, message });
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sends `probe` every `everyMs` while `first` is pending; keeps the statuses of the probes that
 * were both sent and answered before `first` settled (on a loaded machine a late one may
 * legitimately see the finished event).
 */
export async function whileRunning<T extends { status: number }>(
  first: Promise<T>,
  probe: () => Promise<{ status: number }>,
  everyMs: number,
): Promise<{ first: T; statuses: number[] }> {
  let settled = false;
  const done = first.finally(() => {
    settled = true;
  });
  const statuses: number[] = [];
  while (!settled) {
    await Promise.race([sleep(everyMs), done]);
    if (settled) break;
    const { status } = await probe();
    if (!settled) statuses.push(status);
  }
  return { first: await done, statuses };
}
