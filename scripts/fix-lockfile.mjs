#!/usr/bin/env node
/**
 * Adds lockfile entries for other platforms' optional native binaries (biome, rollup).
 *
 * Why: the registry reachable from this project's machines answers 404 for binaries of
 * platforms other than linux-x64-gnu, so `npm install` cannot record them, and npm 11's
 * `npm ci` then refuses the lockfile ("Missing: @rollup/rollup-darwin-arm64@ from lock
 * file"; npm/cli#4828, #8320). An entry with the platform fields is all `npm ci` needs: it
 * skips a package whose os/cpu/libc do not match, so nothing is ever fetched for it.
 * Idempotent; run after `npm install` changes the lockfile (`.ci/run` runs it too).
 */
import { readFileSync, writeFileSync } from 'node:fs';

const OSES = [
  'android',
  'darwin',
  'freebsd',
  'linux',
  'openbsd',
  'openharmony',
  'sunos',
  'win32',
  'aix',
  'netbsd',
];
const CPUS = {
  x64: 'x64',
  arm64: 'arm64',
  arm: 'arm',
  ia32: 'ia32',
  loong64: 'loong64',
  ppc64: 'ppc64',
  riscv64: 'riscv64',
  s390x: 's390x',
};

/** '@rollup/rollup-linux-arm-musleabihf' → { os: ['linux'], cpu: ['arm'], libc: ['musl'] } */
function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = parts.find((p) => OSES.includes(p));
  const cpu = parts.map((p) => CPUS[p]).find(Boolean);
  if (!os || !cpu) return undefined;
  const libc = parts.some((p) => p.startsWith('musl'))
    ? 'musl'
    : parts.some((p) => p.startsWith('gnu'))
      ? 'glibc'
      : undefined;
  return { os: [os], cpu: [cpu], ...(os === 'linux' && libc ? { libc: [libc] } : {}) };
}

// Default the root lockfile; `node scripts/fix-lockfile.mjs ecosystem-tests/package-lock.json` for another.
const path = process.argv[2] ?? new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(path, 'utf8'));
const added = [];
for (const [key, entry] of Object.entries(lock.packages)) {
  for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const target = `node_modules/${dep}`;
    const platform = platformOf(dep);
    if (lock.packages[target] || !platform || !/^\d+\.\d+\.\d+/.test(version)) continue;
    lock.packages[target] = { version, ...(entry.dev ? { dev: true } : {}), optional: true, ...platform };
    added.push(`${dep}@${version} (for ${key || 'root'})`);
  }
}
if (added.length) {
  lock.packages = Object.fromEntries(
    Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
  );
  writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
}
console.log(`fix-lockfile: ${added.length} platform entr${added.length === 1 ? 'y' : 'ies'} added`);
