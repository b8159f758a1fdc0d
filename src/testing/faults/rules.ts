/**
 * The rules in force and what they did: `sandbox.faults`. Each request or delivery attempt is
 * matched against the rules in order; every rule it matches counts it, and the first one whose
 * draw (draw.ts) falls under its `rate`, with `times` left, fires. A rule added or removed
 * applies from the next request on: the list is replaced, never edited in place.
 */
import type { OperationId } from '../../api/operations.js';
import { ConfigurationError } from '../../core/errors.js';
import { draw, ordinalHash, randomSeed, ruleHash, targetHash } from './draw.js';
import {
  type FaultKind,
  type FaultOperation,
  type FaultRule,
  FaultRuleError,
  type FaultRuleInput,
  parseFaultRule,
} from './rule.js';

/** What a rule is matched against. */
export interface FaultTarget {
  readonly operation: OperationId | 'webhook';
  /** The authenticated merchant's username (webhook: the transaction's merchant). */
  readonly merchant: string;
  /** The reference, ticket or transaction id the request or delivery is about; '' when none. */
  readonly subject: string;
  /** Webhook only: true on the first attempt of a delivery a `reorder` rule may act on. */
  readonly reorderable?: boolean;
}

/** One fault that fired, as `sandbox.faults.log()` records it (and a replay fires it again). */
export interface FiredFault {
  readonly ruleId: string;
  readonly kind: FaultKind;
  readonly operation: OperationId | 'webhook';
  readonly merchant: string;
  readonly subject: string;
  /** How many earlier requests (or attempts) had this operation, merchant and subject. */
  readonly occurrence: number;
}

/** A rule's counters, as `sandbox.faults.stats()` reports them. */
export interface FaultStats {
  readonly id: string;
  readonly operation: FaultOperation;
  readonly kind: FaultKind;
  /** Requests or attempts the rule matched (operation and merchant). */
  readonly matched: number;
  /** Of those, how many got the fault. */
  readonly fired: number;
}

/** A run's faults, to repeat it: `createSandbox({ replayFaults: sandbox.faults.log() })`. */
export interface FaultLog {
  readonly seed: number;
  readonly rules: readonly FaultRule[];
  readonly fired: readonly FiredFault[];
}

/** `sandbox.faults`: the rules of {@link createSandbox}'s `faults`, changed at run time. */
export interface SandboxFaults {
  /** The seed of `rate` draws: `seed` given to createSandbox, else a random one (printed by the CLI). */
  readonly seed: number;
  /** Validates and adds a rule (applies to requests that arrive after it); throws FaultRuleError. */
  add(rule: FaultRuleInput): FaultRule;
  /** Removes a rule by id; false when no rule has that id. */
  remove(id: string): boolean;
  /** Removes every rule (their counters go with them; the log stays). */
  clear(): void;
  /** The rules in force, in the order they are matched. */
  list(): FaultRule[];
  /** `{ id, operation, kind, matched, fired }` per rule in force. */
  stats(): FaultStats[];
  /** The seed, the rules and every fault fired so far, in order. */
  log(): FaultLog;
}

interface Active {
  readonly rule: FaultRule;
  /** The rule's part of each draw (draw.ts). */
  readonly hash: number;
  matched: number;
  fired: number;
}

/** Beyond this many fired faults the log keeps counting but stops recording. */
const MAX_LOG = 100_000;

export class FaultRules implements SandboxFaults {
  readonly seed: number;
  #active: readonly Active[] = [];
  #nextId = 1;
  /** targetHash → how many times it was matched (repeats of one request draw afresh). */
  readonly #occurrences = new Map<number, number>();
  readonly #log: FiredFault[] = [];
  readonly #loggedRules: FaultRule[] = [];
  /** Replay: `ruleId|key|occurrence` of each fault to fire again; rate and times do not apply to those rules. */
  readonly #replay: Map<string, Set<string>> | undefined;
  readonly #listeners = new Set<(merchant: string | undefined) => void>();

  constructor(options: { seed?: number; faults?: readonly FaultRuleInput[]; replay?: FaultLog }) {
    const { replay } = options;
    if (replay && (options.faults || options.seed !== undefined)) {
      throw new ConfigurationError(
        'replayFaults brings its own seed and rules: leave out seed and faults (add rules later with sandbox.faults.add()).',
      );
    }
    this.seed = replay?.seed ?? options.seed ?? randomSeed();
    if (replay) {
      this.#replay = new Map(replay.rules.map((rule) => [rule.id, new Set<string>()]));
      for (const fired of replay.fired) this.#replay.get(fired.ruleId)?.add(replayKey(fired));
      this.#install(replay.rules.map((rule) => ({ ...parseFaultRule(stripId(rule)), id: rule.id })));
    }
    // Checked all before any is in force: a bad rule anywhere leaves no half-made sandbox.
    const { faults = [] } = options;
    if (!Array.isArray(faults)) {
      throw new FaultRuleError([
        'faults: must be a list of rules, e.g. [{ operation: "*", kind: "status", status: 503 }]',
      ]);
    }
    const parsed = faults.map((rule) => parseFaultRule(rule));
    this.#install(parsed.map((rule) => ({ ...rule, id: this.#newId() })));
  }

