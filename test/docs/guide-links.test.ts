/**
 * Every `guide('file.md', 'anchor')` (or guideUrl/guidePath) in the source names a guide that
 * exists in docs/ and a heading it has (GitHub's anchor), so a message's full address never leads
 * to a 404 or to the top of the wrong page; every doc comment that points at a guide names the
 * shipped file (node_modules/payinout/docs/…) and not only the web address.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { headingAnchors } from './markdown.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const CALLS = sourceFiles(join(ROOT, 'src')).flatMap((file) =>
  [...readFileSync(file, 'utf8').matchAll(/guide(?:Url|Path)?\(\s*'([^']+)'(?:\s*,\s*'([^']+)')?\s*\)/g)].map(
    (m) => ({
      file: file.slice(ROOT.length),
      guide: m[1]!,
      anchor: m[2],
    }),
  ),
);

// guides.ts builds both forms from its two constants.
const COMMENTS = sourceFiles(join(ROOT, 'src'))
  .filter((file) => !file.endsWith('core/guides.ts'))
  .map((file) => ({
    file: file.slice(ROOT.length),
    text: readFileSync(file, 'utf8'),
  }));

describe('guide() calls in src/', () => {
  it('are found (the scan works)', () => {
    expect(CALLS.length).toBeGreaterThan(3);
  });

  it('each names an existing guide and heading', () => {
    for (const { file, guide, anchor } of CALLS) {
      const text = readFileSync(join(ROOT, 'docs', guide), 'utf8');
      if (anchor) expect([...headingAnchors(text)], `${file}: ${guide}#${anchor}`).toContain(anchor);
    }
  });
});

describe('doc comments in src/', () => {
  it('name the shipped file of every guide they link, and that file exists', () => {
    let shipped = 0;
    for (const { file, text } of COMMENTS) {
      for (const [line] of text.matchAll(/^.*blob\/main\/docs\/.*$/gm)) {
        expect(line, `${file}: names the web address only`).toMatch(/node_modules\/payinout\/docs\//);
      }
      for (const [, guide] of text.matchAll(/node_modules\/payinout\/docs\/([\w-]+\.md)/g)) {
        shipped++;
        expect(existsSync(join(ROOT, 'docs', guide!)), `${file}: ${guide}`).toBe(true);
      }
    }
    expect(shipped).toBeGreaterThan(20);
  });
});
