// The typing path: an edit inside the body of one cell that keeps the
// file-wide facts gives a new version that takes over the previous one's
// segments, the edited cell replaced and the later ones moved in place.
// And the shapes that tell whether an edit changed only prose.

import { parseCell, type CellParse } from '../format/cell.js';
import { keepsCellFacts, resolveInCell } from '../tree/facts.js';
import { isMdFile, MessageDocument, type ParseOptions, type TextEditHint } from '../tree/message-document.js';
import { firstUnclosed, keepFirstUnclosed } from '../tree/unclosed.js';
import { scan } from '../format/scan.js';
import { Cell, CELL_KINDS, type Segment } from '../tree/segment.js';

/**
 * An edit within the body of one cell (below its marker line): that cell is
 * parsed again from its own new text. When the edit keeps the file-wide
 * facts (only prose changed, or see `keepsCellFacts`) and the cells'
 * boundaries (no marker line appears, nothing is left unclosed), the new
 * version is the previous one with that cell replaced: the other segments
 * are the previous version's objects, those after the edit moved in place,
 * as tree-sitter edits the old tree, so a keystroke makes no object per
 * cell. The previous version is then spent: its segments have the new
 * offsets (ParseOptions.edit says so). Nothing reads the whole new text,
 * which an editor may hold as a rope not yet flattened. Undefined when the
 * edit is anything else.
 */
export function parseInCell(text: string, options: ParseOptions, prev: MessageDocument, e: TextEditHint): MessageDocument | undefined {
  if (isMdFile(options.fileName) || !prev.facts) return undefined;
  if (!sameList(options.agents, prev.options.agents) || !sameList(options.languages, prev.options.languages)) return undefined;
  const seg = prev.segmentAt(e.start);
  if (!(seg instanceof Cell) || !seg.parse) return undefined;
  const last = prev.segments[prev.segments.length - 1] === seg;
  const rel = e.start - seg.offset;
  const relEnd = e.oldEnd - seg.offset;
  // The marker line, up to its line break, is the cell's id and kind; the last character before
  // the next marker keeps that marker at a line start (the last cell may grow).
  const markerLine = seg.parse.lines[0]!;
  if (rel < markerLine.end || markerLine.end === markerLine.contentEnd || relEnd > seg.text.length || (relEnd === seg.text.length && !last)) return undefined;
  const removed = seg.text.slice(rel, relEnd);
  const cellText = seg.text.slice(0, rel) + e.text + seg.text.slice(relEnd);
  const parse = parseCell((' ' + cellText).slice(1), true);
  const at = prev.segments.indexOf(seg, seg.index);
  const prose = isProseCell(prev, seg) && typingShape(parse) !== undefined && typingShape(parse) === typingShape(seg.parse);
  if (!prose && !(keepsBoundaries(prev, at, seg, parse) && keepsCellFacts(prev, seg, parse))) return undefined;

  prev.edit = undefined;
  const delta = e.text.length - (e.oldEnd - e.start);
  const breaks = /[\r\n]/.test(removed) || /[\r\n]/.test(e.text);
  const lines = breaks ? prev.lines.replaced(e.start, e.oldEnd, e.text, text) : prev.lines.moved(e.start, delta, text);
  const doc = new MessageDocument(text, options, lines);
  doc.frontmatter = prev.frontmatter;
  const cell = new Cell(seg.offset, parse.text, parse);
  const goneLines = resolveInCell(doc, prev, at, cell, delta);
  // The same segment is the first left unclosed: the edited cell leaves nothing unclosed it did not before.
  keepFirstUnclosed(doc, prev);
  doc.edit = {
    previous: prev,
    start: e.start,
    oldEnd: e.oldEnd,
    newEnd: e.start + e.text.length,
    proseOnly: prose,
    sameFacts: !prose,
    keepsCells: true,
    changed: [at],
    replaced: { at, removed: 1, added: 1, cell: seg.index, gone: [seg], goneLines },
    linesAdded: prose ? lines.lineCount - prev.lines.lineCount : undefined,
  };
  return doc;
}

/**
 * Whether a cell's new parse keeps the cells' boundaries: no marker line in
 * its body, nothing in it left unclosed before or after the edit (an
 * unclosed fence, comment or CDATA may hide later markers), and nothing
 * unclosed before it that a closing line in the new text could close.
 */
