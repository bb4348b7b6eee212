// Lists the tree keeps for as long as it lives (every cell's, marker's,
// metadata line's and XML element's), and long lists changed in place
// (the language server's text and line index).

/**
 * One empty array for every empty list the tree keeps: most are empty, and a
 * long file has tens of thousands. Typed read-only, as is every kept list, so
 * a push on it does not compile. Not frozen: `for…of` over a frozen array
 * misses V8's fast path and allocates per step (docs/performance.md).
 */
export const NONE: readonly never[] = [];

/**
 * A finished list as the tree keeps it: the shared empty one, or a copy at
 * its exact size (a list grown by push keeps room for about 16 more items,
 * which for the one or two items most lists hold is most of their memory).
 * Read-only, so that a push on the shared empty list does not compile.
 */
export function kept<T>(list: readonly T[]): readonly T[] {
  return list.length === 0 ? NONE : list.slice();
}

/** A kept list whose one item, the common case, is kept alone (a list of one costs 56 bytes). Items are never arrays. */
export type OneOrMore<T> = T | readonly T[];

/** A finished list as `kept`, its one item alone. */
export function packed<T>(list: readonly T[]): OneOrMore<T> {
  return list.length === 1 ? list[0]! : kept(list);
}

/** The list again: a list of one made on each call (compare items, not lists). */
export function unpacked<T>(p: OneOrMore<T>): readonly T[] {
  return Array.isArray(p) ? (p as readonly T[]) : [p as T];
}

/**
 * Replaces `list[at, at + count)` by `items`, in place. Array.prototype.splice
 * takes the items as arguments, which overflows the stack for many
 * thousands of them (a large paste).
 */
export function replaceRange<T>(list: T[], at: number, count: number, items: readonly T[]): void {
  if (items.length < 10_000) {
    list.splice(at, count, ...items);
    return;
  }
  const tail = list.slice(at + count);
  list.length = at;
  for (const x of items) list.push(x);
  for (const x of tail) list.push(x);
}

/** Adds `by` to `list[from…]` (a small function, optimized on its own: every edit of a line index calls it). */
export function addFrom(list: Int32Array, from: number, by: number): void {
  for (let i = from; i < list.length; i++) list[i] += by;
}

/** Whether two lists hold the same items in the same order (undefined only equals undefined). */
export function sameItems<T>(a: ArrayLike<T> | undefined, b: ArrayLike<T> | undefined): boolean {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
