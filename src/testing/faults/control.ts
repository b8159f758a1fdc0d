/**
 * What the HTTP control (`GET/POST/DELETE {base_url}/_sandbox/faults`) and the dashboard's fault
 * panel do with the rules, as answers: list with counts, add, remove one, remove all. `scope`
 * is the signed-in merchant when the simulator is reachable from the network: it sees, adds
 * and removes only rules narrowed to itself (a rule it adds is narrowed to it).
 */
import { fail, invalid } from '../reply.js';
import type { SandboxResponse } from '../types.js';
import { type FaultRule, FaultRuleError } from './rule.js';
import type { FaultRules } from './rules.js';
import { parseFaultSpec } from './spec.js';

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

/** A rule in force with its counters: what GET /_sandbox/faults lists. */
export type RuleWithCounts = FaultRule & { matched: number; fired: number };

export function listRules(faults: FaultRules, scope: string | undefined): RuleWithCounts[] {
  const stats = new Map(faults.stats().map((s) => [s.id, s]));
  return faults
    .list()
    .filter((rule) => inScope(rule, scope))
    .map((rule) => ({
      ...rule,
      matched: stats.get(rule.id)?.matched ?? 0,
      fired: stats.get(rule.id)?.fired ?? 0,
    }));
}

/** POST: one rule as JSON (or, from the dashboard, `{ spec }`); answers 200 with the rule and its id (as the service answers its creates). */
export function addRule(faults: FaultRules, input: unknown, scope: string | undefined): SandboxResponse {
  try {
    const rule = isSpec(input) ? parseFaultSpec(input.spec) : input;
    if (scope !== undefined) {
      const asked = (rule as { merchant?: unknown } | null)?.merchant;
      if (asked !== undefined && asked !== scope) {
        return fail(
          404,
          'NOT_FOUND',
          `No merchant '${String(asked)}' here: your rules apply to ${scope} only.`,
        );
      }
    }
    const added = faults.add(
      scope === undefined ? (rule as FaultRule) : { ...(rule as FaultRule), merchant: scope },
    );
    return { status: 200, headers: { ...JSON_HEADERS }, body: added };
  } catch (error) {
    if (error instanceof FaultRuleError) return invalid(error.message);
    throw error;
  }
}

export function removeRule(faults: FaultRules, id: string, scope: string | undefined): SandboxResponse {
  const rule = faults.list().find((r) => r.id === id);
  if (!rule || !inScope(rule, scope) || !faults.remove(id)) {
    return fail(404, 'NOT_FOUND', `No fault rule '${id}': GET /_sandbox/faults lists the rules in force.`);
  }
  return { status: 200, headers: { ...JSON_HEADERS }, body: listRules(faults, scope) };
}

export function clearRules(faults: FaultRules, scope: string | undefined): SandboxResponse {
  if (scope === undefined) faults.clear();
  else for (const rule of listRules(faults, scope)) faults.remove(rule.id);
  return { status: 200, headers: { ...JSON_HEADERS }, body: listRules(faults, scope) };
}

function inScope(rule: FaultRule, scope: string | undefined): boolean {
  return scope === undefined || rule.merchant === scope;
}

function isSpec(input: unknown): input is { spec: string } {
  return (
    typeof input === 'object' &&
    input !== null &&
    Object.keys(input).length === 1 &&
    typeof (input as { spec?: unknown }).spec === 'string'
  );
}
