/**
 * createPayOutWorker's options are checked before anything connects: every problem at once, each
 * unknown option with its closest known one, and an option that belongs to the worker's client
 * (a tracer, a logger) pointed at the client. Nothing here needs Redis: no worker is started.
 */
import { describe, expect, it } from 'vitest';
import { createPayOutWorker, type PayOutWorkerOptions } from '../../src/bullmq/index.js';
import { ConfigurationError, PaymentClient } from '../../src/index.js';

const client = new PaymentClient({
  username: 'u',
  password: 'p',
  token: 't',
  baseUrl: 'http://127.0.0.1:9',
});
const base = { queueName: 'payouts', connection: { host: '127.0.0.1', port: 6379 }, client };

function refusal(options: unknown): ConfigurationError {
  try {
    createPayOutWorker(options as PayOutWorkerOptions);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return error as ConfigurationError;
  }
  throw new Error('createPayOutWorker accepted the options');
}

describe('createPayOutWorker options', () => {
  it('a tracer or logger given to the worker is pointed at the client, which makes each job a span', () => {
    const { message } = refusal({ ...base, tracer: {}, logger: console });
    expect(message).toContain("tracer: is the client's option: new PaymentClient({ …, tracer })");
    expect(message).toContain('observability.md#queue-jobs-payinoutbullmq');
    expect(message).toContain("logger: is the client's option");
    expect(message).toMatch(/No worker was started\.$/);
  });

  it('every problem at once: an unknown option with its closest known one, a missing queue and client', () => {
    const { message } = refusal({ connection: base.connection, concurency: 8, maxRetries: -1 });
    expect(message).toContain("concurency: unknown option; did you mean 'concurrency'?");
    expect(message).toContain('queueName: is required');
    expect(message).toContain('client: is required');
    expect(message).toContain('maxRetries: must be a whole number');
  });

  it('options that are not an object are refused, not read', () => {
    expect(refusal(undefined).message).toContain('(options): must be an object');
  });
});
