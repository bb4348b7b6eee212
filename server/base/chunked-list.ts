// A list that is a value, kept in chunks of at most CHUNK items: a changed
// copy (`edit`) shares with the original every chunk it does not write to
// and copies the list of chunks and the chunks it writes. An editor's
// version of the 5,000-turn file then copies a few small arrays per
// keystroke where a copy of a list of 25,000 items, which lands in V8's
// large-object space, costs about 0.7 ms (docs/performance.md, "Versions that share").
// A list made whole (`of`) is its array until something asks for chunks (an
// edit, a value derived per chunk): then it has full chunks, where an index
// names its chunk with a shift; edits leave shorter chunks, found by a
// binary search.

import { Memo, MEMO } from './memo.js';

export const CHUNK = 256;
const SHIFT = 8;

/**
 * A chunk's own cache (derived from its items, which never change): kept on
 * it, so versions that share it share the cache. Made with the chunk, so
 * that a chunk frozen with its version still takes derived values, as a
 * memo slot does (base/memo.ts).
 */
const DERIVED: unique symbol = Symbol('msglint.chunk-derived');
type Chunk<V> = readonly V[] & { readonly [DERIVED]: Map<unknown, unknown> };

// What a list makes on first use lives in memo slots, not in its fields: a list is a value, and stays one frozen.
const CHUNKS = new Memo<ChunkedList<unknown>, readonly Chunk<unknown>[]>('list');
const ARRAY = new Memo<ChunkedList<unknown>, readonly unknown[]>('list');
const STARTS = new Memo<ChunkedList<unknown>, Int32Array>('list');

export class ChunkedList<V> implements Iterable<V> {
  /** @internal Its chunks (a list made whole), its array (a list made by an edit) and its chunks' starts, once made. */
  [MEMO]: unknown[] | undefined = undefined;
  /** Whether every chunk but the last has CHUNK items (an index then names its chunk with a shift). */
  private readonly full: boolean;

  private constructor(
    /** The items of a list made whole (`of`); its chunks are made on first use. */
    private readonly items: readonly V[] | undefined,
    /** The chunks of a list made by an edit. */
    private readonly given: readonly Chunk<V>[] | undefined,
    readonly length: number,
  ) {
    let full = true;
    if (given) for (let c = 0; c + 1 < given.length && full; c++) full = given[c]!.length === CHUNK;
    this.full = full;
  }

  /** A list of `items`, which it keeps (as its array) and must not change. */
  static of<V>(items: readonly V[]): ChunkedList<V> {
    return new ChunkedList(items, undefined, items.length);
  }

  get chunks(): readonly Chunk<V>[] {
    if (this.given) return this.given;
    let chunks = CHUNKS.get(this) as readonly Chunk<V>[] | undefined;
    if (chunks === undefined) CHUNKS.set(this, (chunks = split(this.items!)));
    return chunks;
  }

  at(i: number): V | undefined {
    if (this.items) return this.items[i];
    if (i < 0 || i >= this.length) return undefined;
    const chunks = this.given!;
    if (this.full) return chunks[i >> SHIFT]![i & (CHUNK - 1)];
    const c = this.chunkOf(i);
    return chunks[c]![i - this.chunkStarts()[c]!];
  }

  /** The index of the chunk that holds item `i`. */
  chunkOf(i: number): number {
    if (this.full) return i >> SHIFT;
    const starts = this.chunkStarts();
    let lo = 0;
    let hi = starts.length - 2;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= i) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Where each chunk starts (one more entry: the length). */
  chunkStarts(): Int32Array {
    let starts = STARTS.get(this);
    if (starts) return starts;
    const chunks = this.chunks;
    starts = new Int32Array(chunks.length + 1);
    for (let c = 0; c < chunks.length; c++) starts[c + 1] = starts[c]! + chunks[c]!.length;
    STARTS.set(this, starts);
    return starts;
  }

  /**
   * A value derived from a chunk's items by `derive`, made once per chunk:
   * the versions that share the chunk share it (a fold visits a chunk per
   * CHUNK items, a position a chunk's offsets).
   */
  derived<S>(c: number, derive: (items: readonly V[]) => S): S {
    const kept = this.chunks[c]![DERIVED];
    let s = kept.get(derive) as S | undefined;
    if (s === undefined && !kept.has(derive)) kept.set(derive, (s = derive(this.chunks[c]!)));
    return s!;
  }

