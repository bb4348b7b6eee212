// Maps from a key to the values under it (cells by id, tool calls by id or
// nonce) where almost every key has one value: that value is kept alone,
// not in an array of one (about 56 bytes each, a cell's worth on a long
// file), and made a list when read. Values are objects, never arrays.

import { unpacked as unpack, type OneOrMore } from './lists.js';
import type { WritableMap } from './persistent-map.js';

/** What a ListMap keeps under a key: its one value, or its list of two or more. */
export type Packed<V> = OneOrMore<V>;

/** As lists.ts `packed`, without a copy: a map being made grows its lists in place. */
function pack<V extends object>(list: readonly V[]): Packed<V> {
  return list.length === 1 ? list[0]! : list;
}

/** A read-only map of lists over the packed map it is given (which must not change after). */
export class ListMap<K, V extends object> implements ReadonlyMap<K, readonly V[]> {
  constructor(readonly packed: ReadonlyMap<K, Packed<V>>) {}

  get size(): number {
    return this.packed.size;
  }

  /** A list of one is made on each call: compare values, not lists. */
  get(key: K): readonly V[] | undefined {
    const v = this.packed.get(key);
    return v === undefined ? undefined : unpack(v);
  }

  has(key: K): boolean {
    return this.packed.has(key);
  }

  *entries(): MapIterator<[K, readonly V[]]> {
    for (const [k, v] of this.packed) yield [k, unpack(v)];
  }

  *keys(): MapIterator<K> {
    yield* this.packed.keys();
  }

  *values(): MapIterator<readonly V[]> {
    for (const v of this.packed.values()) yield unpack(v);
  }

  [Symbol.iterator](): MapIterator<[K, readonly V[]]> {
    return this.entries();
  }

  forEach(fn: (value: readonly V[], key: K, map: ReadonlyMap<K, readonly V[]>) => void): void {
    for (const [k, v] of this.packed) fn(unpack(v), k, this);
  }
}

/** A map of lists being made, written through to a packed map (a Map, or a PersistentMap's edit). */
export function listWriter<K, V extends object>(packed: WritableMap<K, Packed<V>>): WritableMap<K, readonly V[]> {
  return {
    get: (key) => {
      const v = packed.get(key);
      return v === undefined ? undefined : unpack(v);
    },
    has: (key) => packed.has(key),
    set: (key, list) => packed.set(key, pack(list)),
    delete: (key) => packed.delete(key),
  };
}
