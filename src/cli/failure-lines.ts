/**
 * What `payouts worker` prints of failed PayOuts: each one's line for the first few of every
 * cause, then a count. A batch that meets one refusal everywhere (no balance, a closed account
 * type) would otherwise print thousands of the same line and bury anything else; each PayOut's
 * result still says why, in `readPayOutBatch` and in `payouts send`'s results file.
 */
import { errorType } from '../tracing/span.js';

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

/**
 * A failure's cause: its class as spans name it (tracing/span.ts `errorType`), and the service's
 * error code or HTTP status when it has one.
 */
function causeOf(error: unknown): string {
  const { errorCode, status } = (error ?? {}) as { errorCode?: unknown; status?: unknown };
  const kind = errorType(error);
  if (typeof errorCode === 'string' && errorCode !== '') return `${kind} ${errorCode.slice(0, 60)}`;
  return typeof status === 'number' ? `${kind} (HTTP ${status})` : kind;
}

function messageOf(error: unknown): string {
  return String((error as { message?: unknown } | undefined)?.message ?? '');
}
