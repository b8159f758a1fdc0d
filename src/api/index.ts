/**
 * The service described once (see operations.ts): the operations table, path building and
 * matching, and the sandbox supported-status rule. Imports `src/schemas/` only.
 */
export {
  type ConfirmDirection,
  type ConfirmSupport,
  type ConfirmSupportQuery,
  confirmableStatuses,
  sandboxConfirmSupport,
} from './confirm-support.js';
export { type Mismatch, mismatches } from './match.js';
export { OPERATION_LIST, OPERATIONS, type OperationId } from './operations.js';
export { buildPath, createRouter, type PathParams, type RouteMatch } from './paths.js';
export type {
  AuthRule,
  DocumentedError,
  HttpMethod,
  MatchRule,
  Operation,
  RecoveryDescriptor,
  RecoveryMatch,
  RequestBody,
  TransactionKind,
} from './types.js';
