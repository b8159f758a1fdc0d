/**
 * A job's last script, END_JOB (chunk-scripts.ts), sent so that it costs no round trip of its own:
 * the job returns to BullMQ once the script is written, not once it is answered, and BullMQ's
 * completion of the job follows it on the same connection, in the same socket write
 * (script-batch.ts holdWrites). Redis runs one connection's commands in order, so a job is never
 * completed before its results are saved. Should a client resend the script later (NOSCRIPT after
 * a SCRIPT FLUSH), a reader that finds neither result nor job sees the item's lease still held
 * and counts it pending (scripts.ts READ_RESULTS), never vanished.
 */
import type { RedisClient } from 'bullmq';
import { endJob, type LeaseRef, type SavedResult } from './chunk-scripts.js';
import { ResultsNotSavedError } from './errors.js';

/** Waits before each new try of a refused END_JOB: within a lease's default 5 s. */
const RETRY_MS = [250, 1_000, 2_500];

/** One job's END_JOB: its connection, keys, the leases it still holds and its results. */
export interface JobEnd {
  client: RedisClient;
  keys: Parameters<typeof endJob>[1];
  held: LeaseRef[];
  saved: SavedResult[];
}

/**
 * Sends END_JOB; resolves once it is on the connection. Refused (Redis out of memory, a script
 * error), it is sent again — releasing a lease and saving a result are both idempotent, the first
 * saved result wins — and after the last try `report` is told, for the worker's 'error' event.
 */
export function sendEnd(end: JobEnd, report: (error: Error) => void): Promise<void> {
  return new Promise<void>((written) => {
    endJob(end.client, end.keys, end.held, end.saved, written).catch((error: unknown) => {
      written(); // refused before it was written (a closed connection): the job returns all the same
      retry(end, report, error, 0);
    });
  });
}

function retry(end: JobEnd, report: (error: Error) => void, error: unknown, tries: number): void {
  const wait = RETRY_MS[tries];
  if (wait === undefined) {
    report(new ResultsNotSavedError(end.saved.length, tries + 1, error));
    return;
  }
  const again = () =>
    endJob(end.client, end.keys, end.held, end.saved).catch((next: unknown) =>
      retry(end, report, next, tries + 1),
    );
  // Unref'd: a process that is otherwise done does not stay up for it (the lease runs out instead).
  setTimeout(again, wait).unref();
}
