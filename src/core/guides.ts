/**
 * Where the guides live. The package ships `docs/*.md` (package.json `files`), so every message,
 * doc comment and CLI help that points at a guide names the file in the merchant's own project
 * (readable offline, the version they installed) and its web address, both built here and
 * nowhere else.
 */
export const GUIDES_URL = 'https://github.com/payinout/payinout/blob/main/docs/';

/** Where npm puts the shipped guides, seen from the merchant's project root. */
export const GUIDES_PATH = 'node_modules/payinout/docs/';

const withAnchor = (file: string, anchor?: string) => `${file}${anchor ? `#${anchor}` : ''}`;

/** The web address of a guide, e.g. `guideUrl('webhooks.md', 'dedupe-and-retries')`. */
export function guideUrl(file: string, anchor?: string): string {
  return `${GUIDES_URL}${withAnchor(file, anchor)}`;
}

/** The shipped file of a guide, e.g. `node_modules/payinout/docs/webhooks.md#dedupe-and-retries`. */
export function guidePath(file: string, anchor?: string): string {
  return `${GUIDES_PATH}${withAnchor(file, anchor)}`;
}

/** What a message prints to point at a guide: the shipped file, then the web address. */
export function guide(file: string, anchor?: string): string {
  return `${guidePath(file, anchor)} (${guideUrl(file, anchor)})`;
}
