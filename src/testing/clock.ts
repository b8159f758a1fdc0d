/**
 * Time for the simulator: one injectable source for "now" and for timers, so webhook retry
 * schedules (guide "Events", rule 4) can be tested in milliseconds with a manual clock.
 */

/** The simulator's source of time and timers (`SandboxOptions.clock`). */
export interface SandboxClock {
  /** Current time, ms since the epoch. */
  now(): number;
  /** Runs `callback` after `ms`; returns a handle for `clearTimeout`. */
  setTimeout(callback: () => void, ms: number): unknown;
  /** Cancels a timer set by this clock's `setTimeout`. */
  clearTimeout(handle: unknown): void;
}

/** Date.now and the real timers; timers are unref'd so a forgotten sandbox never holds the process. */
export const realClock: SandboxClock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => {
    const timer = setTimeout(callback, ms);
    timer.unref?.();
    return timer;
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** A {@link SandboxClock} that moves only when `advance` is called (see {@link createManualClock}). */
export interface ManualClock extends SandboxClock {
  /** Moves time forward, firing due timers in order and letting their async work settle in between. */
  advance(ms: number): Promise<void>;
  /** Timers not yet fired. */
  readonly pending: number;
}

interface ManualTimer {
  id: number;
  at: number;
  callback: () => void;
}

/**
 * A clock that only moves when told to: for tests of schedules (webhook retries, auto-completion).
 * @example
 * const clock = createManualClock();
 * const sandbox = createSandbox({ clock });
 * // … a webhook delivery fails …
 * await clock.advance(5 * 60_000); // the first retry is sent now
 */
export function createManualClock(start = Date.UTC(2025, 0, 15, 12, 0, 0)): ManualClock {
  let now = start;
  let nextId = 1;
  const timers = new Map<number, ManualTimer>();
  const settle = async () => {
    // A few macrotask turns: enough for a stubbed fetch and its .then chain to finish.
    for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
  };
  return {
    now: () => now,
    setTimeout(callback, ms) {
      const id = nextId++;
      timers.set(id, { id, at: now + Math.max(0, ms), callback });
      return id;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
    get pending() {
      return timers.size;
    },
    async advance(ms) {
      const target = now + ms;
      await settle();
      for (;;) {
        let due: ManualTimer | undefined;
        for (const timer of timers.values()) {
          if (timer.at <= target && (!due || timer.at < due.at || (timer.at === due.at && timer.id < due.id)))
            due = timer;
        }
        if (!due) break;
        timers.delete(due.id);
        now = due.at;
        due.callback();
        await settle();
      }
      now = target;
    },
  };
}

const pad = (n: number) => (n < 10 ? `0${n}` : String(n));

/** 'YYYY-MM-DD HH:MM:SS' in UTC (guide "Transaction (PayIn or PayOut)": date). */
export function formatTimestamp(ms: number): string {
  const d = new Date(ms);
  return (
    `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`
  );
}
