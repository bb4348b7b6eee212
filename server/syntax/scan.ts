// The line-based block scanner of spec section 2. It runs once over a whole
// file to find cell boundaries (and headings, for ordinary .md files), and
// again over each cell's own text to find that cell's blocks. Both runs use
// the same rules, so a cell parsed alone sees exactly what the file scan saw:
// a fence, comment or CDATA that closes later hides the markers in between,
// so its closer is always inside the same cell; one that never closes hides
// no marker in either run. A fence that never closes holds the lines after
// it up to the next marker-like line, as a Markdown reader's container would
// end it: a fence line among them is code, not the opener of another fence
// that could run over the next marker. Inside a `<tool>` element the line
// with the element's end tag ends it as well.

import type { Span } from '../base/text.js';
import type { Line } from './lines.js';

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
  /**
   * Lines strictly between the fences; for an unclosed fence, the lines
   * after it up to the next marker-like line (in a tool element, or the
   * line of its end tag) or the region's end.
   */
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
  /** Indices of the lines wholly inside an opaque region or that are fence lines, ascending. */
  opaque: number[];
  lineCount?: number;
  /** Where `stopAtMarker` stopped the scan. */
  stoppedAt?: number;
}

/**
 * Callers give every field, `undefined` included, in this order: objects of
 * one shape keep `scan` monomorphic (a second shape seen after V8 optimized
 * it threw its code away).
 */
export interface ScanOptions {
  markers: boolean;
  headings: boolean;
  /** Collect every line; the whole-file scan does without. */
  keepLines: boolean;
  /**
   * A line before the region (a cell's marker line) to put first in
   * `lines`: every line index of the result then counts it.
   */
  leading: Line | undefined;
  /**
   * Called at each marker line; returning true stops the scan there (the
   * marker is not recorded). Incremental re-parsing stops once it is back
   * in step with the previous version.
   */
  stopAtMarker: ((lineStart: number) => boolean) | undefined;
}

const SPACE = 32;
const TAB = 9;
const HASH = 35;
const PERCENT = 37;
const BACKTICK = 96;
const TILDE = 126;

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
export function isMarkerCandidate(text: string, start: number, contentEnd: number): boolean {
  const indent = leadingSpaces(text, start, contentEnd);
  if (indent > 3) return false;
  let i = start + indent;
  if (text.charCodeAt(i) !== HASH) return false;
  while (i < contentEnd && text.charCodeAt(i) === HASH) i++;
  while (i < contentEnd && (text.charCodeAt(i) === SPACE || text.charCodeAt(i) === TAB)) i++;
  return text.charCodeAt(i) === PERCENT && text.charCodeAt(i + 1) === PERCENT;
}

