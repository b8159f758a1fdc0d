/**
 * The results file of `payouts send` and `transactions check`, written so that it never costs
 * the user a file or a result:
 * - it is opened, checked and its header written BEFORE anything is sent, so an unwritable path
 *   (a directory, a full disk, no permission) is a usage error while nothing has happened yet;
 * - it is refused when it is the input file under another name (a symlink, a hard link,
 *   `x/../FILE`): compared by file identity (device and inode), never by path, and checked
 *   before it is truncated;
 * - a write that fails later (disk full mid-batch, a closed pipe) never crashes the process —
 *   every write is an awaited promise, there is no stream to emit an unhandled 'error' — and the
 *   rows are kept, so `close()` puts the complete results in a fallback file in the temp dir
 *   (or on stderr when even that fails) and says where they went.
 * - without `--out` it is FILE.results.csv beside the input, or FILE.results.1.csv, .2, … when a
 *   previous run's is there: a re-run never overwrites the results of the run before (created
 *   exclusively, so two runs at once cannot pick the same name either).
 * Cells go through csv-stringify with formulas neutralised: references and service messages
 * come from outside and may be opened in a spreadsheet.
 */
import { constants, type Stats } from 'node:fs';
import { type FileHandle, open, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { isatty } from 'node:tty';
import { stringify } from 'csv-stringify/sync';
import { UsageError } from './errors.js';
import { forTerminal, printErr } from './terminal.js';

/** Where the results are once the file is closed. */
export interface ResultsPlace {
  /** The file (or 'stderr') that holds every result. */
  path: string;
  /** Why the requested file could not hold them, when it could not. */
  failure?: string;
}

export interface ResultsFile {
  /** The file being written. */
  readonly path: string;
  write(cells: readonly string[]): Promise<void>;
  close(): Promise<ResultsPlace>;
}

/** Unwritten text past which `write` waits for the disk (backpressure). */
const HIGH_WATER = 1 << 20;

/**
 * Opens the results file of `input`: `out` when given (`--out`, rewritten), else the first free
 * default name. Throws UsageError (exit 2: nothing sent yet) when it cannot.
 */
export async function openResultsFile(
  out: string | undefined,
  input: string,
  columns: readonly string[],
): Promise<ResultsFile> {
  const source = await stat(input).catch((error) => {
    throw new UsageError(`cannot read ${input} (${codeOf(error)}); nothing was sent.`);
  });
  const { path, handle } = out === undefined ? await openFreshDefault(input) : await openNamed(out);
  try {
    const target = await handle.stat();
    if (sameFile(source, target)) {
      throw new UsageError(
        `--out ${path} is the input file ${input}${resolve(path) === resolve(input) ? '' : ' (the same file on disk, under another name)'}; choose another results file. Nothing was sent.`,
      );
    }
    if (target.isFile()) await handle.truncate(0);
    // `--out /dev/tty` (or /dev/stdout on a terminal) is a terminal like any other output.
    const format = isatty(handle.fd) ? (cells: readonly string[]) => forTerminal(row(cells)) : row;
    const header = format(columns);
    await handle.writeFile(header);
    return new Writer(handle, path, header, format);
  } catch (error) {
    await handle.close().catch(() => undefined);
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot write the results file ${path} (${codeOf(error)}); nothing was sent.`);
  }
}

/** `--out`: opened without O_TRUNC, truncated only once it is known not to be the input. */
async function openNamed(path: string): Promise<{ path: string; handle: FileHandle }> {
  const handle = await open(path, constants.O_WRONLY | constants.O_CREAT, 0o644).catch((error) => {
    throw new UsageError(`cannot write the results file ${path} (${codeOf(error)}); nothing was sent.`);
  });
  return { path, handle };
}

/** The default name of the results of `input`, for the `n`th run that found the earlier ones there. */
export function defaultResultsPath(input: string, n = 0): string {
  return `${input.replace(/\.csv$/i, '')}.results${n === 0 ? '' : `.${n}`}.csv`;
}

/** FILE.results.csv, else FILE.results.1.csv, .2, …: created exclusively, never one that exists. */
async function openFreshDefault(input: string): Promise<{ path: string; handle: FileHandle }> {
  for (let n = 0; n < 10_000; n++) {
    const path = defaultResultsPath(input, n);
    try {
      return {
        path,
        handle: await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o644),
      };
    } catch (error) {
      if ((error as { code?: string }).code === 'EEXIST') continue;
      throw new UsageError(`cannot write the results file ${path} (${codeOf(error)}); nothing was sent.`);
    }
  }
  throw new UsageError(
    `${defaultResultsPath(input)} and 9,999 numbered copies exist; move old results away or choose --out. Nothing was sent.`,
  );
}

function sameFile(a: Stats, b: Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

function row(cells: readonly string[]): string {
  // escape_formulas prefixes a cell starting with = + - @ tab or CR with ', so a spreadsheet
  // shows it as text.
  return stringify([cells as string[]], { escape_formulas: true });
}

class Writer implements ResultsFile {
  readonly #handle: FileHandle;
  readonly #out: string;
  get path(): string {
    return this.#out;
  }
  readonly #format: (cells: readonly string[]) => string;
  /** Every row written, header first: what a fallback file needs when the disk fails. */
  readonly #rows: string[];
  #pending: string[] = [];
  #pendingBytes = 0;
  #flushing: Promise<void> | undefined;
  #failure: unknown;

  constructor(handle: FileHandle, out: string, header: string, format: (cells: readonly string[]) => string) {
    this.#handle = handle;
    this.#out = out;
    this.#format = format;
    this.#rows = [header];
  }

  async write(cells: readonly string[]): Promise<void> {
    const line = this.#format(cells);
    this.#rows.push(line);
    if (this.#failure !== undefined) return;
    this.#pending.push(line);
    this.#pendingBytes += line.length;
    this.#flushing ??= this.#flush();
    if (this.#pendingBytes > HIGH_WATER) await this.#flushing;
  }

  /** Writes what is pending, chunk after chunk; a failure is kept, never thrown. */
  async #flush(): Promise<void> {
    while (this.#pending.length && this.#failure === undefined) {
      const chunk = this.#pending.join('');
      this.#pending = [];
      this.#pendingBytes = 0;
      try {
        await this.#handle.writeFile(chunk);
      } catch (error) {
        this.#failure = error;
      }
    }
    this.#flushing = undefined;
  }

  async close(): Promise<ResultsPlace> {
    await this.#flushing;
    await this.#handle.close().catch((error) => {
      this.#failure ??= error;
    });
    if (this.#failure === undefined) return { path: this.#out };
    const failure = `${codeOf(this.#failure)}`;
    const fallback = await writeFallback(this.#out, this.#rows);
    if (fallback) return { path: fallback, failure };
    printErr(this.#rows.join(''));
    return { path: 'stderr', failure };
  }
}

/** The complete results in a new file of the temp dir (private: results name references). */
async function writeFallback(out: string, rows: readonly string[]): Promise<string | undefined> {
  const path = join(
    tmpdir(),
    `payinout-${basename(out).replace(/\.csv$/i, '')}-${Date.now()}-${process.pid}.csv`,
  );
  try {
    const handle = await open(path, 'wx', 0o600);
    try {
      await handle.writeFile(rows.join(''));
    } finally {
      await handle.close();
    }
    return path;
  } catch {
    return undefined;
  }
}

/** `ENOSPC: no space left on device`-like text, without the path (the message says it). */
function codeOf(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  const reason = message?.replace(/^[A-Z]+: /, '').replace(/, \w+( '.*')?$/, '');
  return code ? `${code}${reason ? `: ${reason}` : ''}` : String(message ?? error);
}
