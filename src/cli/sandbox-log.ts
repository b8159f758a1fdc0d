/**
 * The sandbox terminal: one line per API request (time, method, operation, merchant, reference
 * or ticket, status, ms, the fault that fired) and one per webhook attempt (event status,
 * reference, URL, answer status, next retry). Redacted: no header, body or answer is shown, a
 * URL loses its user info and query values, and the merchants' passwords and tokens are
 * scrubbed from every field. Text or `--log json` (one object per line); printed through
 * terminal.ts, coloured only on a TTY.
 */
import { scrubText } from '../core/redact.js';
import type { WebhookAttempt, WebhookDelivery } from '../testing/delivery.js';
import type { SandboxRequestRecord } from '../testing/exchange.js';
import { type Part, printOutLine, type Style } from './terminal.js';

export type LogFormat = 'text' | 'json';

export interface SandboxLog {
  request(record: SandboxRequestRecord): void;
  webhook(delivery: WebhookDelivery): void;
}

export function createSandboxLog(format: LogFormat, colour: boolean, secrets: readonly string[]): SandboxLog {
  const clean = (text: string) => scrubText(text, secrets);
  const print = (parts: readonly Part[], json: Record<string, unknown>) => {
    if (format === 'json') printOutLine([JSON.stringify(json)], false);
    else printOutLine(parts, colour);
  };
  return {
    request(record) {
      const subject = clean(record.subject ?? '');
      const fault = record.fault ? `${record.fault.kind} (${record.fault.rule})` : '';
      const status = record.status === 0 ? 'no answer' : String(record.status);
      print(
        [
          [clock(record.at), 'dim'],
          `  ${record.method.padEnd(4)} `,
          [(record.operation ?? clean(record.path)).padEnd(22), 'cyan'],
          ` ${clean(record.merchant ?? '-').padEnd(10)} ${(subject || '-').padEnd(20)} `,
          [status.padStart(3), statusStyle(record.status)],
          ` ${Math.round(record.ms).toString().padStart(5)} ms`,
          ...(fault ? ([' ', [`fault ${fault}`, 'magenta']] as const) : []),
        ],
        {
          type: 'request',
          time: new Date(record.at).toISOString(),
          method: record.method,
          operation: record.operation ?? null,
          path: record.operation ? undefined : clean(record.path),
          merchant: record.merchant ?? null,
          reference: subject || null,
          status: record.status === 0 ? null : record.status,
          ms: Math.round(record.ms * 10) / 10,
          fault: record.fault ? { rule: record.fault.rule, kind: record.fault.kind } : null,
        },
      );
    },
    webhook(delivery) {
      const attempt = delivery.attempts.at(-1);
      if (attempt) print(...webhookLine(delivery, attempt, clean));
    },
  };
}

function webhookLine(
  delivery: WebhookDelivery,
  attempt: WebhookAttempt,
  clean: (text: string) => string,
): [Part[], Record<string, unknown>] {
  const url = clean(redactUrl(attempt.url));
  const answer = attempt.status === undefined ? shortError(attempt.error) : String(attempt.status);
  const next = attempt.nextAttemptAt === undefined ? '' : `next retry ${clock(attempt.nextAttemptAt)}`;
  const extra = attempt.duplicate
    ? ` (duplicate: ${attempt.duplicate.status ?? shortError(attempt.duplicate.error)})`
    : '';
  const fault = attempt.fault ? `${attempt.fault.kind} (${attempt.fault.rule})` : '';
  const reference = clean(delivery.reference);
  return [
    [
      [clock(attempt.at), 'dim'],
      '  ',
      ['webhook', 'yellow'],
      ` ${delivery.status.padEnd(9)} ${reference.padEnd(20)} → ${url} `,
      [answer + extra, statusStyle(attempt.status ?? 0)],
      next ? ` ${next}` : '',
      ...(delivery.reorderOf === undefined
        ? []
        : ([' ', ['late event of a reorder fault', 'magenta']] as const)),
      ...(fault ? ([' ', [`fault ${fault}`, 'magenta']] as const) : []),
    ],
    {
      type: 'webhook',
      time: new Date(attempt.at).toISOString(),
      event_status: delivery.status,
      reference,
      url,
      status: attempt.status ?? null,
      error: attempt.status === undefined ? shortError(attempt.error) : null,
      next_retry: attempt.nextAttemptAt === undefined ? null : new Date(attempt.nextAttemptAt).toISOString(),
      fault: attempt.fault ?? null,
      late_event_of_reorder: delivery.reorderOf !== undefined,
    },
  ];
}

/** 'http://user:pw@host/hook?key=abc' → 'http://host/hook?key=…': user info and query values are secrets often enough. */
export function redactUrl(text: string): string {
  try {
    const url = new URL(text);
    const query = [...url.searchParams.keys()].map((key) => `${key}=…`).join('&');
    return `${url.protocol}//${url.host}${url.pathname}${query ? `?${query}` : ''}`;
  } catch {
    return '(invalid URL)';
  }
}

/** 'TypeError: fetch failed (ECONNREFUSED)' → 'ECONNREFUSED'; a fault's "not sent: …" stays. */
function shortError(error: string | undefined): string {
  if (!error) return 'no answer';
  const code = /\(([A-Z_]+)\)$/.exec(error)?.[1];
  // Errors may quote the URL they failed on, user info and all (fetch does).
  return code ?? error.replace(/\bhttps?:\/\/[^\s)]+/gi, (url) => redactUrl(url)).slice(0, 100);
}

function statusStyle(status: number): Style {
  if (status >= 200 && status < 300) return 'green';
  if (status >= 400 && status < 500) return 'yellow';
  return 'red';
}

/** Local time of day, to the millisecond: the lines of one session. */
function clock(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}
