/**
 * Field descriptions in the OpenAPI document come from the schemas' doc comments — the text an
 * editor shows on hover — read by the same helper as the API reference (scripts/doc-comments.mjs),
 * never copied: here the expected text is read from src/schemas/payin.ts itself.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChecker, docText } from '../../scripts/doc-comments.mjs';
import { descriptionsJson, TARGET } from '../../scripts/openapi-descriptions.mjs';
import { describeSchema } from '../../src/openapi/descriptions.js';
import { buildOpenApiDocument } from '../../src/openapi/document.js';
import { type SandboxServer, startSandboxServer } from '../../src/testing/index.js';

// biome-ignore lint/suspicious/noExplicitAny: a parsed JSON document, walked by key
type Json = Record<string, any>;

const PAYIN = fileURLToPath(new URL('../../src/schemas/payin.ts', import.meta.url));
const { program, checker } = createChecker([PAYIN]);
const source = program.getSourceFile(PAYIN)!;

/** The doc comment of `field` in the object literal that is `holder`'s value or return value. */
function comment(holder: string, field: string): string {
  let found: ts.ObjectLiteralExpression | undefined;
  const visit = (node: ts.Node): void => {
    if (found) return;
    const named = (ts.isFunctionDeclaration(node) || ts.isVariableDeclaration(node)) && node.name;
    if (named && ts.isIdentifier(named) && named.text === holder) {
      const inner = (n: ts.Node): void => {
        if (!found && ts.isObjectLiteralExpression(n) && checker.getTypeAtLocation(n).getProperty(field)) {
          found = n;
        }
        if (!found) ts.forEachChild(n, inner);
      };
      inner(node);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  const symbol = found && checker.getTypeAtLocation(found).getProperty(field);
  if (!symbol) throw new Error(`no field ${field} in ${holder}`);
  const text = docText(symbol, checker);
  expect(text, `${holder}.${field} has a doc comment`).not.toBe('');
  return text;
}

function exportComment(name: string): string {
  const module = checker.getSymbolAtLocation(source)!;
  const symbol = checker.getExportsOfModule(module).find((s) => s.name === name)!;
  return docText(symbol, checker);
}

const payInMembers = (document: Json): Json[] => document.components.schemas.PayInCreateParams.oneOf;

function expectPayInDescriptions(document: Json): void {
  const members = payInMembers(document);
  expect(members).toHaveLength(5); // one shape per country
  for (const member of members) {
    const country = member.properties.country.const;
    expect(member.properties.ipn_url.description, country).toBe(comment('payInShape', 'ipn_url'));
    expect(member.properties.customer_data.description, country).toBe(comment('payInShape', 'customer_data'));
    expect(member.properties.customer_data.properties.email.description, country).toBe(
      comment('customerFields', 'email'),
    );
  }
}

describe('field descriptions in the OpenAPI document', () => {
  it('src/openapi/descriptions.generated.json is current with the doc comments (else: npm run build)', () => {
    expect(readFileSync(TARGET, 'utf8')).toBe(descriptionsJson());
  }, 60_000);

  it("PayIn create's ipn_url, customer_data and its fields carry their doc comments", () => {
    const document = buildOpenApiDocument() as Json;
    expectPayInDescriptions(document);
    expect(document.components.schemas.PayInCreateParams.description).toBe(
      exportComment('PayInCreateParamsSchema'),
    );
  });

  it('the legacy PayIn keeps its own text for the same field name', () => {
    const legacy = (buildOpenApiDocument() as Json).components.schemas.PayInLegacyCreateParams;
    expect(legacy.oneOf).toHaveLength(2); // CO and PE
    for (const member of legacy.oneOf as Json[]) {
      expect(member.properties.ipn_url.description).toBe(comment('LEGACY_FIELDS', 'ipn_url'));
      expect(member.properties.ipn_url.description).not.toBe(comment('payInShape', 'ipn_url'));
    }
  });

  it('a description set with .meta() wins; union members, nested objects and array items get theirs', () => {
    const schema = {
      anyOf: [
        {
          type: 'object',
          properties: {
            a: { type: 'string', description: 'from meta' },
            list: { type: 'array', items: { type: 'object', properties: { b: { type: 'string' } } } },
          },
        },
      ],
    };
    describeSchema(schema, { '': 'root', a: 'doc a', list: 'doc list', 'list.[].b': 'doc b' });
    expect(schema).toStrictEqual({
      description: 'root',
      anyOf: [
        {
          type: 'object',
          properties: {
            a: { type: 'string', description: 'from meta' },
            list: {
              type: 'array',
              description: 'doc list',
              items: { type: 'object', properties: { b: { type: 'string', description: 'doc b' } } },
            },
          },
        },
      ],
    });
  });

  describe('the simulator', () => {
    let server: SandboxServer;
    beforeAll(async () => {
      server = await startSandboxServer({ webhooks: false });
    });
    afterAll(() => server.close());

    it('serves the described document at GET /openapi.json', async () => {
      const response = await fetch(`${server.url}/openapi.json`);
      expectPayInDescriptions((await response.json()) as Json);
    });
  });
});
