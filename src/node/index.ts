/**
 * What Node resolves `payinout` to (the `node` export condition): everything the main entry
 * exports, with a PaymentClient whose clients send over `node:http` unless they are given a
 * `fetch` (client.ts). Bun, Deno, Workers and bundlers for other platforms resolve the main
 * entry, which sends with `fetch`.
 */
export * from '../index.js';
// Declared here, it shadows the main entry's PaymentClient that `export *` would re-export.
export { PaymentClient } from './client.js';
