// A map that is a value: a changed copy shares with the original every part
// it did not change. The entries are spread over 256 buckets by a hash of
// the key; a copy made with `edit` copies the list of buckets and the
// buckets it writes to, nothing else. A keystroke in a file of 25,000 ids
// then costs a few small copies, where copying a Map costs about 7 ms
// (docs/performance.md, issue 31). Hand-written because a hash trie
// library (immutable.js) would add a dependency for the two levels needed.

const BUCKETS = 256;

/**
 * Which bucket holds a key: an integer's low bits, else a hash (FNV-1a) of
 * a string's length and its first and last four characters, which tell
 * ids apart (`12`, `12.k7f3q`, `12.k7f3q.1`) at a bounded cost per look-up.
 */
function bucketOf(key: string | number): number {
  if (typeof key === 'number' && (key | 0) === key) return key & (BUCKETS - 1);
  const s = typeof key === 'string' ? key : String(key);
  const n = s.length;
  let h = Math.imul(0x811c9dc5 ^ n, 0x01000193);
  for (let i = 0; i < n && i < 4; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  for (let i = Math.max(4, n - 4); i < n; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return (h ^ (h >>> 16)) & (BUCKETS - 1);
}

/** What a map being made offers: a Map (a version made whole) or a MapEdit (one made by an edit). */
export interface WritableMap<K, V> {
  get(key: K): V | undefined;
  has(key: K): boolean;
  set(key: K, value: V): unknown;
  delete(key: K): unknown;
}

export class PersistentMap<K extends string | number, V> implements ReadonlyMap<K, V> {
  private constructor(
    private readonly buckets: readonly (ReadonlyMap<K, V> | undefined)[],
    readonly size: number,
  ) {}

  static empty<K extends string | number, V>(): PersistentMap<K, V> {
    return new PersistentMap<K, V>(new Array<undefined>(BUCKETS).fill(undefined), 0);
  }

  /**
   * `map` as a PersistentMap: itself when it is one. A version made whole
   * keeps its maps as Maps (V8 hashes a string key once, where this map
   * hashes it per look-up); the first version made from it by an edit
   * copies them once.
   */
  static of<K extends string | number, V>(map: ReadonlyMap<K, V>): PersistentMap<K, V> {
    return map instanceof PersistentMap ? (map as PersistentMap<K, V>) : PersistentMap.from(map);
  }

  static from<K extends string | number, V>(entries: Iterable<readonly [K, V]>): PersistentMap<K, V> {
    const e = PersistentMap.empty<K, V>().edit();
    for (const [k, v] of entries) e.set(k, v);
    return e.done();
  }

  get(key: K): V | undefined {
    return this.buckets[bucketOf(key)]?.get(key);
  }

  has(key: K): boolean {
    return this.buckets[bucketOf(key)]?.has(key) ?? false;
  }

  /** A copy to change (set, delete), then `done` to have it as a map; this map stays as it is. */
  edit(): MapEdit<K, V> {
    return new MapEdit(this.buckets, this.size);
  }

  *entries(): MapIterator<[K, V]> {
    for (const b of this.buckets) if (b) yield* b.entries();
  }

  *keys(): MapIterator<K> {
    for (const b of this.buckets) if (b) yield* b.keys();
  }

  *values(): MapIterator<V> {
    for (const b of this.buckets) if (b) yield* b.values();
  }

  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }

  forEach(fn: (value: V, key: K, map: ReadonlyMap<K, V>) => void): void {
    for (const [k, v] of this.entries()) fn(v, k, this);
  }

  /** @internal For MapEdit. */
  static made<K extends string | number, V>(buckets: (ReadonlyMap<K, V> | undefined)[], size: number): PersistentMap<K, V> {
    return new PersistentMap(buckets, size);
  }
}

/** A PersistentMap being changed: each bucket written to is copied once. */
export class MapEdit<K extends string | number, V> {
  private buckets: (ReadonlyMap<K, V> | undefined)[];
  /** The buckets copied by this edit, which it may write to. */
  private readonly own = new Set<number>();

  constructor(
    buckets: readonly (ReadonlyMap<K, V> | undefined)[],
    private size: number,
  ) {
    this.buckets = buckets.slice();
  }

  get(key: K): V | undefined {
    return this.buckets[bucketOf(key)]?.get(key);
  }

  has(key: K): boolean {
    return this.buckets[bucketOf(key)]?.has(key) ?? false;
  }

  set(key: K, value: V): this {
    const b = this.writable(bucketOf(key));
    if (!b.has(key)) this.size++;
    b.set(key, value);
    return this;
  }

  delete(key: K): this {
    const i = bucketOf(key);
    if (!this.buckets[i]?.has(key)) return this;
    this.writable(i).delete(key);
    this.size--;
    return this;
  }

  /** The map as changed so far; changing it further makes another (this one stays as it is). */
  done(): PersistentMap<K, V> {
    const map = PersistentMap.made(this.buckets, this.size);
    this.buckets = this.buckets.slice();
    this.own.clear();
    return map;
  }

  private writable(i: number): Map<K, V> {
    if (this.own.has(i)) return this.buckets[i] as Map<K, V>;
    this.own.add(i);
    const copy = new Map<K, V>(this.buckets[i] ?? []);
    this.buckets[i] = copy;
    return copy;
  }
}
