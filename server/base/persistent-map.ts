// A map that is a value: a changed copy shares with the original every part
// it did not change. It is a base Map, never changed (a version made whole
// builds one as a Map), and the changes made since, spread over 256
// buckets by a hash of the key; a copy made with `edit` copies the list of
// buckets and the buckets it writes, nothing else. A keystroke in a file of
// 25,000 ids then costs a few small copies, where copying a Map costs
// about 7 ms, and the first edit after a version made whole costs nothing
// more (docs/performance.md, "Versions that share"). Hand-written because a hash trie
// library (immutable.js) would copy the whole-path Map and add a dependency
// for the two levels needed.

const BUCKETS = 256;

/** A key the changes removed from the base. */
const REMOVED: unique symbol = Symbol('msglint.removed');
type Change<V> = V | typeof REMOVED;

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

type Buckets<K, V> = readonly (ReadonlyMap<K, Change<V>> | undefined)[];

/** A key's value: from the changes when they have the key, else from the base. */
function valueOf<K extends string | number, V>(base: ReadonlyMap<K, V>, buckets: Buckets<K, V>, key: K): V | undefined {
  const b = buckets[bucketOf(key)];
  if (!b?.has(key)) return base.get(key);
  const v = b.get(key)!;
  return v === REMOVED ? undefined : v;
}

function hasKey<K extends string | number, V>(base: ReadonlyMap<K, V>, buckets: Buckets<K, V>, key: K): boolean {
  const b = buckets[bucketOf(key)];
  return b?.has(key) ? b.get(key) !== REMOVED : base.has(key);
}

const NO_BUCKETS: Buckets<never, never> = new Array<undefined>(BUCKETS).fill(undefined);
const NO_BASE: ReadonlyMap<unknown, never> = new Map<unknown, never>();

export class PersistentMap<K extends string | number, V> implements ReadonlyMap<K, V> {
  private constructor(
    private readonly base: ReadonlyMap<K, V>,
    private readonly buckets: Buckets<K, V>,
    readonly size: number,
  ) {}

  static empty<K extends string | number, V>(): PersistentMap<K, V> {
    return new PersistentMap<K, V>(NO_BASE as ReadonlyMap<K, V>, NO_BUCKETS, 0);
  }

  /** `map` as a PersistentMap: itself when it is one, else one whose base it is (`map` must not change after). */
  static of<K extends string | number, V>(map: ReadonlyMap<K, V>): PersistentMap<K, V> {
    return map instanceof PersistentMap ? (map as PersistentMap<K, V>) : new PersistentMap(map, NO_BUCKETS, map.size);
  }

  static from<K extends string | number, V>(entries: Iterable<readonly [K, V]>): PersistentMap<K, V> {
    const map = new Map<K, V>();
    for (const [k, v] of entries) map.set(k, v);
    return PersistentMap.of(map);
  }

  get(key: K): V | undefined {
    return valueOf(this.base, this.buckets, key);
  }

  has(key: K): boolean {
    return hasKey(this.base, this.buckets, key);
  }

  /** A copy to change (set, delete), then `done` to have it as a map; this map stays as it is. */
  edit(): MapEdit<K, V> {
    return new MapEdit(this.base, this.buckets, this.size, this);
  }

  *entries(): MapIterator<[K, V]> {
    const buckets = this.buckets;
    for (const [k, v] of this.base) if (!buckets[bucketOf(k)]?.has(k)) yield [k, v];
    for (const b of buckets) if (b) for (const [k, v] of b) if (v !== REMOVED) yield [k, v];
  }

  *keys(): MapIterator<K> {
    for (const [k] of this.entries()) yield k;
  }

  *values(): MapIterator<V> {
    for (const [, v] of this.entries()) yield v;
  }

  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }

  forEach(fn: (value: V, key: K, map: ReadonlyMap<K, V>) => void): void {
    for (const [k, v] of this.entries()) fn(v, k, this);
  }

  /** @internal For MapEdit. */
  static made<K extends string | number, V>(base: ReadonlyMap<K, V>, buckets: Buckets<K, V>, size: number): PersistentMap<K, V> {
    return new PersistentMap(base, buckets, size);
  }
}

/** A PersistentMap being changed: the list of buckets and each bucket written to are copied once, on the first write. */
export class MapEdit<K extends string | number, V> {
  private buckets: Buckets<K, V>;
  /** The buckets copied by this edit, which it may write to; undefined until the first write. */
  private own: Set<number> | undefined;
  private last: PersistentMap<K, V> | undefined;

  constructor(
    private readonly base: ReadonlyMap<K, V>,
    buckets: Buckets<K, V>,
    private size: number,
    from?: PersistentMap<K, V>,
  ) {
    this.buckets = buckets;
    this.last = from;
  }

  get(key: K): V | undefined {
    return valueOf(this.base, this.buckets, key);
  }

  has(key: K): boolean {
    return hasKey(this.base, this.buckets, key);
  }

  set(key: K, value: V): this {
    if (!this.has(key)) this.size++;
    this.writable(bucketOf(key)).set(key, value);
    return this;
  }

  delete(key: K): this {
    if (!this.has(key)) return this;
    const b = this.writable(bucketOf(key));
    // A key of the base stays marked as removed; one the changes added goes.
    if (this.base.has(key)) b.set(key, REMOVED);
    else b.delete(key);
    this.size--;
    return this;
  }

  /** The map as changed so far (the map it came from when nothing was written); changing it further makes another. */
  done(): PersistentMap<K, V> {
    this.own = undefined;
    return (this.last ??= PersistentMap.made(this.base, this.buckets, this.size));
  }

  private writable(i: number): Map<K, Change<V>> {
    if (!this.own) {
      this.own = new Set();
      this.buckets = this.buckets.slice();
      this.last = undefined;
    }
    const list = this.buckets as (ReadonlyMap<K, Change<V>> | undefined)[];
    if (this.own.has(i)) return list[i] as Map<K, Change<V>>;
    this.own.add(i);
    const copy = new Map<K, Change<V>>(list[i] ?? []);
    list[i] = copy;
    return copy;
  }
}
