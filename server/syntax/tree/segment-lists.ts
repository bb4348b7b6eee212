// Lists of segments per version that a keystroke should not look at every
// segment to make (most files have none): the segments that hold disable
// comments, the cells without an id, the cells whose id names nothing
// reliably, the cells whose metadata line lies in another segment, and the
// output cells whose type names nothing known. A version made by the
// editor's path (DocumentEdit.replaced) has the previous lists, updated for
// the segments the edit replaced or refreshed (a new list each).

import { replacedSegments, type MessageDocument } from './message-document.js';
import { Memo } from '../../base/memo.js';
import { Cell, type Segment } from './segment.js';

/** A list of segments with what puts a segment in it. */
class SegmentList {
  private readonly lists = new Memo<MessageDocument, Segment[]>();
  constructor(
    private readonly holds: (seg: Segment, doc: MessageDocument) => boolean,
    /** Whether the refreshed segments (ReplacedCells.refreshed) are looked at again. */
    private readonly readsFacts: boolean,
  ) {}

  of(doc: MessageDocument): readonly Segment[] {
    let list = this.lists.get(doc);
    if (list) return list;
    const edit = doc.edit;
    const before = edit?.replaced && edit.previous ? this.lists.get(edit.previous) : undefined;
    list = before ? this.updated(doc, before) : doc.segments.filter((s) => this.holds(s, doc));
    this.lists.set(doc, list);
    return list;
  }

  /** The previous version's list without the segments the edit replaced (or refreshed), with those of the new ones that belong. */
  private updated(doc: MessageDocument, before: Segment[]): Segment[] {
    const edit = doc.edit!;
    const replaced = replacedSegments(doc);
    const gone = new Set<Segment>(replaced.gone);
    const come = replaced.come;
    if (this.readsFacts) {
      for (const seg of edit.replaced!.refreshed) {
        gone.add(seg);
        come.push(seg);
      }
    }
    const list = before.filter((s) => !gone.has(s));
    const added = come.filter((s) => this.holds(s, doc));
    if (added.length === 0) return list;
    return list.concat(added).sort((a, b) => doc.offsetOf(a) - doc.offsetOf(b));
  }
}

const directiveHolders = new SegmentList((seg) => seg.parse !== undefined && seg.parse.directives.length > 0, false);
const withoutId = new SegmentList((seg) => seg instanceof Cell && seg.marker.idRef === undefined, false);
// A kept cell's id becomes or stops being doubtful only when the edit touches its id: it is then refreshed.
const doubtfulIds = new SegmentList((seg, doc) => seg instanceof Cell && (!doc.idFits(seg) || (doc.cellsById.get(seg.id!)?.length ?? 0) > 1), true);
const remoteMetadata = new SegmentList((seg, doc) => seg instanceof Cell && (doc.metadataOf(seg)?.segment ?? seg) !== seg, true);
// A kept cell's kind changes with its metadata line (it is then refreshed) or with the agents and languages, which such an edit keeps.
const unknownOutputs = new SegmentList((seg, doc) => seg instanceof Cell && doc.kindOf(seg) === 'unknown-output', true);

/** The segments whose parse holds disable comments (directives), in file order. */
export function segmentsWithDirectives(doc: MessageDocument): readonly Segment[] {
  return directiveHolders.of(doc);
}

/** The cells whose marker has no `[^id]`, in file order. */
export function cellsWithoutId(doc: MessageDocument): readonly Cell[] {
  return withoutId.of(doc) as readonly Cell[];
}

/**
 * The cells whose id names nothing reliably: none, one that does not fit
 * (MessageDocument.idFits), or one another cell has; in file order.
 */
export function cellsWithDoubtfulIds(doc: MessageDocument): readonly Cell[] {
  return doubtfulIds.of(doc) as readonly Cell[];
}

/** The cells whose metadata line lies in another segment, in file order. */
export function cellsWithMetadataElsewhere(doc: MessageDocument): readonly Cell[] {
  return remoteMetadata.of(doc) as readonly Cell[];
}

/** The output cells whose type is not a known agent, `tool` or language (`unknown-output`), in file order. */
export function cellsOfUnknownType(doc: MessageDocument): readonly Cell[] {
  return unknownOutputs.of(doc) as readonly Cell[];
}
