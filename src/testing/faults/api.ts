/**
 * Faults on API requests. The request core asks {@link answerWithFaults} for the answer of an
 * authenticated request: no rule fires → the endpoint answers as always; a rule fires → the
 * endpoint runs or not (commit) and the answer is replaced or marked, for the front end to
 * drop the connection or wait. Every fault that fires is noted in the transaction's history.
 */
import { STATUS_CODES } from 'node:http';
import type { SandboxState } from '../state.js';
import type { SandboxAppliedFault, SandboxResponse, SandboxTransaction } from '../types.js';
import type { FaultRule } from './rule.js';
import type { FaultTarget } from './rules.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/** The answer of one request under the rules in force; `commit` runs the endpoint. */
export function answerWithFaults(
  state: SandboxState,
  target: FaultTarget,
  commit: () => SandboxResponse,
): SandboxResponse {
  const rule = state.faults.match(target);
  if (!rule) return commit();
  const fault = { rule: rule.id, kind: rule.kind };
  switch (rule.kind) {
    case 'drop-before-commit':
      note(state, target, undefined, rule, 'request dropped before commit, nothing done');
      return { status: 0, headers: {}, body: undefined, fault };
    case 'status':
      note(state, target, undefined, rule, `answered ${rule.status} before commit, nothing done`);
      return statusAnswer(rule, fault);
    case 'drop-after-commit': {
      const answer = commit();
      note(state, target, answer, rule, 'answer dropped after commit');
      return { status: 0, headers: {}, body: undefined, fault: { ...fault, committed: answer.status } };
    }
    case 'garbled-after-commit': {
      const answer = commit();
      note(state, target, answer, rule, 'answer garbled after commit');
      return { status: 200, headers: { 'content-type': JSON_TYPE }, body: garble(answer), fault };
    }
    default: {
      const answer = commit();
      note(state, target, answer, rule, `answer delayed ${rule.ms} ms`);
      return { ...answer, fault: { ...fault, ms: rule.ms ?? 0 } };
    }
  }
}

/** The guide's error envelope with the status asked for; nothing was done. */
function statusAnswer(rule: FaultRule, fault: SandboxAppliedFault): SandboxResponse {
  const status = rule.status ?? 503;
  const reason = STATUS_CODES[status] ?? `HTTP ${status}`;
  const headers: Record<string, string> = { 'content-type': JSON_TYPE };
  if (rule.retryAfter !== undefined) headers['retry-after'] = String(rule.retryAfter);
  const later = rule.retryAfter === undefined ? '' : `; retry after ${rule.retryAfter} s`;
  return {
    status,
    headers,
    body: {
      code: '00',
      status: 'ERROR',
      error: reason.toUpperCase().replace(/[^A-Z0-9]+/g, '_'),
      message: `${reason}: the request was not processed (sandbox fault rule ${rule.id})${later}.`,
    },
    fault,
  };
}

/** The start of what would have been sent, cut mid-way: a 200 no JSON parser accepts. */
function garble(answer: SandboxResponse): string {
  const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body ?? {});
  return `${text.slice(0, Math.max(1, Math.floor(text.length / 2)))}…`;
}

/** "payout.create: answer dropped after commit (fault-1)" in the history of the transaction concerned. */
function note(
  state: SandboxState,
  target: FaultTarget,
  answer: SandboxResponse | undefined,
  rule: FaultRule,
  what: string,
): void {
  const transaction = concerned(state, target, answer);
  if (transaction)
    state.feed.note(transaction, state.clock.now(), `${target.operation}: ${what} (${rule.id})`);
}

function concerned(
  state: SandboxState,
  target: FaultTarget,
  answer: SandboxResponse | undefined,
): SandboxTransaction | undefined {
  const data = (answer?.body as { data?: { ticket?: unknown } } | undefined)?.data;
  if (typeof data?.ticket === 'string') {
    const created = state.transactions.get(data.ticket);
    if (created) return created;
  }
  if (target.subject === '') return undefined;
  const merchant = state.merchants.list.find((m) => m.username === target.merchant);
  return merchant ? state.find(merchant, target.subject) : undefined;
}