  /**
   * Called when a rule is added or removed (merchant undefined) and when one fires (the
   * merchant of the request or delivery): the dashboard's live counts. Returns an unsubscribe.
   */
  onChange(listener: (merchant: string | undefined) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  add(input: FaultRuleInput): FaultRule {
    const rule = { ...parseFaultRule(input), id: this.#newId() };
    this.#install([rule]);
    this.#changed(undefined);
    return { ...rule };
  }

  remove(id: string): boolean {
    const kept = this.#active.filter((a) => a.rule.id !== id);
    if (kept.length === this.#active.length) return false;
    this.#active = kept;
    this.#changed(undefined);
    return true;
  }

  clear(): void {
    this.#active = [];
    // With no rule nothing is drawn: the counts of requests seen so far need not be kept.
    this.#occurrences.clear();
    this.#changed(undefined);
  }

  list(): FaultRule[] {
    return this.#active.map((a) => ({ ...a.rule }));
  }

  stats(): FaultStats[] {
    return this.#active.map(({ rule, matched, fired }) => ({
      id: rule.id,
      operation: rule.operation,
      kind: rule.kind,
      matched,
      fired,
    }));
  }

  log(): FaultLog {
    return { seed: this.seed, rules: this.#loggedRules.map((r) => ({ ...r })), fired: [...this.#log] };
  }

  /** The rule that fires on this request or attempt, if any; counts and logs it. */
  match(target: FaultTarget): FaultRule | undefined {
    const rules = this.#active;
    if (rules.length === 0) return undefined;
    const key = targetHash(target.operation, target.merchant, target.subject);
    const occurrence = this.#occurrences.get(key) ?? 0;
    this.#occurrences.set(key, occurrence + 1);
    let chosen: Active | undefined;
    for (const active of rules) {
      if (!matches(active.rule, target)) continue;
      const ordinal = active.matched++;
      if (!chosen && this.#fires(active, key, occurrence, ordinal)) chosen = active;
    }
    if (!chosen) return undefined;
    chosen.fired++;
    const { rule } = chosen;
    const { operation, merchant, subject } = target;
    if (this.#log.length < MAX_LOG) {
      this.#log.push({ ruleId: rule.id, kind: rule.kind, operation, merchant, subject, occurrence });
    }
    this.#changed(merchant);
    return rule;
  }

  /** Replay: where the log says. Else the rule's `ordinal`-th draw from the seed, under its rate. */
  #fires({ rule, fired, hash }: Active, target: number, occurrence: number, ordinal: number): boolean {
    const replayed = this.#replay?.get(rule.id);
    if (replayed) return replayed.has(`${target}:${occurrence}`);
    if (rule.times !== undefined && fired >= rule.times) return false;
    const rate = rule.rate ?? 1;
    return rate >= 1 || draw(ordinalHash(this.seed, ordinal), hash) < rate;
  }

  #changed(merchant: string | undefined): void {
    for (const listener of this.#listeners) listener(merchant);
  }

  #install(rules: readonly FaultRule[]): void {
    const added = rules.map((rule) => ({ rule, hash: ruleHash(rule.id), matched: 0, fired: 0 }));
    this.#active = [...this.#active, ...added];
    this.#loggedRules.push(...rules);
  }

  #newId(): string {
    let id: string;
    do id = `fault-${this.#nextId++}`;
    while (this.#loggedRules.some((r) => r.id === id));
    return id;
  }
}

function matches(rule: FaultRule, target: FaultTarget): boolean {
  if (rule.operation === 'webhook') {
    if (target.operation !== 'webhook') return false;
    if (rule.kind === 'reorder' && !target.reorderable) return false;
  } else if (
    rule.operation !== target.operation &&
    (rule.operation !== '*' || target.operation === 'webhook')
  ) {
    return false;
  }
  return rule.merchant === undefined || rule.merchant === target.merchant;
}

/** The request a fired fault was drawn on, as `#fires` sees it. */
function replayKey(fired: FiredFault): string {
  return `${targetHash(fired.operation, fired.merchant, fired.subject)}:${fired.occurrence}`;
}

function stripId(rule: FaultRule): FaultRuleInput {
  const { id: _id, ...input } = rule;
  return input;
}
