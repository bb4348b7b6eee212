// The typing path: an edit inside the prose of one cell gives a new version
// that is the previous one with that cell replaced, its file-wide facts
// shared. And the shapes that tell whether an edit changed only prose.

import { parseCell, type CellParse } from './cell.js';
import { resolveLike } from './facts.js';
import { isMdFile, MessageDocument, type ParseOptions, type TextEditHint } from './message-document.js';
import { Cell, Segment } from './segment.js';

/**
 * Typing within the body of one cell: that cell is parsed again from its
 * own new text, and when only its prose changed (its shape is the same, no
 * line break was added or removed) the new version is the previous one with
 * that cell replaced and the later segments moved. Nothing reads the whole
 * new text, which an editor may hold as a rope not yet flattened.
 * Undefined when the edit is anything else.
 */
export function parseTyping(text: string, options: ParseOptions, prev: MessageDocument, e: TextEditHint): MessageDocument | undefined {
  if (isMdFile(options.fileName) || !prev.structure) return undefined;
  if (!sameList(options.agents, prev.options.agents) || !sameList(options.languages, prev.options.languages)) return undefined;
  const seg = prev.segmentAt(e.start);
  if (!(seg instanceof Cell) || !seg.parse) return undefined;
  const rel = e.start - seg.offset;
  const relEnd = e.oldEnd - seg.offset;
  if (rel < seg.parse.lines[0]!.end || relEnd >= seg.text.length) return undefined;
  const removed = seg.text.slice(rel, relEnd);
  // A line break added or removed (Enter, or Backspace at a line's start)
  // keeps the structure too when it only splits or joins prose lines.
  const breaks = /[\r\n]/.test(removed) || /[\r\n]/.test(e.text);
  const cellText = seg.text.slice(0, rel) + e.text + seg.text.slice(relEnd);
  const parse = parseCell((' ' + cellText).slice(1), true);
  if (!proseOnly(prev, seg)) return undefined;
  const shape = typingShape(parse);
  if (shape === undefined || shape !== typingShape(seg.parse)) return undefined;

  prev.edit = undefined;
  const delta = e.text.length - (e.oldEnd - e.start);
  const lines = breaks ? prev.lines.replaced(e.start, e.oldEnd, e.text, text) : prev.lines.moved(e.start, delta, text);
  const doc = new MessageDocument(text, options, lines);
  doc.frontmatter = prev.frontmatter;
  const at = seg.index;
  let changed = -1;
  for (let i = 0; i < prev.segments.length; i++) {
    const old = prev.segments[i]!;
    // The segments before the edited cell are the previous version's own
    // objects (same offset, index and facts): typing at the end of a long
    // file makes no new object for the cells above it.
    if (old instanceof Cell ? old.index < at : old.offset < seg.offset) {
      if (old instanceof Cell) doc.cells.push(old);
      doc.segments.push(old);
      continue;
    }
    const offset = old.offset > e.start ? old.offset + delta : old.offset;
    if (old instanceof Cell) {
      const cell = old.index === at ? new Cell(offset, parse.text, parse) : new Cell(offset, old.text, old.parse!);
      if (old.index === at) changed = i;
      cell.index = doc.cells.length;
      doc.cells.push(cell);
      doc.segments.push(cell);
    } else {
      doc.segments.push(new Segment(old.kind, offset, old.text, old.parse));
    }
  }
  doc.edit = {
    previous: prev,
    start: e.start,
    oldEnd: e.oldEnd,
    newEnd: e.start + e.text.length,
    sameStructure: true,
    changed: [changed],
    linesAdded: lines.lineCount - prev.lines.lineCount,
  };
  resolveLike(doc, prev.structure, doc.edit.changed, prev);
  return doc;
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
export function proseOnly(doc: MessageDocument, seg: Segment): boolean {
  if (!(seg instanceof Cell)) return false;
  const type = doc.structure.cellTypes[seg.index];
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

