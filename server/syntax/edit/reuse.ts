// What a new version of a file takes from the previous one on the whole
// path: cell parses of the same text, and the frontmatter.

import { parseCell, type CellParse } from '../format/cell.js';
import type { Frontmatter } from '../format/frontmatter.js';
import type { MessageDocument } from '../tree/message-document.js';

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
      const there = old !== undefined && prev.offsetOf(old) === oldOffset;
      if (there && old.parse && old.text === text && (old.parse.marker !== undefined) === hasMarker) return old.parse;
      // The cell that was here was edited: typing, the common case, needs no look-up by text.
      if (there && old.parse && text.length - old.text.length === this.text.length - prev.text.length) {
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

/** The previous version's frontmatter when the new text starts with the same block. */
export function reuseFrontmatter(prev: MessageDocument | undefined, text: string, pos: number): Frontmatter | undefined {
  const fm = prev?.frontmatter;
  if (!fm || fm.start !== pos) return undefined;
  // The block ends at the first closing line, so the same text up to its end is the same block.
  return text.length >= fm.end && text.startsWith(prev.text.slice(0, fm.end)) ? fm : undefined;
}

/** Length of the common prefix of two strings (their common suffix when `fromEnd`), at most `max`, compared a block at a time. */
export function commonLength(a: string, b: string, fromEnd: boolean, max = Infinity): number {
  const n = Math.min(a.length, b.length, max);
  // The `len` characters `i` from the start of `s` (or from its end).
  const part = (s: string, i: number, len: number): string => (fromEnd ? s.slice(s.length - i - len, s.length - i) : s.slice(i, i + len));
  let i = 0;
  let block = 256;
  while (i < n) {
    const len = Math.min(block, n - i);
    if (part(a, i, len) === part(b, i, len)) {
      i += len;
      block = Math.min(block * 2, 1 << 20);
    } else if (len <= 32) {
      while (i < n && part(a, i, 1) === part(b, i, 1)) i++;
      return i;
    } else {
      block = len >> 1;
    }
  }
  return i;
}
