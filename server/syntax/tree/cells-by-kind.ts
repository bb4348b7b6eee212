// The cells of each kind in one version, in file order: made once per
// version from its packed cell facts (a read of numbers, not of cells), so
// that a rule about code outputs or tool results walks those, not every
// cell. A derived value: each version makes its own.

import { Memo } from '../../base/memo.js';
import { KIND_BITS } from './file-facts.js';
import type { MessageDocument } from './message-document.js';
import { CELL_KINDS, type Cell, type CellKind } from './segment.js';

const byKind = new Memo<MessageDocument, ReadonlyMap<CellKind, readonly Cell[]>>('document');
const NO_CELLS: readonly Cell[] = [];

/** The cells of `kind` in `doc`, in file order. */
export function cellsOfKind(doc: MessageDocument, kind: CellKind): readonly Cell[] {
  let lists = byKind.get(doc);
  if (!lists) {
    const made = new Map<CellKind, Cell[]>();
    for (let i = 0; i < doc.cellCount; i++) {
      const k = CELL_KINDS[doc.factsAt(i) & KIND_BITS]!;
      const list = made.get(k);
      if (list) list.push(doc.cell(i)!);
      else made.set(k, [doc.cell(i)!]);
    }
    byKind.set(doc, (lists = made));
  }
  return lists.get(kind) ?? NO_CELLS;
}
