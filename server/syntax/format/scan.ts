// The line-based block scanner of spec section 2, run over a whole file and
// over each cell's own text with the same rules (docs/architecture.md, "Scan:
// where cells start"). A fence that never closes hides no marker, but holds
// the lines after it up to the next marker-like line, as a Markdown reader's
// container would end it: a fence line among them is code, not the opener of
// another fence that could run over the next marker. Inside a `<tool>`
// element the line with the element's end tag ends it as well.

import type { Span } from '../../base/text.js';
import type { Line } from './lines.js';
import { BACKTICK, fenceOpener, HASH, isMarkerCandidate, isToolOpenTag, leadingSpaces, SPACE, TILDE } from './scan-lines.js';
import { CloserIndex, InlineCode, LaterIndex } from './scan-lookahead.js';
import { quotedValues } from './metadata.js';

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

export interface ScanResult {
  markers: MarkerLine[];
  fences: FenceBlock[];
  comments: RegionNode[];
  tools: ToolElement[];
  /** Indices of the lines wholly inside an opaque region or that are fence lines, ascending. */
  opaqueLines: number[];
  lineCount?: number;
  /** Where `stopAtMarker` stopped the scan. */
  stoppedAt?: number;
}

/**
 * Callers give every field, `undefined` included, in this order: options of
 * one shape keep `scan` monomorphic, and V8 drops its optimized code when
 * a second shape comes.
 */
export interface ScanOptions {
  markers: boolean;
  /**
   * Record the fences, comments, tool elements and opaque lines. The scans
   * that only find where cells start do without, and step over a closed
   * fence at once: the same rules, less work per line.
   */
  blocks: boolean;
  /** Whether a line before the region (a cell's marker line) counts as line 0 of the result's line indices. */
  leadingLine: boolean;
  /**
   * Called at each marker line; returning true stops the scan there (the
   * marker is not recorded). Incremental re-parsing stops once it is back
   * in step with the previous version.
   */
  stopAtMarker: ((lineStart: number) => boolean) | undefined;
}

// Not frozen, as lists.ts says why; read-only types keep them empty.
const NO_MARKERS: readonly MarkerLine[] = [];

/** Ends a tool element at `at` (its end tag when `closed`) and records it. */
function closeTool(result: ScanResult, tool: ToolElement, at: number, closed: boolean, blocks: boolean): void {
  tool.closeTagStart = at;
  tool.end = closed ? at + 7 : at;
  tool.closed = closed;
  // Grown by push, the list has room for 17; a tool call keeps it as long as the tree (about 120 bytes each).
  if (tool.cdata.length) tool.cdata = tool.cdata.slice();
  if (blocks) result.tools.push(tool);
}

