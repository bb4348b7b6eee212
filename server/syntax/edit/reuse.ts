// What a new version of a file takes from the previous one: cell parses of
// the same text, the frontmatter, and the cell boundaries away from the edit
// (re-scanning only from the cell before the edit until the scan is back in
// step).

import { parseCell, type CellParse } from '../format/cell.js';
import type { Frontmatter } from '../format/frontmatter.js';
import type { MessageDocument } from '../tree/message-document.js';
import { Memo } from '../../base/memo.js';
import { scan } from '../format/scan.js';
import type { Cell, Segment } from '../tree/segment.js';

/**
 * The previous version's parses, for the segments of a new version: a
 * segment whose text is the same reuses its parse.
 */
export class PreviousParses {
  /** The previous version's parses by text, built only when a re-scanned cell is not where it was. */
  private byText: readonly [Map<string, CellParse>, Map<string, CellParse>] | undefined = undefined;

  constructor(
    private readonly prev: MessageDocument | undefined,
    private readonly text: string,
    /** The tree is used once (ParseOptions.once): cells may parse slices of the text. */
    private readonly once: boolean,
  ) {}

  /**
   * A cell parse reused from the previous version when the text is the same:
   * first the segment at `oldOffset` (where an unmoved or shifted cell was),
   * then any segment of the previous version with that text.
   */
  parse(text: string, hasMarker: boolean, oldOffset = -1): CellParse {
    const prev = this.prev;
    if (prev) {
      const old = oldOffset >= 0 ? prev.segmentAt(oldOffset) : undefined;
      if (old?.parse && old.offset === oldOffset && old.text === text && (old.parse.marker !== undefined) === hasMarker) return old.parse;
      // The cell that was here was edited: typing, the common case, needs no look-up by text.
      if (old?.parse && old.offset === oldOffset && text.length - old.text.length === this.text.length - prev.text.length) {
        return parseCell((' ' + text).slice(1), hasMarker);
      }
      if (!this.byText) {
        const byText = [new Map<string, CellParse>(), new Map<string, CellParse>()] as const;
        for (const seg of prev.segments) if (seg.parse) byText[seg.parse.marker ? 0 : 1].set(seg.text, seg.parse);
        this.byText = byText;
      }
      const found = this.byText[hasMarker ? 0 : 1].get(text);
      if (found) return found;
    }
    // A slice keeps its whole source string alive, and a cell's parse
    // outlives the version it came from: after an edit, parse a copy of the
    // cell's own, so earlier versions of a long file can be collected. The
    // first version's cells slice its text: that keeps one text alive, not
    // one per version, and opening a long file copies no cell.
    return parseCell(this.once || !prev ? text : (' ' + text).slice(1), hasMarker);
  }
}

/** The previous version's cell `c` when it is the cell now at [start, end) (moved to `start` from `oldStart`). */
export function reusableCell(prev: MessageDocument, c: Cell | undefined, start: number, end: number, oldStart: number): Cell | undefined {
  if (!c) return undefined;
  // From an array of the previous version's offsets, not its cells: reading
  // thousands of scattered objects per keystroke is what costs.
  const starts = cellStarts(prev);
  const oldEnd = starts[c.index + 1]!;
  return starts[c.index] === oldStart && oldEnd - oldStart === end - start ? c : undefined;
}

const starts = new Memo<MessageDocument, Float64Array>();

/** A version's cell offsets, and after them the end of its last cell. */
function cellStarts(doc: MessageDocument): Float64Array {
  let out = starts.get(doc);
  if (!out) {
    const cells = doc.cells;
    out = new Float64Array(cells.length + 1);
    for (let i = 0; i < cells.length; i++) out[i] = cells[i]!.offset;
    out[cells.length] = cells.length ? cells[cells.length - 1]!.end : 0;
    starts.set(doc, out);
  }
  return out;
}

/** The previous version's frontmatter when the new text starts with the same block. */
export function reuseFrontmatter(prev: MessageDocument | undefined, text: string, pos: number): Frontmatter | undefined {
  const fm = prev?.frontmatter;
  if (!fm || fm.start !== pos) return undefined;
  // The block ends at the first closing line, so the same text up to its end is the same block.
  return text.length >= fm.end && text.startsWith(prev.text.slice(0, fm.end)) ? fm : undefined;
}

