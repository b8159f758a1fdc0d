/**
 * A fault rule: which requests or webhook deliveries it matches and what it does to them. One
 * zod schema; every type below is inferred from it. Operation names come from the operations
 * table (src/api/operations.ts), so a new operation can be faulted with no new code here.
 */
import * as z from 'zod/mini';
import { OPERATIONS, type OperationId } from '../../api/operations.js';
import { ConfigurationError } from '../../core/errors.js';
import { MAX_TIMER_MS } from '../../core/limits.js';
import { closestKey, unknownKeyMessage } from '../../schemas/suggest.js';

/** What a rule can do to an API request. */
export const API_FAULT_KINDS = [
  'drop-after-commit',
  'drop-before-commit',
  'status',
  'delay',
  'garbled-after-commit',
] as const;
/** What a rule can do to a webhook delivery attempt. */
export const WEBHOOK_FAULT_KINDS = ['duplicate', 'drop', 'delay', 'reorder'] as const;
export const FAULT_KINDS = [...new Set([...API_FAULT_KINDS, ...WEBHOOK_FAULT_KINDS])] as [
  FaultKind,
  ...FaultKind[],
];
export type FaultKind = (typeof API_FAULT_KINDS)[number] | (typeof WEBHOOK_FAULT_KINDS)[number];

/** `'*'` (every API operation), `'webhook'` (deliveries), then every operation id of the table. */
export const FAULT_OPERATIONS = ['*', 'webhook', ...(Object.keys(OPERATIONS) as OperationId[])] as [
  FaultOperation,
  ...FaultOperation[],
];
export type FaultOperation = OperationId | '*' | 'webhook';

/** Statuses a client may be told to come back later with a `Retry-After` header. */
const RETRY_AFTER_STATUSES = [429, 503];

const FIELDS = {
  /** An operation of the table (`payout.create`, `transactions.get`, …), `'*'` for every API operation, or `'webhook'` for deliveries. */
  operation: z.enum(FAULT_OPERATIONS),
  /** API: drop-after-commit, drop-before-commit, status, delay, garbled-after-commit. Webhook: duplicate, drop, delay, reorder. */
  kind: z.enum(FAULT_KINDS),
  /** Chance (0–1) that a matched request or attempt gets the fault, drawn from the sandbox's seeded generator. Default 1. */
  rate: z.optional(z.number().check(z.gte(0), z.lte(1))),
  /** Fire at most this many times. Default: no limit. */
  times: z.optional(z.int().check(z.gte(0))),
  /** Only requests of this merchant (username), or deliveries of its transactions. */
  merchant: z.optional(z.string().check(z.minLength(1))),
  /** kind 'status': the HTTP status answered (400–599), with the guide's error envelope. */
  status: z.optional(z.int().check(z.gte(400), z.lte(599))),
  /** kind 'status' with 429 or 503: seconds sent in a `Retry-After` header. */
  retryAfter: z.optional(z.int().check(z.gte(0))),
  /** kind 'delay': milliseconds before the answer (API) or the attempt (webhook). */
  ms: z.optional(z.int().check(z.gte(0), z.lte(MAX_TIMER_MS))),
};
export const FAULT_RULE_FIELDS = Object.keys(FIELDS);

/** One rule as `createSandbox({ faults })`, `sandbox.faults.add()` and POST /_sandbox/faults take it. */
export const FaultRuleSchema = z.strictObject(FIELDS).check(z.superRefine(checkCombination));
/** What you write: `{ operation: 'payout.create', kind: 'drop-after-commit', rate: 0.05 }`. */
export type FaultRuleInput = z.input<typeof FaultRuleSchema>;
/** A rule in force, with the `id` that `remove()` and the stats name it by. */
export type FaultRule = z.output<typeof FaultRuleSchema> & { readonly id: string };

type Context = Parameters<Parameters<typeof z.superRefine<z.output<z.ZodMiniObject<typeof FIELDS>>>>[0]>[1];

