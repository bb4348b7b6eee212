// A short, stable hash of a string: for names and ids made from what they
// stand for (the same input gives the same one on every run), never for
// anything that must resist a guess.

/** The 32-bit FNV-1a hash of a string's UTF-16 code units. */
export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** 8 hex digits of fnv1a: short, stable, not cryptographic. */
export function shortHash(s: string): string {
  return fnv1a(s).toString(16).padStart(8, '0');
}
