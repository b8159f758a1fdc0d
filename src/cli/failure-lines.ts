/**
 * What `payouts worker` prints of failed PayOuts: each one's line for the first few of every
 * cause, then a count. A batch that meets one refusal everywhere (no balance, a closed account
 * type) would otherwise print thousands of the same line and bury anything else; each PayOut's
 * result still says why, in `readPayOutBatch` and in `payouts send`'s results file. And of
 * BullMQ's errors (Redis away), each kind once.
 */

/** Lines printed per cause before its PayOuts are only counted. */
export const LINES_PER_CAUSE = 5;
/** Causes told apart; past that (a service answering a new code each time) they share one. */
const MAX_CAUSES = 50;
const OTHER = 'other causes';

export class FailureLines {
  readonly #counts = new Map<string, number>();

  /**
   * The text to print for a failed PayOut, or undefined once its cause has had its lines: the
   * PayOut's own line, or (once per cause) the line that says the rest are counted.
   */
  line(reference: string, error: unknown): string | undefined {
    const cause = this.#causeOf(error);
    const count = (this.#counts.get(cause) ?? 0) + 1;
    this.#counts.set(cause, count);
    if (count <= LINES_PER_CAUSE) return `${reference} failed: ${messageOf(error)}`;
    if (count === LINES_PER_CAUSE + 1) {
      return `more PayOuts failed with ${cause}: counted in the summary lines, not listed (each PayOut's result says why: readPayOutBatch, or the results file of payouts send)`;
    }
    return undefined;
  }

  /** The failed PayOuts not listed, by cause ('' when every one was): for the summary lines. */
  unlisted(): string {
    const parts: string[] = [];
    for (const [cause, count] of this.#counts) {
      if (count > LINES_PER_CAUSE) parts.push(`${cause} ${count - LINES_PER_CAUSE}`);
    }
    return parts.length === 0 ? '' : ` (not listed: ${parts.join(', ')})`;
  }

  #causeOf(error: unknown): string {
    const cause = causeOf(error);
    return this.#counts.has(cause) || this.#counts.size < MAX_CAUSES ? cause : OTHER;
  }
}

/** A failure's cause: its class, and the service's error code or HTTP status when it has one. */
function causeOf(error: unknown): string {
  const { name, errorCode, status } = (error ?? {}) as {
    name?: unknown;
    errorCode?: unknown;
    status?: unknown;
  };
  const kind = typeof name === 'string' && name !== '' ? name : 'Error';
  if (typeof errorCode === 'string' && errorCode !== '') return `${kind} ${errorCode.slice(0, 60)}`;
  return typeof status === 'number' ? `${kind} (HTTP ${status})` : kind;
}

function messageOf(error: unknown): string {
  return String((error as { message?: unknown } | undefined)?.message ?? '');
}

/** Kinds of BullMQ error the worker remembers having printed; past that it prints no new one. */
const MAX_ERROR_KINDS = 100;

/**
 * BullMQ's 'error' events, each kind printed once: a Redis outage fails every held job's lock
 * renewal and completion with one message per job ("could not renew lock for job <id>"), so the
 * job is left out of what makes a kind. Remembering kinds, not messages, also keeps a worker
 * that runs for weeks through many outages from holding one string per job it ever had.
 */
export class ErrorKinds {
  readonly #seen = new Set<string>();

  /** Whether `message` is the first of its kind (and so to be printed). */
  first(message: string): boolean {
    const kind = message.replace(/\bjob \S+?(?=\.?(?:\s|$))/g, 'job …');
    if (this.#seen.has(kind) || this.#seen.size >= MAX_ERROR_KINDS) return false;
    this.#seen.add(kind);
    return true;
  }
}
