/**
 * What a merchant's editor shows on hover, asked of the TypeScript language service (quickinfo)
 * in consumer files that import the built package (`dist/`, through the package's own exports, as
 * ESM and as CommonJS): every field of the request params of payin.create, payin.createLegacy,
 * payout.create and sandbox.confirmPayIn carries the description written on its schema field,
 * and `amount` says its unit; a result field (`transactions.get().status`) too. Needs `npm run build` (npm test builds first).
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import DESCRIPTIONS from '../../src/openapi/descriptions.generated.json' with { type: 'json' };

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WORK = `${ROOT}.tmp/hover-${randomUUID()}`;

/** Each call of the consumer files, with the component whose descriptions its params carry. */
const CALLS: Array<[keyof typeof DESCRIPTIONS, string]> = [
  [
    'PayInCreateParams',
    `client.payin.create({ reference: 'o-1', amount: 150_000, currency: 'COP', country: 'CO', payment_method: 'PSE',
  description: 'Order', expiration_time: 60, ipn_url: 'https://shop.example/ipn', redirect_url: 'https://shop.example/back',
  customer_data: { legal_doc: '1020304050', legal_doc_type: 'CC', phone_code: '57', phone_number: '3001234567',
    email: 'ana@example.com', full_name: 'Ana Gomez', bank: '1077', person_type: 'NATURAL' } })`,
  ],
  [
    'PayInCreateParams',
    `client.payin.create({ reference: 'o-2', amount: 500, currency: 'MXN', country: 'MX', payment_method: 'SPEI',
  description: 'Order', customer_data: { legal_doc: 'X', legal_doc_type: 'INE', phone_code: '52', phone_number: '5512345678',
    email: 'ana@example.com', full_name: 'Ana Gomez' } })`,
  ],
  [
    'PayInLegacyCreateParams',
    `client.payin.createLegacy({ reference: 'o-3', amount: 150_000, currency: 'PEN', country: 'PE', payment_method: 'QR',
  redirect_url: 'https://shop.example/back', ipn_url: 'https://shop.example/ipn', customer_data: { legal_doc: '12345678',
    legal_doc_type: 'DNI', phone_code: '51', phone_number: '987654321', email: 'ana@example.com', full_name: 'Ana Gomez' } })`,
  ],
  [
    'PayOutCreateParams',
    `client.payout.create({ reference: 'p-1', amount: 40_000, currency: 'COP', country: 'CO', payment_method: 'BANK_TRANSFER',
  ipn_url: 'https://shop.example/ipn', metadata: { order: 1 }, customer_data: { legal_doc: '1020304050', legal_doc_type: 'NIT',
    phone_code: '57', phone_number: '3001234567', email: 'ana@example.com', full_name: 'Ana Gomez', bank: 'BANCOLOMBIA',
    account_number: '1234567890', account_type: 'AHORRO', clabe_number: undefined } })`,
  ],
  [
    'SandboxConfirmParams',
    `client.sandbox.confirmPayIn({ transaction_id: 'T-1', payment_method: 'BREB', status: 'APPROVED' })`,
  ],
];

const consumer = (imports: string) =>
  `${imports}
const client = new PaymentClient({ username: 'u', password: 'p', token: 't', baseUrl: 'https://api.example' });
${CALLS.map(([, call], i) => `export const call${i} = () => ${call};`).join('\n')}
export const looked = async () => (await client.transactions.get('T-1')).status;
`;

const FILES = {
  esm: `${WORK}/consumer.mts`,
  cjs: `${WORK}/consumer.cts`,
};

let service: ts.LanguageService;