  /** The items as one array, made on first use (a list made by an edit copies its chunks once). */
  toArray(): readonly V[] {
    if (this.items) return this.items;
    let out = ARRAY.get(this) as V[] | undefined;
    if (out) return out;
    out = [];
    for (const chunk of this.given!) for (let k = 0; k < chunk.length; k++) out.push(chunk[k]!);
    ARRAY.set(this, out);
    return out;
  }

  slice(start: number, end: number): V[] {
    if (this.items) return this.items.slice(start, end);
    const out: V[] = [];
    for (let i = start; i < end && i < this.length; i++) out.push(this.at(i)!);
    return out;
  }

  *[Symbol.iterator](): Iterator<V> {
    if (this.items) yield* this.items;
    else for (const chunk of this.given!) for (let k = 0; k < chunk.length; k++) yield chunk[k]!;
  }

  /** A copy to change (splice, set), then `done`; this list stays as it is. */
  edit(): ListEdit<V> {
    return new ListEdit(this.chunks, this.length);
  }

  /** @internal For ListEdit. */
  static made<V>(chunks: readonly Chunk<V>[], length: number): ChunkedList<V> {
    return new ChunkedList(undefined, chunks, length);
  }
}

/** A ChunkedList being changed: each chunk written to is copied once. */
export class ListEdit<V> {
  private chunks: Chunk<V>[];
  private readonly own = new Set<readonly V[]>();

  constructor(
    chunks: readonly Chunk<V>[],
    private length: number,
  ) {
    this.chunks = chunks.slice();
  }

  /** Replaces `removed` items from `at` with `added`: the chunks around them are made again. */
  splice(at: number, removed: number, added: readonly V[]): this {
    const chunks = this.chunks;
    let c = 0;
    let start = 0;
    while (c < chunks.length - 1 && start + chunks[c]!.length <= at) start += chunks[c++]!.length;
    let last = c;
    let end = start + (chunks[c]?.length ?? 0);
    while (end < at + removed && last < chunks.length - 1) end += chunks[++last]!.length;
    const old: V[] = [];
    for (let i = c; i <= last && i < chunks.length; i++) for (const v of chunks[i]!) old.push(v);
    const made = split(old.slice(0, at - start).concat(added, old.slice(at - start + removed)));
    for (const chunk of made) this.own.add(chunk);
    chunks.splice(c, last - c + 1, ...made);
    this.length += added.length - removed;
    // Edits leave short chunks behind: past twice the count a fresh split has, split afresh.
    if (chunks.length > 2 * Math.ceil(this.length / CHUNK) + 8) {
      this.chunks = split(chunks.flat() as V[]);
      for (const chunk of this.chunks) this.own.add(chunk);
    }
    return this;
  }

  /** Sets item `i`, copying its chunk unless this edit made it. */
  set(i: number, value: V): this {
    const chunks = this.chunks;
    let c = 0;
    let start = 0;
    // Most edits set a few items: a walk over the chunks' lengths, not an index of them.
    while (start + chunks[c]!.length <= i) start += chunks[c++]!.length;
    if (!this.own.has(chunks[c]!)) this.own.add((chunks[c] = chunk(chunks[c]!.slice())));
    // Made by this edit and not given yet: nothing has read it, or derived a value from it.
    (chunks[c] as unknown as V[])[i - start] = value;
    return this;
  }

  done(): ChunkedList<V> {
    const list = ChunkedList.made<V>(this.chunks, this.length);
    // Changed further, the edit makes another list: it no longer owns what it gave.
    this.chunks = this.chunks.slice();
    this.own.clear();
    return list;
  }
}

/** `items` as a chunk, with its cache of derived values. */
function chunk<V>(items: V[]): Chunk<V> {
  return Object.assign(items, { [DERIVED]: new Map<unknown, unknown>() });
}

function split<V>(items: readonly V[]): Chunk<V>[] {
  const out: Chunk<V>[] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(chunk(items.slice(i, i + CHUNK)));
  return out;
}
