// Per-cell values of a rule (Rule.perCell), kept per version. A rule whose
// input is a fold over the cells (the LLM view up to a reply: each cell adds
// its tokens to a running total) says what one cell contributes; its check
// asks for every cell's value (RuleContext.cellValues) and folds over them.
// The engine, not the rule, carries the values from one version to the next:
// a version parsed from the previous one with an edit that keeps the
// file-wide facts takes the previous values of the cells the edit did not
// change, so a keystroke computes one cell's value and a fold over values.
//
// What a value may depend on: its cell (text, type, metadata line, offset)
// and the file-wide facts (agents and their settings, the default agent).
// The edits whose values are carried over keep those facts:
// - `sameFacts` (the whole path): the same cells and file-wide facts, only
//   the text of the changed cells differs; their values are made again;
// - `replaced` (the editor's path, server/syntax/edit/splice.ts): the
//   previous cells but the replaced ones, the agents and languages the same;
//   the replaced cells' values and the refreshed cells' (whose kind or
//   metadata line the edit made again) are made again.
// Any other version makes every value.
//
// A version's values are never changed: the next version shares the chunks
// of CHUNK values that hold none of the values it makes again, and copies
// the others. Copying every value instead, an array of 25,000 lands in V8's
// large-object space: about 1.4 ms per keystroke on the 5,000-turn file.
// A summary of a chunk (CellValues.summaries) is kept with the chunk, so a
// fold whose steps combine (counts, sets) visits a chunk per 256 cells.

import { Memo } from '../base/memo.js';
import { Cell, type MessageDocument } from '../syntax/document.js';
import type { CellValues, PerCell } from './types.js';

const CHUNK = 256;

class ChunkedValues<V> implements CellValues<V> {
  constructor(
    readonly chunks: readonly (readonly V[])[],
    readonly length: number,
  ) {}

  forEach(fn: (value: V, index: number) => void): void {
    let index = 0;
    for (let c = 0; c < this.chunks.length; c++) {
      const chunk = this.chunks[c]!;
      for (let k = 0; k < chunk.length; k++) fn(chunk[k]!, index++);
    }
  }

  summaries<S>(summarize: (values: readonly V[]) => S): S[] {
    const out: S[] = [];
    for (let c = 0; c < this.chunks.length; c++) {
      // Kept on the chunk (caches live on their objects): versions share chunks, and with them their summaries.
      const chunk = this.chunks[c]! as readonly V[] & { [SUMMARIES]?: Map<unknown, unknown> };
      const kept = (chunk[SUMMARIES] ??= new Map());
      let s = kept.get(summarize) as S | undefined;
      if (s === undefined && !kept.has(summarize)) kept.set(summarize, (s = summarize(chunk)));
      out.push(s!);
    }
    return out;
  }
}

/** The summaries of a chunk, by summarizing function. */
const SUMMARIES: unique symbol = Symbol('msglint.summaries');

function chunked<V>(values: V[]): V[][] {
  const out: V[][] = [];
  for (let i = 0; i < values.length; i += CHUNK) out.push(values.slice(i, i + CHUNK));
  return out;
}

/** `before` with the values [at, at + removed) replaced by `added`, the chunks around them made again (added to `fresh`). */
function spliced<V>(before: ChunkedValues<V>, at: number, removed: number, added: V[], fresh: Set<readonly V[]>): V[][] {
  const chunks = before.chunks.slice() as V[][];
  let c = 0;
  let start = 0;
  while (c < chunks.length - 1 && start + chunks[c]!.length <= at) start += chunks[c++]!.length;
  let last = c;
  let end = start + (chunks[c]?.length ?? 0);
  while (end < at + removed && last < chunks.length - 1) end += chunks[++last]!.length;
  const old: V[] = [];
  for (let i = c; i <= last && i < chunks.length; i++) for (const v of chunks[i]!) old.push(v);
  const middle = old.slice(0, at - start).concat(added, old.slice(at - start + removed));
  const made = chunked(middle);
  for (const chunk of made) fresh.add(chunk);
  chunks.splice(c, last - c + 1, ...made);
  // Edits leave short chunks behind: past twice the count a fresh split has, split afresh.
  const length = before.length - removed + added.length;
  if (chunks.length <= 2 * Math.ceil(length / CHUNK) + 8) return chunks;
  const all = chunked(chunks.flat() as V[]);
  for (const chunk of all) fresh.add(chunk);
  return all;
}

/** Sets the values of `cells` (of this version) in `chunks`, copying each chunk not in `fresh` (made by this version) once. */
function setValues<V>(chunks: V[][], doc: MessageDocument, of: PerCell<V>, cells: Iterable<Cell>, fresh: Set<readonly V[]>): void {
  for (const cell of cells) {
    let c = 0;
    let start = 0;
    const index = doc.indexOf(cell);
    while (start + chunks[c]!.length <= index) start += chunks[c++]!.length;
    if (!fresh.has(chunks[c]!)) fresh.add((chunks[c] = chunks[c]!.slice()));
    chunks[c]![index - start] = of(cell, doc);
  }
}

// A version's values per function; a rule set has few such functions, so a list.
const kept = new Memo<MessageDocument, { of: PerCell<unknown>; values: ChunkedValues<unknown> }[]>();

function keptFor<V>(doc: MessageDocument, of: PerCell<V>): ChunkedValues<V> | undefined {
  const list = kept.get(doc);
  if (list) for (let i = 0; i < list.length; i++) if (list[i]!.of === of) return list[i]!.values as ChunkedValues<V>;
  return undefined;
}

/**
 * Every cell's value of `of` in `doc`, by cell index, and whether values of
 * the previous version were reused (the incremental check then compares
 * the lint with a fresh one). Made once per version. `declared`: the
 * asking rule's Rule.perCell, which must hold `of` (the engine knows a rule
 * that folds over the cells by them).
 */
export function cellValues<V>(doc: MessageDocument, of: PerCell<V>, declared: readonly PerCell<unknown>[] | undefined): { values: CellValues<V>; reused: boolean } {
  if (!declared?.includes(of)) throw new Error('cellValues is for the cross-cell check of a rule that declares the function in perCell');
  const own = keptFor(doc, of);
  if (own) return { values: own, reused: false };
  const edit = doc.edit;
  const before = edit?.previous && keptFor(edit.previous, of);
  const cells = doc.cells;
  let chunks: V[][];
  let reused = true;
  const r = edit?.replaced;
  if (before && edit!.sameFacts && before.length === cells.length) {
    chunks = before.chunks.slice() as V[][];
    const changed = edit!.changed.map((i) => doc.segments[i]).filter((s): s is Cell => s instanceof Cell);
    setValues(chunks, doc, of, changed, new Set());
  } else if (before && r && before.length - r.removed + r.added === cells.length) {
    // The changed segments are among the replaced ones.
    const added: V[] = [];
    for (let i = r.cell; i < r.cell + r.added; i++) added.push(of(cells[i]!, doc));
    const fresh = new Set<readonly V[]>();
    chunks = spliced(before, r.cell, r.removed, added, fresh);
    const refreshed = r.refreshed.filter((s): s is Cell => s instanceof Cell);
    if (refreshed.length) setValues(chunks, doc, of, refreshed, fresh);
  } else {
    reused = false;
    const values: V[] = [];
    for (let i = 0; i < cells.length; i++) values.push(of(cells[i]!, doc));
    chunks = chunked(values);
  }
  const values = new ChunkedValues<V>(chunks, cells.length);
  const list = kept.get(doc);
  if (list) list.push({ of, values });
  else kept.set(doc, [{ of, values }]);
  return { values, reused };
}