beforeAll(() => {
  const built = `${ROOT}dist/index.d.ts`;
  if (!existsSync(built) || !readFileSync(`${ROOT}dist/index.d.cts`, 'utf8')) {
    throw new Error('dist/ is missing: run `npm run build` first (npm test does).');
  }
  mkdirSync(WORK, { recursive: true });
  writeFileSync(FILES.esm, consumer("import { PaymentClient } from 'payinout';"));
  writeFileSync(FILES.cjs, consumer("import { PaymentClient } from 'payinout';"));
  const options: ts.CompilerOptions = {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    exactOptionalPropertyTypes: true,
    types: [],
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
  };
  service = ts.createLanguageService({
    getScriptFileNames: () => Object.values(FILES),
    getScriptVersion: () => '1',
    getScriptSnapshot: (file) =>
      ts.sys.fileExists(file) ? ts.ScriptSnapshot.fromString(ts.sys.readFile(file)!) : undefined,
    getCurrentDirectory: () => ROOT,
    getCompilationSettings: () => options,
    getDefaultLibFileName: ts.getDefaultLibFilePath,
    fileExists: ts.sys.fileExists,
    readFile: ts.sys.readFile,
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
    realpath: (path) => ts.sys.realpath?.(path) ?? path,
  });
});

afterAll(() => rmSync(WORK, { recursive: true, force: true }));

/** Each property of a call's params object, with its path ('customer_data.bank') and position. */
function paramsFields(file: string, index: number): Array<{ path: string; at: number }> {
  const source = service.getProgram()!.getSourceFile(file)!;
  const fields: Array<{ path: string; at: number }> = [];
  const walk = (node: ts.Node, path: string) => {
    if (!ts.isObjectLiteralExpression(node)) return;
    for (const property of node.properties) {
      if (!ts.isPropertyAssignment(property) || !ts.isIdentifier(property.name)) continue;
      const at = path ? `${path}.${property.name.text}` : property.name.text;
      if (at !== 'metadata.order') fields.push({ path: at, at: property.name.getStart(source) });
      walk(property.initializer, at);
    }
  };
  const found = source.statements
    .filter(ts.isVariableStatement)
    .find((statement) => statement.declarationList.declarations[0]?.name.getText(source) === `call${index}`);
  found?.forEachChild(function find(node): void {
    if (ts.isCallExpression(node) && node.arguments[0]) walk(node.arguments[0], '');
    else node.forEachChild(find);
  });
  return fields;
}

const plain = (text: string) => text.replace(/\s+/g, ' ').trim();

for (const [kind, file] of Object.entries(FILES)) {
  describe(`hover on request params (${kind}, against dist/)`, () => {
    it('compiles: the consumer is a realistic, valid use', () => {
      const errors = [...service.getSemanticDiagnostics(file), ...service.getSyntacticDiagnostics(file)];
      expect(errors.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))).toEqual([]);
    });

    for (const [index, [component]] of CALLS.entries()) {
      it(`every field of call ${index} (${component}) shows its schema description`, () => {
        const fields = paramsFields(file, index);
        expect(fields.length).toBeGreaterThan(2);
        const descriptions = DESCRIPTIONS[component] as Record<string, string>;
        for (const { path, at } of fields) {
          const info = service.getQuickInfoAtPosition(file, at);
          const shown = plain(ts.displayPartsToString(info?.documentation));
          expect(shown, `${component} ${path}`).not.toBe('');
          expect(shown, `${component} ${path}`).toBe(plain(descriptions[path] ?? '(no description)'));
        }
      });
    }

    it('a result field read from transactions.get() shows its description too', () => {
      const text = service.getProgram()!.getSourceFile(file)!.text;
      const at = text.indexOf('.status;') + 1;
      const shown = plain(ts.displayPartsToString(service.getQuickInfoAtPosition(file, at)?.documentation));
      expect(shown).toBe(plain(DESCRIPTIONS.Transaction.status));
    });

    it('amount says its unit', () => {
      const hover = (index: number) => {
        const amount = paramsFields(file, index).find((f) => f.path === 'amount')!;
        return plain(ts.displayPartsToString(service.getQuickInfoAtPosition(file, amount.at)?.documentation));
      };
      expect(hover(0)).toMatch(/in the currency's units, not minor units/);
      expect(hover(2)).toMatch(/Whole amount in the currency's units/);
      expect(hover(3)).toMatch(/minor units per its schema, the currency's units per its guide/);
      expect(hover(3)).toContain('https://github.com/payinout/payinout/blob/main/docs/spec-gaps.md');
    });
  });
}