function keepsBoundaries(prev: MessageDocument, at: number, seg: Cell, parse: CellParse): boolean {
  if (parse.hasUnclosed || seg.parse!.hasUnclosed || firstUnclosed(prev) < at) return false;
  const body = parse.lines[0]!.end;
  const found = scan(parse.text, body, parse.text.length, { markers: true, headings: false, keepLines: false, blocks: false, leading: undefined, stopAtMarker: undefined });
  return found.markers.length === 0;
}

export function sameList(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  return a.every((x, i) => x === b[i]);
}

/**
 * A line of prose no file-wide fact or cross-cell finding depends on:
 * letters, digits, blanks and sentence punctuation, starting with a letter,
 * digit, quote or parenthesis (no list, heading, table, link, footnote
 * reference, HTML, code or metadata syntax).
 */
const PLAIN_PROSE = /^[ \t]*[\p{L}\p{N}'"(][\p{L}\p{M}\p{N} \t.,;:'"?!()\-]*$/u;

/**
 * Whether the prose of a segment is only prose to the rules: a message cell
 * or an agent's reply. The text of tool calls, tool results and code
 * outputs is read by cross-cell rules (tool XML, output prefixes), so any
 * change there is a change of structure.
 */
export function isProseCell(doc: MessageDocument, seg: Segment): boolean {
  if (!(seg instanceof Cell)) return false;
  const type = CELL_KINDS[doc.facts.cellKinds[seg.index]!];
  return type === 'message' || type === 'agent-reply';
}

/**
 * The text of a cell's parse with the content of its plain prose lines
 * (outside fences, comments and tool elements) replaced by a placeholder.
 * Two parses of a message cell or an agent reply with the same shape differ
 * only in such prose.
 */
export function shapeOf(p: CellParse): string {
  // Not cached: it is asked for the one or two cells an edit touches, and a
  // copy kept per cell would outlive the edit for as long as the cell.
  return p.marker ? masked(p, false) : p.text;
}

/**
 * The shape typing may not change (see parseTyping): `shapeOf`, and besides
 * its plain prose lines, the blank lines after the cell's first content line
 * masked too, each run of masked lines then one placeholder. So typing may
 * split or join prose lines, and fill or empty a line below the first
 * content, and nothing a cross-cell rule reads changes: the marker, the
 * lines up to the first content (metadata placement, the line after the
 * marker), ids, metadata, fences, comments and tool elements. Undefined for
 * a text holding the placeholder character itself.
 */
function typingShape(p: CellParse): string | undefined {
  if (!p.marker || p.text.includes('\u0000')) return undefined;
  return masked(p, true);
}

/** The text of a cell with masked lines as placeholders; `typing`: as typingShape does. */
function masked(p: CellParse, typing: boolean): string {
  const parts: string[] = [];
  let last = 0;
  let previous = -2;
  let bi = 0;
  let oi = 0;
  let ti = 0;
  for (let li = 1; li < p.lines.length; li++) {
    const line = p.lines[li]!;
    while (bi < p.blocks.length && p.blocks[bi]!.end <= line.start) bi++;
    while (oi < p.opaqueLines.length && p.opaqueLines[oi]! < li) oi++;
    while (ti < p.tools.length && p.tools[ti]!.end <= line.start) ti++;
    if (p.opaqueLines[oi] === li) continue;
    if (ti < p.tools.length && p.tools[ti]!.start < line.end) continue;
    const kind = p.blocks[bi]?.kind;
    const mask =
      (kind === 'text' && PLAIN_PROSE.test(p.text.slice(line.start, line.contentEnd))) ||
      (typing && kind === 'blank' && p.placementLine >= 1 && li > p.placementLine);
    if (!mask) continue;
    // For typing, a run of masked lines is one placeholder: the line break between two is skipped.
    if (typing && previous === li - 1) last = line.contentEnd;
    else {
      parts.push(p.text.slice(last, line.start), '\u0000');
      last = line.contentEnd;
    }
    previous = li;
  }
  return parts.length ? parts.join('') + p.text.slice(last) : p.text;
}

