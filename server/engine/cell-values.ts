// Per-cell values of a rule (Rule.perCell), kept per version. A version made
// on the editor's path (DocumentEdit.replaced) takes the previous version's
// values of every cell but the replaced and refreshed ones (whose kind or
// metadata line the edit made again), so a keystroke computes one cell's
// value and a fold over values; any other version makes every value. The
// values are a ChunkedList: versions share the chunks that hold none of the
// values made again, and a chunk's summary (CellValues.summaries) is kept
// with it, so a fold whose steps combine visits a chunk per 256 cells.

import { Memo } from '../base/memo.js';
import { ChunkedList } from '../base/chunked-list.js';
import { Cell, type MessageDocument } from '../syntax/document.js';
import type { CellValues, PerCell } from './types.js';

class ListValues<V> implements CellValues<V> {
  constructor(readonly list: ChunkedList<V>) {}

  get length(): number {
    return this.list.length;
  }

  forEach(fn: (value: V, index: number) => void): void {
    let index = 0;
    for (const chunk of this.list.chunks) for (let k = 0; k < chunk.length; k++) fn(chunk[k]!, index++);
  }

  summaries<S>(summarize: (values: readonly V[]) => S): S[] {
    const out: S[] = [];
    for (let c = 0; c < this.list.chunks.length; c++) out.push(this.list.derived(c, summarize));
    return out;
  }
}

// A version's values per function.
const kept = new Memo<MessageDocument, Map<PerCell<unknown>, ListValues<unknown>>>();

function keptFor<V>(doc: MessageDocument, of: PerCell<V>): ListValues<V> | undefined {
  return kept.get(doc)?.get(of) as ListValues<V> | undefined;
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
  const count = doc.cellCount;
  let list: ChunkedList<V>;
  let reused = true;
  const r = edit?.replaced;
  if (before && r && before.length - r.removed + r.added === count) {
    // The changed segments are among the replaced ones.
    const added: V[] = [];
    for (let i = r.cell; i < r.cell + r.added; i++) added.push(of(doc.cell(i)!, doc));
    const values = before.list.edit().splice(r.cell, r.removed, added);
    for (const seg of r.refreshed) if (seg instanceof Cell) values.set(doc.indexOf(seg), of(seg, doc));
    list = values.done();
  } else {
    reused = false;
    const values: V[] = [];
    for (const cell of doc.cells) values.push(of(cell, doc));
    list = ChunkedList.of(values);
  }
  const values = new ListValues<V>(list);
  const all = kept.get(doc);
  if (all) all.set(of, values);
  else kept.set(doc, new Map([[of, values]]));
  return { values, reused };
}
