import { markdownHeadings } from '../../src/cli/guide-index.js';

/** Reading a Markdown guide the way a reader copies from it: its fenced code blocks and links. */

export interface CodeBlock {
  /** The fence's language, lower-cased ('ts', 'sh', 'text', …). */
  lang: string;
  /** The words after the language (```ts partial → ['partial']). */
  flags: string[];
  code: string;
  /** 1-based line of the opening fence, for messages. */
  line: number;
}

/** Every fenced block (``` or ~~~), in order. */
export function codeBlocks(markdown: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^(`{3,}|~{3,})\s*([\w-]*)(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const fence = open[1]!;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !lines[i]!.startsWith(fence); i++) body.push(lines[i]!);
    const flags = open[3]!.trim().split(/\s+/).filter(Boolean);
    blocks.push({ lang: open[2]!.toLowerCase(), flags, code: body.join('\n'), line: start + 1 });
  }
  return blocks;
}

/** Languages a reader runs as TypeScript or JavaScript. */
export const SCRIPT_LANGS = new Set(['ts', 'typescript', 'js', 'javascript', 'mjs', 'mts', 'tsx']);
export const SHELL_LANGS = new Set(['sh', 'bash', 'shell', 'console', 'zsh']);

/** Targets of inline links `[text](target)` and autolinks `<https://…>` outside code blocks. */
export function links(markdown: string): string[] {
  const prose = markdown.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1/gm, '').replace(/`[^`\n]*`/g, '');
  const found = [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
  return found.concat([...prose.matchAll(/<(https?:\/\/[^>\s]+)>/g)].map((m) => m[1]!));
}

/** The anchors GitHub gives a document's headings (lower-cased, punctuation dropped, spaces → -). */
export function headingAnchors(markdown: string): Set<string> {
  return new Set(markdownHeadings(markdown).map((h) => h.anchor));
}
