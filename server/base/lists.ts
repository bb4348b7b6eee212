// Lists the tree keeps for as long as it lives (every cell's, marker's,
// metadata line's and XML element's), and long lists changed in place.

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

type NumberArray = Int32Array | Uint8Array | Float64Array;

/**
 * `old` with `removed` elements at `at` replaced by `added` elements for the
 * caller to fill (their values are left as they were), for a version made
 * from a spent one: in `old`'s own buffer when it has room (the elements
 * after moved with copyWithin), else in a new one with room to grow. A new
 * typed array of a long file's cells per keystroke is fresh memory,
 * allocated and zeroed each time, which the language server's profile
 * pointed at (docs/performance.md).
 */
export function spliceNumbers<T extends NumberArray>(old: T, at: number, removed: number, added: number): T {
  const length = old.length - removed + added;
  const capacity = (old.buffer.byteLength - old.byteOffset) / old.BYTES_PER_ELEMENT;
  const Type = old.constructor as new (buffer: ArrayBufferLike | number, offset?: number, length?: number) => T;
  if (length <= capacity) {
    const whole = new Type(old.buffer, old.byteOffset, capacity);
    whole.copyWithin(at + added, at + removed, old.length);
    return whole.subarray(0, length) as T;
  }
  const grown = new Type(length + (length >> 4) + 64).subarray(0, length) as T;
  grown.set(old.subarray(0, at));
  grown.set(old.subarray(at + removed), at + added);
  return grown;
}

// The loops over every cell or metadata line after an edit, each in a small
// function of its own: every structural edit calls them, so they are
// optimized after the first few, and a deoptimization of the large function
// that calls them (spliceFacts, when an edit brings it objects of a new
// shape) does not send them back to the interpreter, where a loop over
// every cell of a long file is slow.

/** Adds `by` to `list[from…]`. */
export function addFrom(list: Int32Array, from: number, by: number): void {
  for (let i = from; i < list.length; i++) list[i] += by;
}

/** Adds `by` to each element of `list` that is at least `min`. */
export function addWhereAtLeast(list: Int32Array, min: number, by: number): void {
  for (let i = 0; i < list.length; i++) if (list[i]! >= min) list[i] += by;
}

/** Whether two lists hold the same items in the same order (undefined only equals undefined). */
export function sameItems<T>(a: ArrayLike<T> | undefined, b: ArrayLike<T> | undefined): boolean {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
