/**
 * Suites that need a service the machine may not have (Chromium, Redis). Outside CI, a suite whose
 * service is absent is skipped with ONE line saying what to install, so `npm test` on a fresh
 * machine passes and says what it did not run; under CI (CI set and not "false"/"0") it runs and
 * fails, because a skipped suite there would be a hole nobody sees.
 */

/** True when CI is set (GitHub Actions and most CI systems set CI=true). */
export const inCI = Boolean(process.env.CI) && !['false', '0'].includes(process.env.CI!.toLowerCase());

const announced = new Set<string>();

/**
 * Whether to skip a suite that needs `service`: false when it is present or under CI; otherwise
 * true, after printing (once per test file) e.g.
 * "skipped: Chromium not found at /usr/bin/chromium — apt-get install chromium".
 */
export function skipWithout(service: string, present: boolean, whatToDo: string): boolean {
  if (present || inCI) return false;
  if (!announced.has(service)) {
    announced.add(service);
    console.warn(`skipped: ${service} — ${whatToDo} (under CI=true this suite fails instead)`);
  }
  return true;
}
