/**
 * The screenshot of docs/observability.md: a reconciled create, traced for real. A local
 * service double on 127.0.0.1 stores a PayOut and then drops the connection without answering
 * (the answer is lost); the SDK looks the reference up and recovers it. The spans exported by
 * OpenTelemetry's SDK are drawn as a waterfall (as Jaeger shows one) in a small HTML page,
 * screenshotted in headless Chromium into docs/trace-reconciled-create.png.
 *
 *   npx tsx scripts/trace-waterfall.ts [out.png]   (CHROMIUM_PATH overrides /usr/bin/chromium)
 */
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { chromium } from 'playwright-core';
// What Node resolves `payinout` to: clients send over node:http.
import { PaymentClient } from '../src/node/index.js';

const OUT = process.argv[2] ?? 'docs/trace-reconciled-create.png';
const CREDENTIALS = { username: 'demo-user', password: 'demo-Pass-123', token: 'tok-demo-456' };

/** POST /api/v1/payout commits, waits a little, then loses the answer; GET finds the reference. */
async function lossyService(): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const stored = new Map<string, Record<string, unknown>>();
  const server = http.createServer(async (req, res) => {
    let text = '';
    for await (const chunk of req) text += chunk;
    await new Promise((resolve) => setTimeout(resolve, 40)); // the service's own work
    if (req.method === 'POST' && req.url === '/api/v1/payout') {
      const body = JSON.parse(text) as Record<string, unknown>;
      stored.set(String(body.reference), {
        ticket: 'T-8812',
        reference: body.reference,
        amount: body.amount,
        currency: body.currency,
        type_transaction: 'PAYOUT',
        status: 'PENDING',
        date: '2026-11-24 09:30:00',
      });
      return req.socket.destroy(); // committed, but the answer never arrives
    }
    const id = decodeURIComponent(req.url?.split('/').pop() ?? '');
    const found = stored.get(id);
    res.writeHead(found ? 200 : 404, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify(
        found
          ? { code: '01', status: 'SUCCESS', message: '', data: found }
          : { code: '00', status: 'ERROR', error: 'NOT_FOUND', message: 'not found' },
      ),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

async function tracedCreate(): Promise<ReadableSpan[]> {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer('payinout');
  const service = await lossyService();
  try {
    // Untraced first: the figure shows a warm process, not the first call's module loading and JIT.
    const untraced = new PaymentClient({ ...CREDENTIALS, baseUrl: service.baseUrl });
    await untraced.payout.create(refund('warm-up-1'));
    const client = new PaymentClient({ ...CREDENTIALS, baseUrl: service.baseUrl, tracer });
    // The merchant's own span around the create, as an HTTP server span of its app would be.
    await tracer.startActiveSpan('POST /refunds (merchant app)', async (span) => {
      const result = await client.payout.create(refund('refund-1001'));
      span.setAttribute('refund.recovered', result.recovered === true);
      span.end();
    });
  } finally {
    await service.close();
  }
  return exporter.getFinishedSpans() as ReadableSpan[];
}

function refund(reference: string) {
  return {
    payment_method: 'BANK_TRANSFER',
    reference,
    amount: 40_000,
    currency: 'COP',
    country: 'CO',
    ipn_url: 'https://shop.example/webhooks/payinout',
    customer_data: {
      legal_doc: '1020304050',
      legal_doc_type: 'CC',
      phone_code: '57',
      phone_number: '3001234567',
      email: 'ana.perez@example.com',
      full_name: 'Ana Pérez',
      bank: 'BANCOLOMBIA',
      account_number: '12345678901',
      account_type: 'AHORRO',
    },
  } as const;
}

const ms = (time: [number, number]) => time[0] * 1e3 + time[1] / 1e6;
const html = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] as string);
const KIND = ['INTERNAL', 'SERVER', 'CLIENT', 'PRODUCER', 'CONSUMER'];

/** The spans as rows of a waterfall: depth by parentage, bars and event ticks on one time axis. */
function page(spans: ReadableSpan[]): string {
  const byId = new Map(spans.map((span) => [span.spanContext().spanId, span]));
  const depth = (span: ReadableSpan): number => {
    const parent = span.parentSpanContext && byId.get(span.parentSpanContext.spanId);
    return parent ? 1 + depth(parent) : 0;
  };
  const start = Math.min(...spans.map((span) => ms(span.startTime)));
  const end = Math.max(...spans.map((span) => ms(span.endTime)));
  const scale = (t: number) => ((t - start) / (end - start)) * 100;
  const rows = [...spans]
    .sort((a, b) => ms(a.startTime) - ms(b.startTime))
    .map((span) => {
      const left = scale(ms(span.startTime));
      const width = Math.max(scale(ms(span.endTime)) - left, 0.4);
      const failed = span.status.code === 2;
      // Each attempt event is stamped when the attempt ended and carries its duration: drawn as a segment.
      const ticks = span.events
        .map((event) => {
          const at = scale(ms(event.time));
          const took = Number(event.attributes?.['payinout.attempt.duration_ms'] ?? 0);
          const from = scale(ms(event.time) - took);
          const status = event.attributes?.['http.response.status_code'] ?? event.attributes?.['error.type'];
          const side = at > 70 ? 'right' : 'left';
          const place = side === 'right' ? `right:${100 - at}%` : `left:${from}%`;
          return `<span class="attempt" style="left:${from}%;width:${Math.max(at - from, 0.3)}%"></span><span class="tag" style="${place}">attempt ${html(String(event.attributes?.['payinout.attempt']))}: ${html(String(status))} (${took} ms)</span>`;
        })
        .join('');
      const attributes = Object.entries(span.attributes)
        .map(([key, value]) => `<span class="attr"><b>${html(key)}</b>=${html(String(value))}</span>`)
        .join(' ');
      const duration = (ms(span.endTime) - ms(span.startTime)).toFixed(1);
      return `<div class="row">
  <div class="name" style="padding-left:${depth(span) * 18 + 6}px"><span class="kind">${KIND[span.kind]}</span> ${html(span.name)}</div>
  <div class="lane"><div class="bar${failed ? ' failed' : ''}" style="left:${left}%;width:${width}%"></div>${ticks}<span class="dur" style="left:${left + width}%">${duration} ms</span></div>
  <div class="attrs">${attributes}</div>
</div>`;
    })
    .join('\n');
  return `<!doctype html><meta charset="utf-8"><title>payinout trace: a reconciled create</title>
<style>
  body { font: 13px/1.4 system-ui, sans-serif; margin: 20px; color: #1d232a; background: #fff; width: 1160px; }
  h1 { font-size: 17px; margin: 0 0 4px; } p { margin: 0 0 14px; color: #55606b; }
  .row { display: grid; grid-template-columns: 330px 1fr; border-top: 1px solid #e3e7ea; padding: 7px 0 5px; }
  .name { font-weight: 600; white-space: nowrap; }
  .kind { display: inline-block; font-size: 10px; font-weight: 700; color: #fff; background: #5b6b7a; border-radius: 3px; padding: 0 4px; margin-right: 4px; }
  .lane { position: relative; height: 40px; margin-right: 80px; background: repeating-linear-gradient(90deg, #f6f8f9 0 10%, #fff 10% 20%); }
  .bar { position: absolute; top: 4px; height: 12px; background: #3f8ed8; border-radius: 2px; }
  .bar.failed { background: #d8523f; }
  .attempt { position: absolute; top: 16px; height: 5px; background: #1d232a; border-radius: 1px; }
  .tag { position: absolute; top: 22px; font-size: 11px; color: #333; white-space: nowrap; padding-left: 3px; }
  .dur { position: absolute; top: 2px; font-size: 11px; color: #55606b; padding-left: 6px; white-space: nowrap; }
  .attrs { grid-column: 2; font: 11px/1.5 ui-monospace, monospace; color: #3d4852; padding-top: 3px; }
  .attr { margin-right: 10px; white-space: nowrap; display: inline-block; } .attr b { color: #7a3ea8; font-weight: 600; }
</style>
<h1>payout.create whose answer was lost, reconciled by a lookup</h1>
<p>Spans exported by the OpenTelemetry SDK (InMemorySpanExporter), drawn as a waterfall. Black segments are the <code>payinout.attempt</code> events (each HTTP request, with its duration). The gap between the lost POST and the lookup is the backoff that gives a slow commit time to show up.</p>
${rows}`;
}

const spans = await tracedCreate();
const document = page(spans);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
});
try {
  const tab = await browser.newPage({ viewport: { width: 1200, height: 400 }, deviceScaleFactor: 1 });
  await tab.setContent(document);
  await tab.screenshot({ path: OUT, fullPage: true });
} finally {
  await browser.close();
}
writeFileSync(OUT.replace(/\.png$/, '.spans.json'), `${JSON.stringify(spans.map(summary), null, 2)}\n`);
console.log(`wrote ${OUT} (${spans.length} spans)`);

/** What the page shows of a span, kept beside the screenshot so the figure can be checked. */
function summary(span: ReadableSpan) {
  return {
    name: span.name,
    kind: KIND[span.kind],
    parent: span.parentSpanContext
      ? spans.find((s) => s.spanContext().spanId === span.parentSpanContext?.spanId)?.name
      : null,
    attributes: span.attributes,
    status: span.status,
    events: span.events.map((event) => ({ name: event.name, attributes: event.attributes })),
  };
}
