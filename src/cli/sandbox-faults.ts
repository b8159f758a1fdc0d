/** `payinout sandbox --fault SPEC --seed N`: the SPEC parser for commander, and the startup lines that list the rules. */
import { InvalidArgumentError } from 'commander';
import { endSentence, FaultRuleError, type FaultRuleInput } from '../testing/faults/rule.js';
import type { SandboxFaults } from '../testing/faults/rules.js';
import { formatFaultSpec, parseFaultSpec } from '../testing/faults/spec.js';

/** --fault, repeatable: a refused SPEC is a usage error (exit 2) naming the part that is wrong. */
export function faultSpec(spec: string, previous: FaultRuleInput[] | undefined): FaultRuleInput[] {
  try {
    return [...(previous ?? []), parseFaultSpec(spec)];
  } catch (error) {
    if (error instanceof FaultRuleError)
      throw new InvalidArgumentError(endSentence(error.problems.join('; ')));
    throw error;
  }
}

/** `fault_seed=7` and one `fault=fault-1 payout.create:drop-after-commit:rate=0.05` per rule. */
export function faultStartupLines(faults: SandboxFaults): string[] {
  const rules = faults.list();
  if (rules.length === 0) return [];
  return [`fault_seed=${faults.seed}`, ...rules.map((rule) => `fault=${rule.id} ${formatFaultSpec(rule)}`)];
}
