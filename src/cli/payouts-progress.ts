/**
 * Progress of `payouts send` on stderr: a cli-progress bar when stderr is a terminal, otherwise
 * (CI logs, redirected output) one line per 10 %, so a log is readable and not flooded.
 */
import cliProgress from 'cli-progress';
import type { PayOutBatchProgress } from '../bulk/types.js';

export interface ProgressView {
  update(progress: PayOutBatchProgress): void;
  stop(): void;
}

export function progressView(total: number, stream: NodeJS.WriteStream = process.stderr): ProgressView {
  return stream.isTTY ? barView(total, stream) : lineView(total, stream);
}

function barView(total: number, stream: NodeJS.WriteStream): ProgressView {
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format:
        'payouts {bar} {percentage}% | {value}/{total} | created {created} recovered {recovered} failed {failed} | ETA {eta_formatted}',
      hideCursor: true,
      etaBuffer: 200,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0, { created: 0, recovered: 0, failed: 0 });
  return {
    update: (p) => bar.update(p.done, { created: p.created, recovered: p.recovered, failed: p.failed }),
    stop: () => bar.stop(),
  };
}

function lineView(total: number, stream: NodeJS.WriteStream): ProgressView {
  let shown = 0; // tenths already printed
  return {
    update(p) {
      const tenth = total === 0 ? 10 : Math.floor((p.done * 10) / total);
      if (tenth <= shown) return;
      shown = tenth;
      stream.write(
        `payouts: ${Math.floor((p.done * 100) / Math.max(total, 1))}% (${p.done}/${p.total}) created ${p.created}, recovered ${p.recovered}, failed ${p.failed}\n`,
      );
    },
    stop() {},
  };
}
