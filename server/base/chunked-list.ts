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

export const CHUNK = 256;
const SHIFT = 8;

/** A chunk's own cache (derived from its items, which never change): kept on it, so versions that share it share the cache. */
const DERIVED: unique symbol = Symbol('msglint.chunk-derived');
type Chunk<V> = readonly V[] & { [DERIVED]?: Map<unknown, unknown> };

export class ChunkedList<V> implements Iterable<V> {
  /** Whether every chunk but the last has CHUNK items (an index then names its chunk with a shift). */
  private full = true;
  /** Where each chunk starts, when they are not full: made on first use. */
  private starts: Int32Array | undefined;
  private array: readonly V[] | undefined;
  private made: readonly Chunk<V>[] | undefined;

  private constructor(
    chunks: readonly Chunk<V>[] | undefined,
    readonly length: number,
    array?: readonly V[],
  ) {
    this.array = array;
    if (chunks) this.setChunks(chunks);
  }

  /** A list of `items`, which it keeps (as its array) and must not change. */
  static of<V>(items: readonly V[]): ChunkedList<V> {
    return new ChunkedList(undefined, items.length, items);
  }

  get chunks(): readonly Chunk<V>[] {
    return this.made ?? this.setChunks(split(this.array!));
  }

  private setChunks(chunks: readonly Chunk<V>[]): readonly Chunk<V>[] {
    let full = true;
    for (let c = 0; c + 1 < chunks.length && full; c++) full = chunks[c]!.length === CHUNK;
    this.full = full;
    return (this.made = chunks);
  }

  at(i: number): V | undefined {
    if (this.array) return this.array[i];
    if (i < 0 || i >= this.length) return undefined;
    const chunks = this.made!;
    if (this.full) return chunks[i >> SHIFT]![i & (CHUNK - 1)];
    const c = this.chunkOf(i);
    return chunks[c]![i - this.starts![c]!];
  }

  /** The index of the chunk that holds item `i`. */
  chunkOf(i: number): number {
    const chunks = this.chunks;
    if (this.full) return i >> SHIFT;
    const starts = this.chunkStarts();
    let lo = 0;
    let hi = chunks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= i) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Where each chunk starts (one more entry: the length). */
  chunkStarts(): Int32Array {
    if (this.starts) return this.starts;
    const chunks = this.chunks;
    const starts = new Int32Array(chunks.length + 1);
    for (let c = 0; c < chunks.length; c++) starts[c + 1] = starts[c]! + chunks[c]!.length;
    return (this.starts = starts);
  }

  /**
   * A value derived from a chunk's items by `derive`, made once per chunk:
   * the versions that share the chunk share it (a fold visits a chunk per
   * CHUNK items, a position a chunk's offsets).
   */
  derived<S>(c: number, derive: (items: readonly V[]) => S): S {
    const chunk = this.chunks[c]!;
    const kept = (chunk[DERIVED] ??= new Map());
    let s = kept.get(derive) as S | undefined;
    if (s === undefined && !kept.has(derive)) kept.set(derive, (s = derive(chunk)));
    return s!;
  }

  /** The items as one array, made on first use (a list made by an edit copies its chunks once). */
  toArray(): readonly V[] {
    if (this.array) return this.array;
    const out: V[] = [];
    for (const chunk of this.chunks) for (let k = 0; k < chunk.length; k++) out.push(chunk[k]!);
    return (this.array = out);
  }

  slice(start: number, end: number): V[] {
    if (this.array) return this.array.slice(start, end);
    const out: V[] = [];
    for (let i = start; i < end && i < this.length; i++) out.push(this.at(i)!);
    return out;
  }

  *[Symbol.iterator](): Iterator<V> {
    if (this.array) yield* this.array;
    else for (const chunk of this.made!) for (let k = 0; k < chunk.length; k++) yield chunk[k]!;
  }

  /** A copy to change (splice, set), then `done`; this list stays as it is. */
  edit(): ListEdit<V> {
    return new ListEdit(this.chunks, this.length);
  }

  /** @internal For ListEdit. */
  static made<V>(chunks: readonly Chunk<V>[], length: number): ChunkedList<V> {
    return new ChunkedList(chunks, length);
  }
}

/** A ChunkedList being changed: each chunk written to is copied once. */
export class ListEdit<V> {
  private chunks: V[][];
  private readonly own = new Set<readonly V[]>();

  constructor(
    chunks: readonly (readonly V[])[],
    private length: number,
  ) {
    this.chunks = chunks.slice() as V[][];
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
    if (!this.own.has(chunks[c]!)) this.own.add((chunks[c] = chunks[c]!.slice()));
    chunks[c]![i - start] = value;
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

function split<V>(items: readonly V[]): V[][] {
  const out: V[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}
