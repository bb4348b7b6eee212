// The line-based block scanner of spec section 2. It runs once over a whole
// file to find cell boundaries (and headings, for ordinary .md files), and
// again over each cell's own text to find that cell's blocks. Both runs use
// the same rules, so a cell parsed alone sees exactly what the file scan saw:
// a fence, comment or CDATA that closes later hides the markers in between,
// so its closer is always inside the same cell; one that never closes hides
// nothing in either run.

import { splitLines, type Line } from './lines.js';

export interface Span {
  start: number;
  end: number;
}

export type MarkerProblem = 'no-space' | 'extra-space' | 'too-many-hashes' | 'too-many-percents' | 'indented' | 'glued' | 'tab';

/** A line that looks like a cell marker, well-formed or not. */
export interface MarkerLine {
  line: Line;
  /** The line's index within the scanned region. */
  index: number;
}

export interface FenceBlock {
  /** Opening fence line. */
  open: Line;
  /** Closing fence line, if the fence closes in the scanned region. */
  close?: Line;
  char: '`' | '~';
  length: number;
  indent: number;
  /** Info string span (trimmed), empty when absent. */
  info: Span;
  /** Lines strictly between the fences (for an unclosed fence: none). */
  contentStart: number;
  contentEnd: number;
  /** Line indices of the open (and close) fence within the region. */
  openIndex: number;
  closeIndex?: number;
}

export interface RegionNode {
  /** From the opener to the end of the closer (or of the opener if unclosed). */
  start: number;
  end: number;
  closed: boolean;
}

export interface ToolElement {
  /** From `<tool` to the end of `</tool>`; to the end of the region if not closed. */
  start: number;
  end: number;
  closed: boolean;
  /** Offset just after the `<tool ...>` start tag. */
  openTagEnd: number;
  /** Offset of `</tool>`, or the region's end if not closed. */
  closeTagStart: number;
  cdata: RegionNode[];
}

export interface Heading {
  line: Line;
  index: number;
  level: number;
  text: string;
}

export interface ScanResult {
  lines: Line[];
  markers: MarkerLine[];
  headings: Heading[];
  fences: FenceBlock[];
  comments: RegionNode[];
  tools: ToolElement[];
  /** Per line: true when the whole line is inside an opaque region or is a fence line. */
  opaqueLine: Uint8Array;
}

export interface ScanOptions {
  markers: boolean;
  headings: boolean;
}

const SPACE = 32;
const TAB = 9;
const HASH = 35;
const PERCENT = 37;
const BACKTICK = 96;
const TILDE = 126;
const LT = 60;

/** Columns of leading spaces (only spaces count for CommonMark's 0-3 indent). */
function leadingSpaces(text: string, start: number, end: number): number {
  let i = start;
  while (i < end && text.charCodeAt(i) === SPACE) i++;
  return i - start;
}

/**
 * Whether a line looks like a cell marker: up to three spaces, one or more
 * `#`, optional blanks, two or more `%`. Deeper indentation is an indented
 * code block in Markdown, so it is content.
 */
export function isMarkerCandidate(text: string, line: Line): boolean {
  const { start, contentEnd } = line;
  const indent = leadingSpaces(text, start, contentEnd);
  if (indent > 3) return false;
  let i = start + indent;
  if (text.charCodeAt(i) !== HASH) return false;
  while (i < contentEnd && text.charCodeAt(i) === HASH) i++;
  while (i < contentEnd && (text.charCodeAt(i) === SPACE || text.charCodeAt(i) === TAB)) i++;
  return text.charCodeAt(i) === PERCENT && text.charCodeAt(i + 1) === PERCENT;
}

function fenceOpener(text: string, line: Line): { char: '`' | '~'; length: number; indent: number; info: Span } | null {
  const { start, contentEnd } = line;
  const indent = leadingSpaces(text, start, contentEnd);
  if (indent > 3) return null;
  const p = start + indent;
  const c = text.charCodeAt(p);
  if (c !== BACKTICK && c !== TILDE) return null;
  let q = p;
  while (q < contentEnd && text.charCodeAt(q) === c) q++;
  const length = q - p;
  if (length < 3) return null;
  let infoStart = q;
  while (infoStart < contentEnd && (text.charCodeAt(infoStart) === SPACE || text.charCodeAt(infoStart) === TAB)) infoStart++;
  let infoEnd = contentEnd;
  while (infoEnd > infoStart && (text.charCodeAt(infoEnd - 1) === SPACE || text.charCodeAt(infoEnd - 1) === TAB)) infoEnd--;
  if (c === BACKTICK && text.indexOf('`', q) !== -1 && text.indexOf('`', q) < contentEnd) return null;
  return { char: c === BACKTICK ? '`' : '~', length, indent, info: { start: infoStart, end: infoEnd } };
}

