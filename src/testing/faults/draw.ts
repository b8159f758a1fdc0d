/**
 * The seeded generator behind `rate`: each rule has its own stream, and the n-th request a rule
 * matches gets draw n of it (a hash of seed, rule and n, so one rule's draws never shift
 * another's). The same seed and the same sequence of requests fire the same faults; which
 * request a fault fired on is what `sandbox.faults.log()` records (by operation, merchant,
 * reference and occurrence), so a replay fires on the same requests even when concurrent ones
 * arrive in another order. A draw is a few integer operations per rule.
 */

/** What a request or attempt is (operation, merchant, subject), as 32 bits, for the log and replay; no string is built. */
export function targetHash(operation: string, merchant: string, subject: string): number {
  return fmix(fnv(fnv(fnv(0x811c9dc5, operation) ^ 0xff, merchant) ^ 0xfe, subject));
}

/** The n-th draw's part from the seed. */
export function ordinalHash(seed: number, ordinal: number): number {
  return fmix(fmix(seed ^ 0x5bd1e995) ^ Math.imul(ordinal + 1, 0x9e3779b1));
}

/** A rule's part of every draw, computed once when the rule is added. */
export function ruleHash(ruleId: string): number {
  return fmix(fnv(0x811c9dc5, ruleId));
}

/** A number in [0, 1) fixed by the two parts. */
export function draw(request: number, rule: number): number {
  return (fmix(fmix(request ^ rule) + 0x6d2b79f5) >>> 0) / 0x1_0000_0000;
}

/** FNV-1a over the text. */
function fnv(hash: number, text: string): number {
  let h = hash;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h;
}

/** murmur3's 32-bit finaliser: every input bit flips about half of the output bits. */
function fmix(hash: number): number {
  let h = hash;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h;
}

/** A seed for a run that names none: printed and kept on `sandbox.faults.seed` so it can be repeated. */
export function randomSeed(): number {
  return Math.floor(Math.random() * 0x7fff_ffff);
}
