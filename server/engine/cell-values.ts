// Per-cell values of a rule (Rule.perCell), kept per version. A rule whose
// input is a fold over the cells (the LLM view up to a reply: each cell adds
// its tokens to a running total) says what one cell contributes; its check
// asks for every cell's value (RuleContext.cellValues) and folds over them.
// The engine, not the rule, carries the values from one version to the next:
// a version parsed from the previous one with an edit that keeps the
// file-wide facts takes the previous values of the cells the edit did not
// change, so a keystroke computes one cell's value and a fold over numbers.
//
// What a value may depend on: its cell (text, type, metadata line, offset)
// and the file-wide facts (agents and their settings, the default agent).
// The edits whose values are carried over keep those facts:
// - `sameStructure`: the same cells, only prose changed; the changed cells'
//   values are made again;
// - `keepsCells`: the previous cells but the replaced ones, and the agents
//   and languages the same (server/syntax/edit/typing.ts and splice.ts);
//   the replaced cells' values and the refreshed cells' (whose kind or
//   metadata line the edit made again) are made again.
// Any other version makes every value. The values are the previous
// version's array copied, never changed: a version is a value.

import { Memo } from '../base/memo.js';
import { Cell, type MessageDocument } from '../syntax/document.js';

/** What one cell contributes to a rule's fold, from that cell and the file-wide facts. */
export type PerCell<V> = (cell: Cell, doc: MessageDocument) => V;

interface Kept {
  of: PerCell<unknown>;
  values: readonly unknown[];
}

// A version's values per function; a rule set has few such rules, so a list.
const kept = new Memo<MessageDocument, Kept[]>();

function keptFor<V>(doc: MessageDocument, of: PerCell<V>): readonly V[] | undefined {
  const list = kept.get(doc);
  if (list) for (let i = 0; i < list.length; i++) if (list[i]!.of === of) return list[i]!.values as readonly V[];
  return undefined;
}

/**
 * Every cell's value of `of` in `doc`, by cell index, and whether values of
 * the previous version were reused (the incremental check then compares
 * the lint with a fresh one). Made once per version.
 */
export function cellValues<V>(doc: MessageDocument, of: PerCell<V> | undefined): { values: readonly V[]; reused: boolean } {
  // A check of a rule without perCell, or a segment check (which depends on its segment only).
  if (!of) throw new Error('cellValues is for the cross-cell check of a rule with perCell');
  const own = keptFor(doc, of);
  if (own) return { values: own, reused: false };
  const edit = doc.edit;
  const before = edit?.previous && keptFor(edit.previous, of);
  const cells = doc.cells;
  let values: V[];
  let reused = true;
  if (before && edit!.sameStructure && before.length === cells.length) {
    values = before.slice();
    for (const si of edit!.changed) {
      const seg = doc.segments[si];
      if (seg instanceof Cell) values[seg.index] = of(seg, doc);
    }
  } else if (before && edit!.keepsCells && edit!.replaced && before.length - edit!.replaced.removed + edit!.replaced.added === cells.length) {
    // The changed segments are among the replaced ones.
    const { cell: at, removed, added } = edit!.replaced;
    values = before.slice(0, at);
    for (let i = at; i < at + added; i++) values.push(of(cells[i]!, doc));
    for (let i = at + removed; i < before.length; i++) values.push(before[i]!);
    for (const seg of edit!.refreshed ?? []) if (seg instanceof Cell) values[seg.index] = of(seg, doc);
  } else {
    reused = false;
    values = [];
    for (let i = 0; i < cells.length; i++) values.push(of(cells[i]!, doc));
  }
  const list = kept.get(doc);
  if (list) list.push({ of, values });
  else kept.set(doc, [{ of, values }]);
  return { values, reused };
}