/** A closing fence: up to three spaces, a run of one fence character, optional blanks. */
function fenceCloser(text: string, line: Line): { char: number; length: number } | null {
  const { start, contentEnd } = line;
  const indent = leadingSpaces(text, start, contentEnd);
  if (indent > 3) return null;
  const p = start + indent;
  const c = text.charCodeAt(p);
  if (c !== BACKTICK && c !== TILDE) return null;
  let q = p;
  while (q < contentEnd && text.charCodeAt(q) === c) q++;
  if (q - p < 3) return null;
  let r = q;
  while (r < contentEnd && (text.charCodeAt(r) === SPACE || text.charCodeAt(r) === TAB)) r++;
  return r === contentEnd ? { char: c, length: q - p } : null;
}

function atxHeading(text: string, line: Line): { level: number; text: string } | null {
  const { start, contentEnd } = line;
  const indent = leadingSpaces(text, start, contentEnd);
  if (indent > 3) return null;
  let i = start + indent;
  let level = 0;
  while (i < contentEnd && text.charCodeAt(i) === HASH) {
    i++;
    level++;
  }
  if (level < 1 || level > 6) return null;
  if (i < contentEnd && text.charCodeAt(i) !== SPACE && text.charCodeAt(i) !== TAB) return null;
  let body = text.slice(i, contentEnd).trim();
  // A closing run of # is decoration, when separated by a blank.
  const closing = /(?:^|[ \t])#+$/.exec(body);
  if (closing) body = body.slice(0, closing.index).trim();
  return { level, text: body };
}

/**
 * Finds, for fence openers, the first later closer line of the same
 * character that is at least as long. Uses next-greater jumps so that many
 * unclosable openers do not make the scan quadratic.
 */
class CloserIndex {
  private readonly lines: number[][] = [[], []];
  private readonly lengths: number[][] = [[], []];
  private readonly nextGreater: Int32Array[] = [];

  constructor(text: string, lines: Line[]) {
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      const first = text.charCodeAt(line.start + leadingSpaces(text, line.start, line.contentEnd));
      if (first !== BACKTICK && first !== TILDE) continue;
      const closer = fenceCloser(text, line);
      if (!closer) continue;
      const k = closer.char === BACKTICK ? 0 : 1;
      this.lines[k]!.push(i);
      this.lengths[k]!.push(closer.length);
    }
    for (let k = 0; k < 2; k++) {
      const len = this.lengths[k]!;
      const ng = new Int32Array(len.length).fill(len.length);
      const stack: number[] = [];
      for (let j = 0; j < len.length; j++) {
        while (stack.length && len[stack[stack.length - 1]!]! < len[j]!) ng[stack.pop()!] = j;
        stack.push(j);
      }
      this.nextGreater.push(ng);
    }
  }

  /** Line index of the closer for an opener at line `after`, or -1. */
  find(char: '`' | '~', length: number, after: number): number {
    const k = char === '`' ? 0 : 1;
    const lines = this.lines[k]!;
    const len = this.lengths[k]!;
    const ng = this.nextGreater[k]!;
    let lo = 0;
    let hi = lines.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (lines[mid]! <= after) lo = mid + 1;
      else hi = mid;
    }
    let j = lo;
    while (j < lines.length && len[j]! < length) j = ng[j]!;
    return j < lines.length ? lines[j]! : -1;
  }
}

/** Remembers where a needle stops occurring, so repeated look-ahead stays linear. */
class LaterIndex {
  private noneFrom = Infinity;
  constructor(
    private readonly text: string,
    private readonly needle: string,
    private readonly to: number,
  ) {}
  find(from: number): number {
    if (from >= this.noneFrom) return -1;
    const i = this.text.indexOf(this.needle, from);
    if (i === -1 || i + this.needle.length > this.to) {
      this.noneFrom = Math.min(this.noneFrom, from);
      return -1;
    }
    return i;
  }
}

/** True when position p on a line lies inside an inline code span (odd backtick count before it). */
function inInlineCode(text: string, lineStart: number, p: number): boolean {
  let n = 0;
  for (let i = text.indexOf('`', lineStart); i !== -1 && i < p; i = text.indexOf('`', i + 1)) n++;
  return n % 2 === 1;
}

function isToolOpenTag(text: string, p: number, end: number): number {
  // `<tool` followed by blank, `>` (not `<tool_name>`); returns the tag end or -1.
  if (!text.startsWith('<tool', p)) return -1;
  const c = text.charCodeAt(p + 5);
  if (c !== 62 && c !== SPACE && c !== TAB && !(p + 5 >= end)) return -1;
  const gt = text.indexOf('>', p + 5);
  if (gt === -1 || gt >= end) return -1;
  if (text.charCodeAt(gt - 1) === 47) return -1; // self-closing <tool/>
  return gt + 1;
}

