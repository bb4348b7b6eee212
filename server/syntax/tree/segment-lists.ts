// Lists of segments per version that a keystroke should not look at every
// segment to make (most files have none): the segments that hold disable
// comments, the cells without an id, the cells whose id names nothing
// reliably, the cells whose metadata line lies in another segment, and the
// output cells whose type names nothing known. A version made by the
// editor's path (DocumentEdit.replaced) has the previous lists, updated for
// the segments the edit replaced or refreshed (a new list each).

import { replacedSegments, versionValue, type MessageDocument, type VersionMaker } from './message-document.js';
import { Memo } from '../../base/memo.js';
import { NONE } from '../../base/lists.js';
import { countAtMost } from '../../base/sorted.js';
import { Cell, type Segment } from './segment.js';

/**
 * A list of segments per version, with what puts a segment in it;
 * `readsFacts`: whether the refreshed segments (ReplacedCells.refreshed)
 * are looked at again.
 */
function segmentList<T extends Segment>(holds: (seg: Segment, doc: MessageDocument) => boolean, readsFacts: boolean): (doc: MessageDocument) => readonly T[] {
  const lists = new Memo<MessageDocument, Segment[]>('document');
  const maker: VersionMaker<Segment[]> = {
    whole: (doc) => doc.segments.filter((s) => holds(s, doc)),
    // The previous version's list without the segments the edit replaced (or refreshed), with those of the new ones that belong.
    updated(doc, before) {
      const replaced = replacedSegments(doc);
      const refreshed = readsFacts ? doc.edit!.replaced.refreshed : NONE;
      const gone = new Set<Segment>([...replaced.gone, ...refreshed]);
      const added = [...replaced.come, ...refreshed].filter((s) => holds(s, doc));
      const list = before.filter((s) => !gone.has(s));
      if (added.length === 0) return list;
      return list.concat(added).sort((a, b) => doc.offsetOf(a) - doc.offsetOf(b));
    },
  };
  // `holds` admits only segments of type T.
  return (doc) => versionValue(lists, doc, maker) as readonly unknown[] as readonly T[];
}

/** The segments whose parse holds disable comments (directives), in file order. */
export const segmentsWithDirectives = segmentList<Segment>((seg) => seg.parse !== undefined && seg.parse.directives.length > 0, false);

/** The cells whose marker has no `[^id]`, in file order. */
export const cellsWithoutId = segmentList<Cell>((seg) => seg instanceof Cell && seg.marker.idRef === undefined, false);

/**
 * The cells whose id names nothing reliably: none, one that does not fit
 * (MessageDocument.idFits), or one another cell has; in file order. A kept
 * cell's id becomes or stops being doubtful only when the edit touches its
 * id: it is then refreshed.
 */
export const cellsWithDoubtfulIds = segmentList<Cell>((seg, doc) => seg instanceof Cell && (!doc.idFits(seg) || (doc.cellsById.get(seg.id!)?.length ?? 0) > 1), true);

/** The cells whose metadata line lies in another segment, in file order. */
export const cellsWithMetadataElsewhere = segmentList<Cell>((seg, doc) => seg instanceof Cell && (doc.metadataOf(seg)?.segment ?? seg) !== seg, true);

/**
 * The output cells whose type is not a known agent, `tool` or language
 * (`unknown-output`), in file order. A kept cell's kind changes with its
 * metadata line (it is then refreshed) or with the agents and languages,
 * which such an edit keeps.
 */
export const cellsOfUnknownType = segmentList<Cell>((seg, doc) => seg instanceof Cell && doc.kindOf(seg) === 'unknown-output', true);

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