/** What no single field can say: kind against operation, and the fields each kind takes. */
function checkCombination(rule: z.output<z.ZodMiniObject<typeof FIELDS>>, ctx: Context): void {
  const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
  const webhook = rule.operation === 'webhook';
  const kinds: readonly string[] = webhook ? WEBHOOK_FAULT_KINDS : API_FAULT_KINDS;
  if (!kinds.includes(rule.kind)) {
    issue(
      'kind',
      webhook
        ? `'${rule.kind}' is an API fault; a webhook rule takes ${WEBHOOK_FAULT_KINDS.join(', ')}`
        : `'${rule.kind}' is a webhook fault (use operation 'webhook'); an API rule takes ${API_FAULT_KINDS.join(', ')}`,
    );
  }
  if (rule.kind === 'status' && rule.status === undefined)
    issue('status', "kind 'status' needs a status (400–599)");
  if (rule.kind !== 'status' && rule.status !== undefined)
    issue('status', "only kind 'status' takes a status");
  if (rule.retryAfter !== undefined && !RETRY_AFTER_STATUSES.includes(rule.status ?? 0)) {
    issue('retryAfter', `only a status of ${RETRY_AFTER_STATUSES.join(' or ')} takes retryAfter`);
  }
  if (rule.kind === 'delay' && rule.ms === undefined) issue('ms', "kind 'delay' needs ms (milliseconds)");
  if (rule.kind !== 'delay' && rule.ms !== undefined) issue('ms', "only kind 'delay' takes ms");
}

/** Thrown (a ConfigurationError) for a rule the schema refuses; the running sandbox is unchanged. */
export class FaultRuleError extends ConfigurationError {
  override name = 'FaultRuleError';
  /** One `field: problem` line per issue, each with the closest valid word where there is one. */
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(`Fault rule refused, nothing changed: ${endSentence(problems.join('; '))}`);
    this.problems = problems;
  }
}

/** 'did you mean rate?' stays as it is; anything else gets its full stop. */
export function endSentence(text: string): string {
  return /[.?!]$/.test(text) ? text : `${text}.`;
}

/** The rule, parsed; throws {@link FaultRuleError} naming each wrong part and the closest valid word. */
export function parseFaultRule(input: unknown): z.output<typeof FaultRuleSchema> {
  const result = FaultRuleSchema.safeParse(input);
  if (result.success) return result.data;
  throw new FaultRuleError(result.error.issues.map((i) => describeIssue(i, input)));
}

function describeIssue(issue: z.core.$ZodIssue, input: unknown): string {
  if (issue.path.length === 0 && issue.code !== 'unrecognized_keys' && issue.code !== 'custom') {
    return "a rule is an object, e.g. { operation: 'payout.create', kind: 'drop-after-commit', rate: 0.05 }";
  }
  const field = String(issue.path[0] ?? '');
  const given =
    typeof input === 'object' && input !== null ? (input as Record<string, unknown>)[field] : undefined;
  switch (issue.code) {
    case 'unrecognized_keys':
      return issue.keys.map((key) => `${key}: ${unknownKeyMessage(key, FAULT_RULE_FIELDS)}`).join('; ');
    case 'invalid_value': {
      const known = field === 'kind' ? FAULT_KINDS : FAULT_OPERATIONS;
      return given === undefined
        ? `${field}: required, one of ${known.join(', ')}`
        : `${field}: ${unknownWord(given, known)}`;
    }
    case 'invalid_type':
      return given === undefined ? `${field}: required` : `${field}: must be ${expected(field)}`;
    case 'custom':
      return `${field}: ${issue.message}`;
    default:
      return `${field}: must be ${expected(field)} (got ${JSON.stringify(given)})`;
  }
}

function unknownWord(given: unknown, known: readonly string[]): string {
  const word = typeof given === 'string' ? given : JSON.stringify(given);
  const near = typeof given === 'string' ? closestKey(given, known) : undefined;
  return near ? `unknown '${word}'; did you mean ${near}?` : `unknown '${word}'; one of ${known.join(', ')}`;
}

const EXPECTED: Readonly<Record<string, string>> = {
  rate: 'a number from 0 to 1',
  times: 'a whole number, 0 or more',
  merchant: "a merchant's username",
  status: 'a whole number from 400 to 599',
  retryAfter: 'a whole number of seconds, 0 or more',
  ms: `a whole number of milliseconds from 0 to ${MAX_TIMER_MS}`,
};

function expected(field: string): string {
  return EXPECTED[field] ?? 'text';
}
