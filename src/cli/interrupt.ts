/**
 * Ctrl+C, or a supervisor's SIGTERM, during a long command: the first one stops starting work
 * and lets what is in flight settle (so the results file is complete and true); a second one
 * quits at once.
 */
import { printErr } from './terminal.js';

/** Aborts `controller` on the first SIGINT/SIGTERM, after `before()` and saying `stopping`; returns the undo. */
export function stopOnSignal(controller: AbortController, stopping: string, before: () => void): () => void {
  const onSignal = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) process.exit(signal === 'SIGINT' ? 130 : 143);
    before();
    printErr(`${stopping} (Ctrl+C again to quit at once)\n`);
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
}
