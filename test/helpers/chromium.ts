/** Debian's Chromium for the browser suites (docs site, simulator dashboard), driven by playwright-core. */
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';
import { skipWithout } from './services.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// Flags for a container without a display, GPU or user namespace; the rest keep Chromium
// from calling home, which would slow the run and fail offline.
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];

/** `describe.skipIf(skipChromium)`: outside CI, no Chromium skips the browser suite with one line. */
export const skipChromium = skipWithout(
  `Chromium not found at ${CHROMIUM}`,
  existsSync(CHROMIUM),
  'apt-get install chromium (or set CHROMIUM_PATH)',
);

/** Under CI a missing Chromium fails the suite here; outside CI the suite was skipped instead. */
export function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (or set CHROMIUM_PATH).`);
  }
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}
