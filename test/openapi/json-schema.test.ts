/** The zod → JSON Schema step: descriptions pass through; registered ids become components. */

import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { type Definitions, toComponent } from '../../src/openapi/json-schema.js';

describe('toComponent', () => {
  it('carries the description written on a schema field', () => {
    const schema = z.object({
      reference: z.string().register(z.globalRegistry, { description: 'Unique merchant reference.' }),
    });
    const json = toComponent(schema, {});
    expect(json).toMatchObject({
      properties: { reference: { type: 'string', description: 'Unique merchant reference.' } },
    });
    expect(json).not.toHaveProperty('$schema');
  });

  it('lifts a schema registered with an id into the components and points at it there', () => {
    const customer = z.object({ email: z.string() }).register(z.globalRegistry, { id: 'ProbeCustomer' });
    const defs: Definitions = {};
    const json = toComponent(z.object({ payer: customer, payee: customer }), defs);
    expect(defs.ProbeCustomer).toMatchObject({ type: 'object', properties: { email: { type: 'string' } } });
    expect(json).toMatchObject({
      properties: {
        payer: { $ref: '#/components/schemas/ProbeCustomer' },
        payee: { $ref: '#/components/schemas/ProbeCustomer' },
      },
    });
    z.globalRegistry.remove(customer);
  });
});
