/**
 * Where the guides live. The npm package ships no `docs/` folder, so every message, doc comment
 * and CLI help that points at a guide gives its full address, built here and nowhere else.
 */
export const GUIDES_URL = 'https://github.com/payinout/payinout/blob/main/docs/';

/** The full address of a guide, e.g. `guideUrl('webhooks.md', 'dedupe-and-retries')`. */
export function guideUrl(file: string, anchor?: string): string {
  return `${GUIDES_URL}${file}${anchor ? `#${anchor}` : ''}`;
}
