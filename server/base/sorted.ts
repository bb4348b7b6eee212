// Binary search over lists kept in ascending order, read through a key:
// offsets of agents, cell indices, line starts.

/** How many of the first `length` items have a key at most `value`, the keys ascending (`key(i)` for item i). */
export function countAtMost(length: number, key: (i: number) => number, value: number): number {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (key(mid) <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
