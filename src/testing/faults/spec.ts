/**
 * The one-line form of a rule, `OPERATION:KIND[:key=value,...]`, that `payinout sandbox --fault`
 * and the dashboard's fault panel take, e.g. `payout.create:drop-after-commit:rate=0.05` or
 * `transactions.get:status:status=429,retryAfter=1,times=3`. Parsed into the same object the
 * schema checks, so a SPEC and a JSON rule are refused with the same words.
 */
import { closestKey } from '../../schemas/suggest.js';
import {
  FAULT_RULE_FIELDS,
  type FaultRule,
  FaultRuleError,
  type FaultRuleInput,
  parseFaultRule,
} from './rule.js';

export const FAULT_SPEC_FORMAT = 'OPERATION:KIND[:key=value,...]';
const EXAMPLE = 'payout.create:drop-after-commit:rate=0.05';
/** Keys whose value is text; every other key takes a number. */
const TEXT_KEYS = new Set(['merchant']);
/** The options, in the order a SPEC is written back (the kind's own option first, as in `*:status:status=503,rate=0.01`). */
const KIND_OPTIONS = ['status', 'retryAfter', 'ms'];
const SETTABLE = [
  ...KIND_OPTIONS,
  ...FAULT_RULE_FIELDS.filter((key) => !KIND_OPTIONS.includes(key) && key !== 'operation' && key !== 'kind'),
];

/** The rule a SPEC describes; throws FaultRuleError naming the part that is wrong. */
export function parseFaultSpec(spec: string): ReturnType<typeof parseFaultRule> {
  const parts = spec.split(':');
  if (parts.length < 2 || parts[0] === '' || parts[1] === '') {
    throw new FaultRuleError([`'${spec}' is not ${FAULT_SPEC_FORMAT} (e.g. ${EXAMPLE})`]);
  }
  if (parts.length > 3) {
    throw new FaultRuleError([
      `stray part ':${parts.slice(3).join(':')}' after the options; write them as key=value,key=value`,
    ]);
  }
  const [operation, kind, options] = parts as [string, string, string | undefined];
  const rule: Record<string, unknown> = { operation, kind };
  if (options !== undefined) {
    for (const pair of options.split(',')) readPair(pair, rule);
  }
  return parseFaultRule(rule);
}

function readPair(pair: string, rule: Record<string, unknown>): void {
  const eq = pair.indexOf('=');
  if (eq <= 0 || eq === pair.length - 1) {
    throw new FaultRuleError([`stray part '${pair}': options are key=value (keys: ${SETTABLE.join(', ')})`]);
  }
  const key = pair.slice(0, eq);
  const value = pair.slice(eq + 1);
  if (!SETTABLE.includes(key)) {
    const near = closestKey(key, SETTABLE);
    throw new FaultRuleError([
      `unknown option '${key}'${near ? `; did you mean ${near}?` : `; options are ${SETTABLE.join(', ')}`}`,
    ]);
  }
  if (key in rule) throw new FaultRuleError([`option '${key}' given twice`]);
  rule[key] = TEXT_KEYS.has(key) || !/^-?\d+(\.\d+)?$/.test(value) ? value : Number(value);
}

/** The SPEC of a rule, as the CLI's startup lines list it. */
export function formatFaultSpec(rule: FaultRule | FaultRuleInput): string {
  const options = SETTABLE.flatMap((key) => {
    const value = (rule as Record<string, unknown>)[key];
    return value === undefined ? [] : [`${key}=${value}`];
  });
  return `${rule.operation}:${rule.kind}${options.length > 0 ? `:${options.join(',')}` : ''}`;
}
