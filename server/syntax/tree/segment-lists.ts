// Lists of segments per version that a keystroke should not look at every
// segment to make (most files have none). What a segment's own parse
// decides (disable comments, a marker without an id) is found per chunk of
// cells (ChunkedList.derived): versions that share a chunk share its list.
// What the file-wide facts decide (an id that names nothing reliably, a
// metadata line elsewhere, an unknown type) is read from the packed
// per-cell facts, once per version.

import type { MessageDocument } from './message-document.js';
import { ID_FITS, KIND_BITS } from './file-facts.js';
import { Memo } from '../../base/memo.js';
import { NONE } from '../../base/lists.js';
import { countAtMost } from '../../base/sorted.js';
import { Cell, CELL_KIND_CODE, type Segment } from './segment.js';

/** A list per version of the segments whose own parse puts them in it, folded from per-chunk lists. */
function parseList<T extends Segment>(holds: (seg: Segment) => boolean): (doc: MessageDocument) => readonly T[] {
  const lists = new Memo<MessageDocument, Segment[]>('document');
  const inChunk = (cells: readonly Cell[]): readonly Cell[] => {
    const found = cells.filter(holds);
    return found.length ? found : NONE;
  };
  return (doc) => {
    let list = lists.get(doc);
    if (list === undefined) {
      const { table } = doc;
      list = table.leading.filter(holds);
      for (let c = 0; c < table.cells.chunks.length; c++) for (const cell of table.cells.derived(c, inChunk)) list.push(cell);
      for (const seg of table.trailing) if (holds(seg)) list.push(seg);
      lists.set(doc, list);
    }
    // `holds` admits only segments of type T.
    return list as readonly unknown[] as readonly T[];
  };
}

/**
 * A list per version of the cells that the file-wide facts put in it
 * (`holds`, given the cell's index), made whole: a walk over the packed
 * per-cell facts (FileFacts), by index.
 */
function factList(holds: (doc: MessageDocument, cell: Cell, index: number) => boolean): (doc: MessageDocument) => readonly Cell[] {
  const lists = new Memo<MessageDocument, readonly Cell[]>('document');
  return (doc) => {
    let list = lists.get(doc);
    if (list === undefined) {
      const cells = doc.cells;
      const out: Cell[] = [];
      for (let i = 0; i < cells.length; i++) if (holds(doc, cells[i]!, i)) out.push(cells[i]!);
      lists.set(doc, (list = out));
    }
    return list;
  };
}

/** The segments whose parse holds disable comments (directives), in file order. */
export const segmentsWithDirectives = parseList<Segment>((seg) => seg.parse !== undefined && seg.parse.directives.length > 0);

/** The cells whose marker has no `[^id]`, in file order. */
export const cellsWithoutId = parseList<Cell>((seg) => seg instanceof Cell && seg.marker.id === undefined);

/**
 * The cells whose id names nothing reliably: none, one that does not fit
 * (MessageDocument.idFits), or one another cell has; in file order.
 */
export const cellsWithDoubtfulIds = factList((doc, cell, i) => (doc.factsAt(i) & ID_FITS) === 0 || (hasRepeatedIds(doc) && doc.cellsById.get(cell.id!)!.length > 1));

/** Whether some id is used by more than one cell (most files have none: then no cell need be looked up by its id). */
export function hasRepeatedIds(doc: MessageDocument): boolean {
  return doc.cellsById.size !== doc.cellCount - cellsWithoutId(doc).length;
}

/** The cells whose metadata line lies in another segment, in file order. */
export const cellsWithMetadataElsewhere = factList((doc, cell, i) => (doc.metadataAt(i)?.segment ?? cell) !== cell);

/** The output cells whose type is not a known agent, `tool` or language (`unknown-output`), in file order. */
export const cellsOfUnknownType = factList((doc, _cell, i) => (doc.factsAt(i) & KIND_BITS) === UNKNOWN_OUTPUT);
const UNKNOWN_OUTPUT = CELL_KIND_CODE['unknown-output'];

/**
 * Whether a cell strictly between two cell indices (-1 and the cell count
 * for open ends), an output cell or a message cell as asked, has an id that
 * names nothing reliably (cellsWithDoubtfulIds): RuleContext.doubtfulIdBetween.
 */
export function doubtfulIdBetween(doc: MessageDocument, from: number, to: number, output: boolean): boolean {
  const cells = cellsWithDoubtfulIds(doc);
  for (let i = countAtMost(cells.length, (k) => doc.indexOf(cells[k]!), from); i < cells.length && doc.indexOf(cells[i]!) < to; i++) if (cells[i]!.isOutput === output) return true;
  return false;
}
