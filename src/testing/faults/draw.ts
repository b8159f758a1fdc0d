/**
 * The seeded generator behind `rate`. A draw is a hash of (seed, rule, what was matched, its
 * occurrence), not the next number of one stream: the same seed and the same requests fire the
 * same faults whatever order concurrent requests arrive in, and one rule's draws never shift
 * another's. The request's part is hashed once and combined with each rule's precomputed part,
 * so ten rules cost a few integer operations each.
 */

/** What a request or attempt is (operation, merchant, subject), as 32 bits; no string is built. */
export function targetHash(operation: string, merchant: string, subject: string): number {
  return fmix(fnv(fnv(fnv(0x811c9dc5, operation) ^ 0xff, merchant) ^ 0xfe, subject));
}

/** The request's part of every draw: seed, target and occurrence. */
export function requestHash(seed: number, target: number, occurrence: number): number {
  return fmix(fmix(target ^ seed) ^ Math.imul(occurrence + 1, 0x9e3779b1));
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