export function scan(text: string, from: number, to: number, options: ScanOptions): ScanResult {
  const lines = splitLines(text, from, to);
  const result: ScanResult = {
    lines,
    markers: [],
    headings: [],
    fences: [],
    comments: [],
    tools: [],
    opaqueLine: new Uint8Array(lines.length),
  };
  const closers = new CloserIndex(text, lines);
  const commentEnds = new LaterIndex(text, '-->', to);
  const cdataEnds = new LaterIndex(text, ']]>', to);
  const toolEnds = new LaterIndex(text, '</tool>', to);

  let fence: FenceBlock | null = null;
  let fenceCloseLine = -1;
  let comment: RegionNode | null = null;
  let commentEnd = -1;
  let cdata: RegionNode | null = null;
  let cdataEnd = -1;
  let tool: ToolElement | null = null;

  const closeTool = (at: number, closed: boolean): void => {
    if (!tool) return;
    tool.closeTagStart = at;
    tool.end = closed ? at + 7 : at;
    tool.closed = closed;
    result.tools.push(tool);
    tool = null;
  };

  for (let li = 0; li < lines.length; li++) {
    const line = lines[li]!;
    if (fence) {
      result.opaqueLine[li] = 1;
      if (li === fenceCloseLine) {
        fence.close = line;
        fence.closeIndex = li;
        fence.contentEnd = line.start;
        result.fences.push(fence);
        fence = null;
      }
      continue;
    }

    // Position on the line from which inline constructs are looked for.
    let p = line.start;
    const atLineStart = !comment && !cdata;
    if (comment) {
      if (commentEnd + 3 <= line.contentEnd) {
        comment.end = commentEnd + 3;
        result.comments.push(comment);
        comment = null;
        p = commentEnd + 3;
      } else {
        result.opaqueLine[li] = 1;
        continue;
      }
    } else if (cdata) {
      if (cdataEnd + 3 <= line.contentEnd) {
        cdata.end = cdataEnd + 3;
        tool?.cdata.push(cdata);
        cdata = null;
        p = cdataEnd + 3;
      } else {
        result.opaqueLine[li] = 1;
        continue;
      }
    }

    if (atLineStart) {
      const first = text.charCodeAt(line.start + leadingSpaces(text, line.start, line.contentEnd));
      if (first === HASH) {
        if (options.markers && isMarkerCandidate(text, line)) {
          // A cell boundary: a tool element never spans cells.
          if (tool) closeTool(line.start, false);
          result.markers.push({ line, index: li });
          continue;
        }
        if (options.headings) {
          const h = atxHeading(text, line);
          if (h) result.headings.push({ line, index: li, level: h.level, text: h.text });
        }
      } else if (first === BACKTICK || first === TILDE) {
        const opener = fenceOpener(text, line);
        if (opener) {
          const closeAt = closers.find(opener.char, opener.length, li);
          const block: FenceBlock = {
            open: line,
            char: opener.char,
            length: opener.length,
            indent: opener.indent,
            info: opener.info,
            contentStart: line.end,
            contentEnd: line.end,
            openIndex: li,
          };
          result.opaqueLine[li] = 1;
          if (closeAt === -1) {
            // Never closed: reported, and it hides nothing.
            result.fences.push(block);
          } else {
            fence = block;
            fenceCloseLine = closeAt;
          }
          continue;
        }
      }
    }

    // Inline constructs: comments, tool tags, CDATA (inside a tool element).
    const end = line.contentEnd;
    while (p < end) {
      const lt = text.indexOf('<', p);
      if (lt === -1 || lt >= end) break;
      if (text.startsWith('<!--', lt)) {
        const close = commentEnds.find(lt + 4);
        const node: RegionNode = { start: lt, end: lt + 4, closed: close !== -1 };
        if (close === -1) {
          result.comments.push(node);
          p = lt + 4;
          continue;
        }
        if (close + 3 <= end) {
          node.end = close + 3;
          result.comments.push(node);
          p = close + 3;
          continue;
        }
        comment = node;
        commentEnd = close;
        p = end;
        break;
      }
      if (tool && text.startsWith('<![CDATA[', lt)) {
        const close = cdataEnds.find(lt + 9);
        const node: RegionNode = { start: lt, end: lt + 9, closed: close !== -1 };
        if (close === -1) {
          tool.cdata.push(node);
          p = lt + 9;
          continue;
        }
        if (close + 3 <= end) {
          node.end = close + 3;
          tool.cdata.push(node);
          p = close + 3;
          continue;
        }
        cdata = node;
        cdataEnd = close;
        p = end;
        break;
      }
      if (tool && text.startsWith('</tool>', lt)) {
        closeTool(lt, true);
        p = lt + 7;
        continue;
      }
      if (!tool) {
        const tagEnd = isToolOpenTag(text, lt, end);
        if (tagEnd !== -1 && !inInlineCode(text, line.start, lt)) {
          tool = { start: lt, end: tagEnd, closed: false, openTagEnd: tagEnd, closeTagStart: to, cdata: [] };
          // An element with no end tag anywhere later stays open to the region's end.
          if (toolEnds.find(tagEnd) === -1) tool.closeTagStart = to;
          p = tagEnd;
          continue;
        }
      }
      p = lt + 1;
    }
  }

  // Regions still open at the end were found closed later, so this cannot
  // normally happen; keep the tree total anyway.
  if (fence) {
    const f: FenceBlock = fence;
    result.fences.push(f);
  }
  if (comment) result.comments.push(comment);
  if (cdata) tool?.cdata.push(cdata);
  if (tool) closeTool(to, false);
  return result;
}
