/**
 * BullMQ's 'error' events, told apart by kind. A Redis outage fails every held job's lock renewal
 * and completion with one message per job ("could not renew lock for job <id>"), so the job is
 * left out of what makes a kind: the worker's own warning (worker.ts, when the application does
 * not listen) and `payouts worker`'s output say each kind once. Remembering kinds, not messages,
 * also keeps a worker that runs for weeks through many outages from holding a string per job.
 * No BullMQ import: the CLI loads this without it.
 */

/** Kinds remembered; past that no new one is said. */
const MAX_ERROR_KINDS = 100;

/** Each kind of BullMQ error once. */
export class ErrorKinds {
  readonly #seen = new Set<string>();

  /** Whether `message` is the first of its kind (and so to be said). */
  first(message: string): boolean {
    const kind = message.replace(/\bjob \S+?(?=\.?(?:\s|$))/g, 'job …');
    if (this.#seen.has(kind) || this.#seen.size >= MAX_ERROR_KINDS) return false;
    this.#seen.add(kind);
    return true;
  }
}
