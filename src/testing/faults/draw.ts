/**
 * The seeded generator behind `rate`. A draw is a hash of (seed, rule, what was matched, its
 * occurrence), not the next number of one stream: the same seed and the same requests fire the
 * same faults whatever order concurrent requests arrive in, and one rule's draws never shift
 * another's.
 */

/** A number in [0, 1) fixed by its inputs (FNV-1a over the texts, each stage through murmur3's finaliser). */
export function draw(seed: number, rule: string, key: string, occurrence: number): number {
  let h = fmix(mix(0x811c9dc5, rule) ^ seed);
  h = fmix(mix(h, key));
  h = fmix(h ^ Math.imul(occurrence + 1, 0x9e3779b1));
  return (h >>> 0) / 0x1_0000_0000;
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

function mix(hash: number, text: string): number {
  let h = hash;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return Math.imul(h ^ 0xff, 0x01000193); // a separator, so ('ab','c') ≠ ('a','bc')
}

/** A seed for a run that names none: printed and kept on `sandbox.faults.seed` so it can be repeated. */
export function randomSeed(): number {
  return Math.floor(Math.random() * 0x7fff_ffff);
}