/** Length of the common prefix of two strings, compared a block at a time. */
export function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  let block = 256;
  while (i < n) {
    const len = Math.min(block, n - i);
    if (a.slice(i, i + len) === b.slice(i, i + len)) {
      i += len;
      block = Math.min(block * 2, 1 << 20);
    } else if (len <= 32) {
      while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
      return i;
    } else {
      block = len >> 1;
    }
  }
  return i;
}

/** Length of the common suffix, at most `max`. */
export function commonSuffix(a: string, b: string, max: number): number {
  const n = Math.min(a.length, b.length, max);
  let i = 0;
  let block = 256;
  while (i < n) {
    const len = Math.min(block, n - i);
    if (a.slice(a.length - i - len, a.length - i) === b.slice(b.length - i - len, b.length - i)) {
      i += len;
      block = Math.min(block * 2, 1 << 20);
    } else if (len <= 32) {
      while (i < n && a.charCodeAt(a.length - 1 - i) === b.charCodeAt(b.length - 1 - i)) i++;
      return i;
    } else {
      block = len >> 1;
    }
  }
  return i;
}

/**
 * Cell boundaries of an edited text, found by re-scanning only from the cell
 * before the edit until the scan is back in step with the previous version's
 * boundaries. Returns null when a whole scan is needed (ordinary .md files,
 * an edit in the frontmatter, or an unclosed fence, comment or CDATA before
 * the edit, which the new text might close).
 */
export function markersFromPrevious(
  prev: MessageDocument,
  text: string,
  pos: number,
  range: { start: number; oldEnd: number; newEnd: number },
): { markers: number[]; oldCells: (Cell | undefined)[] } | null {
  const old = prev.text;
  if (old === text) return { markers: prev.cells.map((c) => c.offset), oldCells: prev.cells.slice() };
  const prefix = range.start;
  const delta = text.length - old.length;
  const oldEditEnd = range.oldEnd;
  const newEditEnd = range.newEnd;
  const prevBody = prev.segments.find((s) => s.kind === 'prologue' || s.kind === 'cell');
  const prevPos = prevBody ? prevBody.offset : old.length;
  if (pos !== prevPos || prefix < pos) return null;
  // Re-scan from the segment holding the character before the edit, or the
  // one before it when the edit touches its marker line: a marker edited
  // away joins its cell to the one before, whose unclosed tool element may
  // then reach into it.
  let startSeg = prev.segmentAt(Math.max(pos, prefix - 1));
  if (startSeg?.parse?.marker && prefix < startSeg.offset + startSeg.parse.lines[0]!.end && startSeg.offset > pos) startSeg = prev.segmentAt(startSeg.offset - 1);
  if (!startSeg || (startSeg.kind !== 'cell' && startSeg.kind !== 'prologue')) return null;
  // An indexed loop: it runs on every keystroke, over the segments before the edit.
  for (let i = 0, list = prev.segments; i < list.length; i++) {
    const seg = list[i]!;
    if (seg.offset >= startSeg.offset) break;
    if (seg.parse?.hasUnclosed) return null;
  }
  const before: number[] = [];
  let k = 0;
  for (; k < prev.cells.length && prev.cells[k]!.offset < startSeg.offset; k++) before.push(prev.cells[k]!.offset);
  // Old markers after the edit, in new coordinates, for the stop test.
  let j = k;
  while (j < prev.cells.length && prev.cells[j]!.offset < oldEditEnd) j++;
  let resumeAt = -1;
  const result = scan(text, startSeg.offset, text.length, {
    markers: true,
    headings: false,
    keepLines: false,
    blocks: false,
    leading: undefined,
    stopAtMarker(lineStart) {
      if (lineStart < newEditEnd) return false;
      while (j < prev.cells.length && prev.cells[j]!.offset + delta < lineStart) j++;
      if (j < prev.cells.length && prev.cells[j]!.offset + delta === lineStart) {
        resumeAt = j;
        return true;
      }
      return false;
    },
  });
  // oldCells[i]: the previous version's cell that marker i starts, when it
  // was not re-scanned (undefined for a marker found by the re-scan).
  const out = before;
  const oldCells: (Cell | undefined)[] = prev.cells.slice(0, before.length);
  for (const m of result.markers) {
    out.push(m.line.start);
    oldCells.push(undefined);
  }
  if (resumeAt !== -1) {
    for (let i = resumeAt; i < prev.cells.length; i++) {
      out.push(prev.cells[i]!.offset + delta);
      oldCells.push(prev.cells[i]);
    }
  }
  return { markers: out, oldCells };
}

