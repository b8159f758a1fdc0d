/**
 * Child process: a keep-alive node:http server on 127.0.0.1 answering the service's envelopes
 * (POST /api/v2/payin, GET /api/v1/transaction/:id) and a Stripe customer for stripe-node. It
 * runs in its own process so the server's work is not charged to the client's event loop.
 * Reports its port, then its CPU use on request.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { payinEnvelope, stripeCustomer, transactionEnvelope } from './fixtures.js';

const notFound = JSON.stringify({ code: '00', status: 'ERROR', error: 'NOT_FOUND', message: 'No route' });
const payin = Buffer.from(payinEnvelope);
const transaction = Buffer.from(transactionEnvelope);
// stripe-node's calls in the same bench: POST /v1/customers and GET /v1/customers/:id.
const customer = Buffer.from(stripeCustomer);

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const body =
      req.method === 'POST' && req.url === '/api/v2/payin'
        ? payin
        : req.method === 'GET' && req.url?.startsWith('/api/v1/transaction/')
          ? transaction
          : req.url?.startsWith('/v1/customers')
            ? customer
            : undefined;
    res.writeHead(body ? 200 : 404, {
      'content-type': 'application/json',
      'content-length': body ? body.length : Buffer.byteLength(notFound),
    });
    res.end(body ?? notFound);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.send?.({ port: (server.address() as AddressInfo).port });
});
process.on('disconnect', () => process.exit(0)); // the bench died: do not linger
process.on('message', (message) => {
  if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() });
  if (message === 'exit') server.close(() => process.exit(0));
});
