/**
 * The seeded generator behind `rate`. A draw is a hash of (seed, rule, what was matched, its
 * occurrence), not the next number of one stream: the same seed and the same requests fire the
 * same faults whatever order concurrent requests arrive in, and one rule's draws never shift
 * another's.
 */

/** A number in [0, 1) fixed by its inputs (FNV-1a over the key, then a murmur3 finaliser). */
export function draw(seed: number, rule: string, key: string, occurrence: number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  h = mix(h, rule);
  h = mix(h, key);
  h = Math.imul(h ^ occurrence, 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) / 0x1_0000_0000;
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
