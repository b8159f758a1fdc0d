import { buildOpenApiDocument } from './src/openapi/document.ts';
const d = buildOpenApiDocument() as any;
const s = d.components.schemas;
function walk(node: any, path: string) {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node.enum) && path.match(/^(Envelope|ErrorBody|MerchantBalance|MerchantProfile|NotFoundBody|PayInCreated|PayOutCreated|PseBankList|SandboxConfirmResult|Transaction|WebhookEvent)\b/)) console.log(path, node.enum.length, node.description?.includes('strict form') ? 'open-note' : '');
  for (const k of ['anyOf','oneOf','allOf']) if (Array.isArray(node[k])) node[k].forEach((m: any, i: number) => walk(m, `${path}/${k}${i}`));
  if (node.items) walk(node.items, `${path}[]`);
  if (node.properties) for (const [k, v] of Object.entries(node.properties)) walk(v, `${path}.${k}`);
}
for (const [k, v] of Object.entries(s)) walk(v, k);
