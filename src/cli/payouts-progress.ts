/**
 * Progress of `payouts send` and `transactions check` on stderr: a cli-progress bar when stderr
 * is a terminal, otherwise (CI logs, redirected output) one line per 10 %, so a log is readable
 * and not flooded. Only numbers and fixed labels are shown: nothing the service controls.
 */
import cliProgress from 'cli-progress';

/** Settled count and one number per counter. */
export interface Progress {
  done: number;
  total: number;
}

export interface ProgressView {
  update(progress: Progress): void;
  stop(): void;
}

/** What a command counts: the label of its progress, and each counter's key and shown name. */
export interface ProgressKind {
  label: string;
  counters: readonly (readonly [key: string, name: string])[];
}

const PAYOUTS: ProgressKind = {
  label: 'payouts',
  counters: [
    ['created', 'created'],
    ['recovered', 'recovered'],
    ['failed', 'failed'],
  ],
};

export function progressView(
  total: number,
  stream: NodeJS.WriteStream = process.stderr,
  kind: ProgressKind = PAYOUTS,
): ProgressView {
  return stream.isTTY ? barView(total, stream, kind) : lineView(total, stream, kind);
}

function barView(total: number, stream: NodeJS.WriteStream, { label, counters }: ProgressKind): ProgressView {
  const shown = counters.map(([key, name]) => `${name} {${key}}`).join(' ');
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format: `${label} {bar} {percentage}% | {value}/{total} | ${shown} | ETA {eta_formatted}`,
      hideCursor: true,
      etaBuffer: 200,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0, Object.fromEntries(counters.map(([key]) => [key, 0])));
  return {
    update: (p) => bar.update(p.done, Object.fromEntries(counters.map(([key]) => [key, countOf(p, key)]))),
    stop: () => bar.stop(),
  };
}

function lineView(
  total: number,
  stream: NodeJS.WriteStream,
  { label, counters }: ProgressKind,
): ProgressView {
  let shown = 0; // tenths already printed
  return {
    update(p) {
      const tenth = total === 0 ? 10 : Math.floor((p.done * 10) / total);
      if (tenth <= shown) return;
      shown = tenth;
      const counts = counters.map(([key, name]) => `${name} ${countOf(p, key)}`).join(', ');
      stream.write(
        `${label}: ${Math.floor((p.done * 100) / Math.max(total, 1))}% (${p.done}/${p.total}) ${counts}\n`,
      );
    },
    stop() {},
  };
}

function countOf(progress: Progress, key: string): number {
  return (progress as unknown as Record<string, number>)[key] ?? 0;
}