export function scan(text: string, from: number, to: number, options: ScanOptions): ScanResult {
  const blocks = options.blocks;
  const opaqueLines: number[] = [];
  // A cell's scan (thousands per file) makes no marker array it would leave empty.
  const result: ScanResult = {
    markers: options.markers ? [] : (NO_MARKERS as MarkerLine[]),
    fences: [],
    comments: [],
    tools: [],
    opaqueLines,
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
  // An HTML comment or a CDATA section that closes on a later line (its `end`
  // already there), and the list it goes to then.
  let region: RegionNode | null = null;
  let regionList: RegionNode[] | null = null;
  let tool: ToolElement | null = null;

  let li = options.leadingLine ? 0 : -1;
  let lineStart = from;
  while (lineStart < to) {
    li++;
    const nl = text.indexOf('\n', lineStart);
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

    // Where the line is read from after an unclosed fence ends on it at a tool's end tag.
    let resume = -1;
    if (unclosed) {
      if (!isMarkerCandidate(text, start, end)) {
        resume = tool ? text.indexOf('</tool>', start) : -1;
        if (resume === -1 || resume >= end) {
          if (blocks) opaqueLines.push(li);
          continue;
        }
      }
      unclosed.contentEnd = start;
      unclosed = null;
    }

    if (fence) {
      if (blocks) opaqueLines.push(li);
      if (start === fenceCloseStart) {
        fence.close = { start, contentEnd: end, end: lineEnd };
        fence.closeIndex = li;
        fence.contentEnd = start;
        if (blocks) result.fences.push(fence);
        fence = null;
      }
      continue;
    }

    // Position on the line from which inline constructs are looked for.
    let p = resume === -1 ? start : resume;
    const atLineStart = resume === -1 && !region;
    if (region) {
      if (region.end > end) {
        if (blocks) opaqueLines.push(li);
        continue;
      }
      regionList?.push(region);
      p = region.end;
      region = null;
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
            closeTool(result, tool, start, false, blocks);
            tool = null;
          }
          result.markers.push({ line: { start, contentEnd: end, end: lineEnd }, index: li });
          continue;
        }
      } else if (first === BACKTICK || first === TILDE) {
        const opener = fenceOpener(text, start, end);
        if (opener) {
          const closeAt = (closers ??= new CloserIndex(text, from, to)).find(opener.char, opener.length, start);
          const block: FenceBlock = {
            open: { start, contentEnd: end, end: lineEnd },
            char: opener.char,
            length: opener.length,
            indent: opener.indent,
            info: opener.info,
            contentStart: lineEnd,
            contentEnd: lineEnd,
            openIndex: li,
          };
          if (blocks) opaqueLines.push(li);
          if (closeAt === -1) {
            // Never closed: reported; it holds the lines up to the next
            // marker-like line (in a tool element, up to its end tag).
            if (blocks) result.fences.push(block);
            block.contentEnd = to;
            unclosed = block;
          } else if (blocks) {
            fence = block;
            fenceCloseStart = closeAt;
          } else {
            // Step over the fence's lines to the line after its closer, counting them.
            while (lineStart <= closeAt) {
              li++;
              const next = text.indexOf('\n', lineStart);
              lineStart = next === -1 || next >= to ? to : next + 1;
            }
          }
          continue;
        }
      }
    }

    // A metadata line is no place for a tool element, and its quoted values
    // are text: a `<tool>` or `<!--` in them opens nothing.
    // Read at the line's first `<` (most metadata lines have none: one per cell).
    const mayHoldValues = atLineStart && !tool && text.charCodeAt(start) === 91;
    let values: number[] | undefined;
    let valuesRead = false;
    let vi = 0;

    // Inline constructs: comments, tool tags, CDATA (inside a tool element).
    while (p < end) {
      if (nextLt !== -1 && nextLt < p) nextLt = text.indexOf('<', p);
      const lt = nextLt;
      if (lt === -1 || lt >= end) break;
      if (mayHoldValues && !valuesRead) {
        values = quotedValues(text, start, end);
        valuesRead = true;
      }
      if (values) {
        while (vi < values.length && values[vi + 1]! <= lt) vi += 2;
        if (vi < values.length && values[vi]! <= lt) {
          p = values[vi + 1]!;
          continue;
        }
      }
      const isComment = text.startsWith('<!--', lt) && !(inlineCode ??= new InlineCode(text)).at(start, lt);
      if (isComment || (tool && text.startsWith('<![CDATA[', lt))) {
        // Both closers are three characters long; one that never closes ends at its opener.
        const openerEnd = lt + (isComment ? 4 : 9);
        const close = isComment ? (commentEnds ??= new LaterIndex(text, '-->', to)).find(openerEnd) : (cdataEnds ??= new LaterIndex(text, ']]>', to)).find(openerEnd);
        const node: RegionNode = { start: lt, end: close === -1 ? openerEnd : close + 3, closed: close !== -1 };
        const list = isComment ? (blocks ? result.comments : null) : tool!.cdata;
        if (node.end > end) {
          region = node;
          regionList = list;
          break;
        }
        list?.push(node);
        p = node.end;
        continue;
      }
      if (tool && text.startsWith('</tool>', lt)) {
        closeTool(result, tool, lt, true, blocks);
        tool = null;
        p = lt + 7;
        continue;
      }
      if (!tool && !values) {
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
  if (fence && blocks) result.fences.push(fence);
  if (region) regionList?.push(region);
  if (tool) closeTool(result, tool, to, false, blocks);
  return result;
}
