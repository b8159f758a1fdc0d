/** `sandboxHandlers()`: the simulator as msw 2 request handlers, for merchants' unit tests. */
import { createRequire } from 'node:module';
import { OPERATION_LIST } from '../api/operations.js';
import { ConfigurationError } from '../core/errors.js';
import { type FaultRuleInput, parseFaultRule } from './faults/rule.js';
import { refuseContentType } from './guard.js';
import type { Sandbox } from './sandbox.js';

/**
 * msw is an optional peer dependency: loaded when sandboxHandlers() is called, never when
 * `payinout/testing` is imported, so createSandbox()/startSandboxServer() work without it.
 * msw recognises handlers by their `kind`, so a handler made here works with the caller's msw.
 */
function loadMsw(): typeof import('msw') {
  try {
    return createRequire(import.meta.url)('msw');
  } catch (cause) {
    throw new ConfigurationError(
      'sandboxHandlers() needs msw 2 in your project: npm install --save-dev msw',
      {
        cause,
      },
    );
  }
}

/**
 * An msw 2 `RequestHandler`, to spread into `setupServer()` or `setupWorker()`. Typed `any` on
 * purpose: msw is an optional peer dependency, and naming its type here would make
 * `payinout/testing` fail to type-check in every project without msw (a .d.ts cannot import a
 * package conditionally; bundled declarations hoist any `import('msw')` to a top-level import).
 */
// biome-ignore lint/suspicious/noExplicitAny: see above; msw's own setupServer() checks the handlers.
export type SandboxRequestHandler = any;

/** Options of {@link sandboxHandlers}. */
export interface SandboxHandlersOptions {
  /** The baseUrl the PaymentClient under test uses, e.g. 'https://sandbox.test'. */
  baseUrl: string;
  /**
   * Fault rules to add to the sandbox (as `sandbox.faults.add()` each; checked all before any is
   * added): a dropped answer reaches the client as a network error, a delay waits. Rules given
   * to `createSandbox({ faults })` apply as well.
   */
  faults?: readonly FaultRuleInput[];
}

/**
 * One handler per operation of the service's table (src/api/), then one under baseUrl for the
 * simulator's own pages and its 404/405 answers; every request is answered by `sandbox.handle()`,
 * under the sandbox's fault rules (`faults`): a dropped answer is a network error, a delay waits.
 * Needs msw 2 in your project (an optional peer dependency).
 * @example
 * import { setupServer } from 'msw/node';
 * const sandbox = createSandbox({ webhooks: false });
 * const server = setupServer(...sandboxHandlers(sandbox, { baseUrl: 'https://sandbox.test' }));
 * server.listen({ onUnhandledRequest: 'error' });
 * const client = new PaymentClient({ username: 'demo-co', password: 'demo-co-pass',
 *   token: 'demo-co-token', baseUrl: 'https://sandbox.test' });
 */
export function sandboxHandlers(sandbox: Sandbox, options: SandboxHandlersOptions): SandboxRequestHandler[] {
  for (const rule of options.faults ?? []) parseFaultRule(rule); // all checked before any is added
  for (const rule of options.faults ?? []) sandbox.faults.add(rule);
  const base = options.baseUrl.replace(/\/+$/, '');
  const basePath = new URL(base).pathname.replace(/\/+$/, '');
  sandbox.baseUrl = base;
  const { http, HttpResponse } = loadMsw();
  const resolver = async ({ request }: { request: Request }) => {
    const reply = await answer(sandbox, request, basePath);
    // A dropped answer is a network error to the client, as a connection closed by the server is.
    return reply ?? HttpResponse.error();
  };
  return [
    ...OPERATION_LIST.map((operation) => {
      const route = http[operation.method === 'GET' ? 'get' : 'post'];
      // msw writes path parameters as :name where the table writes {name}.
      return route(`${base}${operation.template.replace(/\{(\w+)\}/g, ':$1')}`, resolver);
    }),
    http.all(`${base}/*`, resolver),
  ];
}

/** The answer, after any fault's delay; undefined when a fault drops it. */
async function answer(sandbox: Sandbox, request: Request, basePath: string): Promise<Response | undefined> {
  const url = new URL(request.url);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, key) => {
    headers[key] = value;
  });
  const text = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.text();
  const path = url.pathname.slice(basePath.length);
  // The hosted checkout takes a form post; every API body must be declared JSON.
  const reply =
    (path.startsWith('/checkout/') ? undefined : refuseContentType(headers['content-type'], text)) ??
    sandbox.handle({ method: request.method, path: path + url.search, headers, body: text });
  if (reply.fault && reply.status === 0) return undefined;
  if (reply.fault?.ms) await new Promise((resolve) => setTimeout(resolve, reply.fault?.ms));
  const body = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
  return new Response(body, { status: reply.status, headers: reply.headers });
}
