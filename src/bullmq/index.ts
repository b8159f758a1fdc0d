/**
 * `payinout/bullmq`: PayOuts across many machines on a BullMQ queue (Redis). `enqueuePayOuts`
 * adds one job per PayOut, `createPayOutWorker` settles them on any number of hosts exactly as
 * `createMany` does (looked up first, never sent twice), `readPayOutBatch` reads the results.
 * bullmq (5 or 6) is an optional peer dependency. Guide: node_modules/payinout/docs/bulk-payouts.md or https://github.com/payinout/payinout/blob/main/docs/bulk-payouts.md.
 * @module payinout/bullmq
 */
export { VERSION } from '../version.js';
export { type EnqueuedPayOuts, type EnqueuePayOutsOptions, enqueuePayOuts } from './enqueue.js';
export { HaltRecordError, LeaseLostError, ResultsNotSavedError } from './errors.js';
export { countPayOutBatch, type PayOutBatchCounts, type PayOutBatchState, readPayOutBatch } from './read.js';
export type { PayOutBatchResult } from './settle.js';
export {
  createPayOutWorker,
  type PayOutJobData,
  type PayOutJobResult,
  type PayOutWorkerOptions,
} from './worker.js';
