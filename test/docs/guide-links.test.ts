/**
 * Every `guideUrl('file.md', 'anchor')` in the source names a guide that exists in docs/ and a
 * heading it has (GitHub's anchor), so a message's full address never leads to a 404 or to the
 * top of the wrong page.
 */
import { readdirSync, readFileSync } from 'node:fs';
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
  [...readFileSync(file, 'utf8').matchAll(/guideUrl\(\s*'([^']+)'(?:\s*,\s*'([^']+)')?\s*\)/g)].map((m) => ({
    file: file.slice(ROOT.length),
    guide: m[1]!,
    anchor: m[2],
  })),
);

describe('guideUrl() calls in src/', () => {
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
