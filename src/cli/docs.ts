/**
 * `payinout docs [topic]`: where the guides shipped in the package are. Without a topic it lists
 * each guide with its path; with one it prints the path (and heading anchor) of the best match,
 * or, when nothing matches, the closest guide name and exit 2.
 */
import { relative } from 'node:path';
import type { Command } from 'commander';
import { GUIDES_URL } from '../core/guides.js';
import { closestKey } from '../schemas/suggest.js';
import { UsageError } from './errors.js';
import { type Guide, readGuides } from './guide-index.js';
import { printOut } from './terminal.js';

export function registerDocs(program: Command): void {
  program
    .command('docs')
    .description('List the guides shipped in the package, or print the path of the one about TOPIC.')
    .argument('[topic...]', 'a guide name or words of a heading, e.g. webhooks, "raw body", bulk')
    .addHelpText(
      'after',
      `\nThe same guides online: ${GUIDES_URL}\nExamples:\n  payinout docs\n  payinout docs webhooks\n  payinout docs raw body\n`,
    )
    .action((words: string[]) => runDocs(words.join(' ').trim()));
}

function runDocs(topic: string): void {
  const guides = readGuides();
  if (guides.length === 0) {
    throw new Error(`The guides are not next to this payinout (no docs/ folder); read them at ${GUIDES_URL}`);
  }
  if (!topic) {
    const width = Math.max(...guides.map((g) => g.file.length));
    for (const g of guides) printOut(`${g.file.padEnd(width)}  ${shown(g.path)}  ${g.title}\n`);
    printOut(`\nOnline: ${GUIDES_URL}\n`);
    return;
  }
  const found = bestMatch(guides, topic);
  if (!found) throw new UsageError(noMatch(guides, topic));
  const anchor = found.anchor ? `#${found.anchor}` : '';
  printOut(`${shown(found.guide.path)}${anchor}\n${GUIDES_URL}${found.guide.file}${anchor}\n`);
}

/** A path under the working directory as the reader would type it (node_modules/payinout/docs/…). */
function shown(path: string): string {
  const inside = relative(process.cwd(), path);
  return inside.startsWith('..') ? path : inside;
}

/** Words, lower-cased, each reduced to a rough stem so "body" finds "bodies" and "retry" "retries". */
const words = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .map((w) => w.replace(/(ies|ied|y|es|s)$/, ''));
const stem = (g: Guide) => g.file.replace(/\.md$/, '');
/** Every topic word starts a word of `text`. */
const covers = (text: string, topic: string[]) => {
  const have = words(text);
  return topic.every((w) => have.some((h) => h.startsWith(w)));
};

/**
 * The guide by name, then by title, then the first heading holding every word of the topic, then
 * the guide whose text mentions them most.
 */
function bestMatch(guides: Guide[], topic: string): { guide: Guide; anchor?: string } | undefined {
  const wanted = words(topic);
  if (wanted.length === 0) return undefined;
  const byName =
    guides.find((g) => words(stem(g)).join(' ') === wanted.join(' ')) ??
    guides.find((g) => covers(stem(g), wanted) || covers(g.title, wanted));
  if (byName) return { guide: byName };
  for (const guide of guides) {
    const heading = guide.headings.find((h) => covers(h.title, wanted));
    if (heading) return { guide, anchor: heading.anchor };
  }
  const counted = guides.map((guide) => ({ guide, hits: mentions(guide.text, wanted) }));
  const best = counted.sort((a, b) => b.hits - a.hits)[0];
  return best && best.hits > 0 ? { guide: best.guide } : undefined;
}

/** How often the topic's words appear in `text`, 0 unless every one does. */
function mentions(text: string, topic: string[]): number {
  const have = words(text);
  const counts = topic.map((w) => have.filter((h) => h.startsWith(w)).length);
  return Math.min(...counts);
}

function noMatch(guides: Guide[], topic: string): string {
  const names = guides.map(stem);
  const near = closestKey(topic, names);
  const list = `guides: ${names.join(', ')}`;
  return `no guide or heading matches "${topic}"; ${near ? `did you mean ${near}? (${list})` : list}`;
}
