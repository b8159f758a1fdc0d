/**
 * Everything the CLI prints goes through here. Text the service controls (error messages,
 * statuses, any field of a transaction) and text from the user's files (references) must never
 * reach a terminal raw: an ESC/CSI or OSC sequence can rewrite the screen, retitle the window,
 * plant a clipboard or hyperlink; a bare CR or a bidi override can make a line show other text
 * than it holds. Each such character is shown as its `\uXXXX` escape instead — visible to the
 * reader, and still valid inside the JSON `payinout get` prints (it means the same character).
 */

/**
 * C0 controls but tab and line feed, DEL, C1 controls (8-bit CSI/OSC), the Unicode line and
 * paragraph separators, and the bidi embeddings, overrides, isolates and marks.
 */
const UNSAFE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** `text` with every character a terminal would act on, rather than show, escaped. */
export function forTerminal(text: string): string {
  return text.replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Writes `text` to stdout, neutralised; add the line's own '\n'. */
export function printOut(text: string): void {
  process.stdout.write(forTerminal(text));
}

/** Writes `text` to stderr, neutralised; add the line's own '\n'. */
export function printErr(text: string): void {
  process.stderr.write(forTerminal(text));
}

/** The few styles the sandbox terminal uses (SGR codes). */
const STYLES = {
  dim: '2',
  bold: '1',
  red: '31',
  green: '32',
  yellow: '33',
  cyan: '36',
  magenta: '35',
} as const;
export type Style = keyof typeof STYLES;
/** A piece of a line: plain text, or text with a style. */
export type Part = string | readonly [text: string, style: Style];

/** Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org). */
export function stdoutHasColour(): boolean {
  return process.stdout.isTTY === true && !process.env.NO_COLOR;
}

/**
 * Writes one line of parts to stdout: each part's text neutralised as {@link forTerminal}
 * does, then wrapped in its style's escape when `colour` is true (the only escapes written).
 */
export function printOutLine(parts: readonly Part[], colour: boolean): void {
  const text = parts
    .map((part) => {
      if (typeof part === 'string') return forTerminal(part);
      const [body, style] = part;
      return colour ? `\u001b[${STYLES[style]}m${forTerminal(body)}\u001b[0m` : forTerminal(body);
    })
    .join('');
  process.stdout.write(`${text}\n`);
}