function fenceOpener(text: string, start: number, contentEnd: number): { char: '`' | '~'; length: number; indent: number; info: Span } | null {
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

function atxHeading(text: string, start: number, contentEnd: number): { level: number; text: string } | null {
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
 * character that is at least as long. Built lazily (one regex pass) on the
 * first opener; next-greater jumps keep many unclosable openers linear.
 */
class CloserIndex {
  private built = false;
  private readonly starts: number[][] = [[], []];
  private readonly lengths: number[][] = [[], []];
  private readonly nextGreater: Int32Array[] = [];

  constructor(
    private readonly text: string,
    private readonly from: number,
    private readonly to: number,
  ) {}

  private build(): void {
    this.built = true;
    const { text, from, to } = this;
    // Closer lines: up to three spaces, a run of ``` or ~~~, blanks, the line
    // end. Found with indexOf (the engine's fast search), not a multiline
    // regular expression, which is several times slower on long texts.
    for (let k = 0; k < 2; k++) {
      const fence = k === 0 ? '```' : '~~~';
      const ch = k === 0 ? BACKTICK : TILDE;
      for (let i = text.indexOf(fence, from); i !== -1 && i < to; ) {
        let j = i + 3;
        while (j < to && text.charCodeAt(j) === ch) j++;
        const next = j < to ? text.indexOf(fence, j) : -1;
        let start = i;
        while (start > from && i - start < 4 && text.charCodeAt(start - 1) === SPACE) start--;
        let e = j;
        while (e < to && (text.charCodeAt(e) === SPACE || text.charCodeAt(e) === TAB)) e++;
        const c = text.charCodeAt(e);
        // A lone CR or U+2028 is not a line break here.
        const lineEnd = e >= to || c === 10 || (c === 13 && text.charCodeAt(e + 1) === 10);
        if (i - start <= 3 && (start === from || text.charCodeAt(start - 1) === 10) && lineEnd) {
          this.starts[k]!.push(start);
          this.lengths[k]!.push(j - i);
        }
        i = next;
      }
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

  /** Start offset of the closer line for an opener whose line starts at `after`, or -1. */
  find(char: '`' | '~', length: number, after: number): number {
    if (!this.built) this.build();
    const k = char === '`' ? 0 : 1;
    const starts = this.starts[k]!;
    const len = this.lengths[k]!;
    const ng = this.nextGreater[k]!;
    let lo = 0;
    let hi = starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid]! <= after) lo = mid + 1;
      else hi = mid;
    }
    let j = lo;
    while (j < starts.length && len[j]! < length) j = ng[j]!;
    return j < starts.length ? starts[j]! : -1;
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

/**
 * Whether positions on a line lie inside an inline code span (an odd number
 * of backticks before them). Positions are asked in increasing order along
 * a line, so the count is carried forward instead of recounted: one pass per
 * line however many `<` it holds.
 */
class InlineCode {
  private line = -1;
  private pos = 0;
  private count = 0;
  constructor(private readonly text: string) {}
  at(lineStart: number, p: number): boolean {
    if (lineStart !== this.line || p < this.pos) {
      this.line = lineStart;
      this.pos = lineStart;
      this.count = 0;
    }
    const text = this.text;
    for (let i = this.pos; i < p; i++) if (text.charCodeAt(i) === BACKTICK) this.count++;
    this.pos = p;
    return this.count % 2 === 1;
  }
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

const NO_MARKERS: readonly MarkerLine[] = Object.freeze([]);
const NO_HEADINGS: readonly Heading[] = Object.freeze([]);

/**
 * Records an ATX heading line (the whole-file scan of an ordinary .md file
 * looks for its message section). A heading among the lines an unclosed
 * fence holds counts too: one unclosed fence must not hide the section.
 */
function heading(result: ScanResult, text: string, start: number, end: number, lineEnd: number, li: number, line: Line | undefined): void {
  const h = atxHeading(text, start, end);
  if (h) result.headings.push({ line: line ?? { start, contentEnd: end, end: lineEnd }, index: li, level: h.level, text: h.text });
}

/** Ends a tool element at `at` (its end tag when `closed`) and records it. */
function closeTool(result: ScanResult, tool: ToolElement, at: number, closed: boolean): void {
  tool.closeTagStart = at;
  tool.end = closed ? at + 7 : at;
  tool.closed = closed;
  result.tools.push(tool);
}

export function scan(text: string, from: number, to: number, options: ScanOptions): ScanResult {
  const keepLines = options.keepLines;
  const lines: Line[] = [];
  const opaque: number[] = [];
  // A cell's scan (thousands per file) makes no marker or heading arrays it would leave empty.
  const result: ScanResult = {
    lines,
    markers: options.markers ? [] : (NO_MARKERS as MarkerLine[]),
    headings: options.headings ? [] : (NO_HEADINGS as Heading[]),
    fences: [],
    comments: [],
    tools: [],
    opaque,
  };
  // Made on first use: most cells of a file need none of them.
  let closers: CloserIndex | undefined;
  let commentEnds: LaterIndex | undefined;
  let cdataEnds: LaterIndex | undefined;
  let inlineCode: InlineCode | undefined;

  let fence: FenceBlock | null = null;
  let fenceCloseStart = -1;
  // A fence that never closes, while it holds the lines after it.
  let unclosed: FenceBlock | null = null;
  // Next '<' / '\n' at or after the scan position; searched once, not once per line.
  let nextLt = -2;
  let comment: RegionNode | null = null;
  let commentEnd = -1;
  let cdata: RegionNode | null = null;
  let cdataEnd = -1;
  let tool: ToolElement | null = null;


  let li = -1;
  if (options.leading) {
    lines.push(options.leading);
    li = 0;
  }
  let lineStart = from;
  while (lineStart < to) {
    li++;
    let nl = text.indexOf('\n', lineStart);
    let lineEnd: number;
    let end: number; // content end
    if (nl === -1 || nl >= to) {
      lineEnd = to;
      end = to;
    } else {
      lineEnd = nl + 1;
      end = nl > lineStart && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
    }
    const start = lineStart;
    lineStart = lineEnd;
    let line: Line | undefined;
    if (keepLines) {
      line = { start, contentEnd: end, end: lineEnd };
      lines.push(line);
    }

    // Where the line is read from after an unclosed fence ends on it at a tool's end tag.
    let resume = -1;
    if (unclosed) {
      if (!isMarkerCandidate(text, start, end)) {
        resume = tool ? text.indexOf('</tool>', start) : -1;
        if (resume === -1 || resume >= end) {
          opaque.push(li);
          if (options.headings && text.charCodeAt(start + leadingSpaces(text, start, end)) === HASH) heading(result, text, start, end, lineEnd, li, line);
          continue;
        }
      }
      unclosed.contentEnd = start;
      unclosed = null;
    }

    if (fence) {
      opaque.push(li);
      if (start === fenceCloseStart) {
        fence.close = (line ??= { start, contentEnd: end, end: lineEnd });
        fence.closeIndex = li;
        fence.contentEnd = start;
        result.fences.push(fence);
        fence = null;
      }
      continue;
    }

    // Position on the line from which inline constructs are looked for.
    let p = resume === -1 ? start : resume;
    const atLineStart = resume === -1 && !comment && !cdata;
    if (comment) {
      if (commentEnd + 3 <= end) {
        comment.end = commentEnd + 3;
        result.comments.push(comment);
        comment = null;
        p = commentEnd + 3;
      } else {
        opaque.push(li);
        continue;
      }
    } else if (cdata) {
      if (cdataEnd + 3 <= end) {
        cdata.end = cdataEnd + 3;
        tool?.cdata.push(cdata);
        cdata = null;
        p = cdataEnd + 3;
      } else {
        opaque.push(li);
        continue;
      }
    }

    if (atLineStart) {
      let first = text.charCodeAt(start);
      if (first === SPACE) first = text.charCodeAt(start + leadingSpaces(text, start, end));
      if (first === HASH) {
        if (options.markers && isMarkerCandidate(text, start, end)) {
          if (options.stopAtMarker?.(start)) {
            result.stoppedAt = start;
            break;
          }
          // A cell boundary: a tool element never spans cells.
          if (tool) {
            closeTool(result, tool, start, false);
            tool = null;
          }
          result.markers.push({ line: (line ??= { start, contentEnd: end, end: lineEnd }), index: li });
          continue;
        }
        if (options.headings) heading(result, text, start, end, lineEnd, li, line);
      } else if (first === BACKTICK || first === TILDE) {
        const opener = fenceOpener(text, start, end);
        if (opener) {
          const closeAt = (closers ??= new CloserIndex(text, from, to)).find(opener.char, opener.length, start);
          const block: FenceBlock = {
            open: (line ??= { start, contentEnd: end, end: lineEnd }),
            char: opener.char,
            length: opener.length,
            indent: opener.indent,
            info: opener.info,
            contentStart: lineEnd,
            contentEnd: lineEnd,
            openIndex: li,
          };
          opaque.push(li);
          if (closeAt === -1) {
            // Never closed: reported; it holds the lines up to the next
            // marker-like line (in a tool element, up to its end tag).
            result.fences.push(block);
            block.contentEnd = to;
            unclosed = block;
          } else {
            fence = block;
            fenceCloseStart = closeAt;
          }
          continue;
        }
      }
    }

    // Inline constructs: comments, tool tags, CDATA (inside a tool element).
    while (p < end) {
      if (nextLt !== -1 && nextLt < p) nextLt = text.indexOf('<', p);
      const lt = nextLt;
      if (lt === -1 || lt >= end) break;
      if (text.startsWith('<!--', lt) && !(inlineCode ??= new InlineCode(text)).at(start, lt)) {
        const close = (commentEnds ??= new LaterIndex(text, '-->', to)).find(lt + 4);
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
        const close = (cdataEnds ??= new LaterIndex(text, ']]>', to)).find(lt + 9);
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
        closeTool(result, tool, lt, true);
        tool = null;
        p = lt + 7;
        continue;
      }
      if (!tool) {
        const tagEnd = isToolOpenTag(text, lt, end);
        if (tagEnd !== -1 && !(inlineCode ??= new InlineCode(text)).at(start, lt)) {
          // Open to the region's end until its end tag is found (or a marker ends the cell).
          tool = { start: lt, end: tagEnd, closed: false, openTagEnd: tagEnd, closeTagStart: to, cdata: [] };
          p = tagEnd;
          continue;
        }
      }
      p = lt + 1;
    }
  }
  result.lineCount = li + 1;

  // Regions still open at the end were found closed later, so this cannot
  // normally happen; keep the tree total anyway.
  if (fence) {
    const f: FenceBlock = fence;
    result.fences.push(f);
  }
  if (comment) result.comments.push(comment);
  if (cdata) tool?.cdata.push(cdata);
  if (tool) closeTool(result, tool, to, false);
  return result;
}
