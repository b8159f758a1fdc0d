/**
 * The shipped guides as `payinout docs` searches them: each file's name, title and headings
 * (with the anchor GitHub and most Markdown viewers give a heading), read from the `docs/`
 * folder next to the package's own package.json.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Heading {
  title: string;
  anchor: string;
}

export interface Guide {
  /** `webhooks.md` */
  file: string;
  /** The absolute path of the shipped file. */
  path: string;
  /** The first heading. */
  title: string;
  headings: Heading[];
  /** The whole Markdown text. */
  text: string;
}

/** The headings of a Markdown text outside code blocks, each with its anchor (duplicates get -1, -2, …). */
export function markdownHeadings(markdown: string): Heading[] {
  const seen = new Set<string>();
  const prose = markdown.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1/gm, '');
  return [...prose.matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)].map(([, title]) => {
    const base = title!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    let anchor = base;
    for (let n = 1; seen.has(anchor); n++) anchor = `${base}-${n}`;
    seen.add(anchor);
    return { title: title!, anchor };
  });
}

/**
 * The package root: the nearest folder up from this module with payinout's package.json
 * (dist/ once built, src/cli/ when run from a clone).
 */
export function packageRoot(from: string = fileURLToPath(import.meta.url)): string | undefined {
  for (let dir = dirname(from); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (!existsSync(manifest)) continue;
    if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'payinout') return dir;
  }
  return undefined;
}

/** Every `docs/*.md` of the package, sorted by file name; none if the folder is missing. */
export function readGuides(root: string | undefined = packageRoot()): Guide[] {
  const folder = root && join(root, 'docs');
  if (!folder || !existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((file) => file.endsWith('.md'))
    .sort()
    .map((file) => {
      const path = join(folder, file);
      const text = readFileSync(path, 'utf8');
      const headings = markdownHeadings(text);
      return { file, path, title: headings[0]?.title ?? file, headings: headings.slice(1), text };
    });
}
