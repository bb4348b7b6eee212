// Content lines of a cell and the stream lines of code output (spec section
// 6): every content line of a code output starts with `stdout> ` or
// `stderr> ` (an empty line of output is `stdout>`).

import type { Cell } from './segment.js';
import { lineAt, type Line } from '../format/lines.js';
import type { Span } from '../../base/text.js';

function firstNonBlank(text: string, line: Line): number {
  let p = line.start;
  while (p < line.contentEnd && (text.charCodeAt(p) === 32 || text.charCodeAt(p) === 9)) p++;
  return p;
}

/**
 * The content lines of a cell: every line but the marker, metadata lines and
 * lines that are only an HTML comment. Blank lines are kept except at both
 * ends. Offsets are relative to the cell (use `doc.abs(cell, span)`).
 */
export function contentLines(cell: Cell): Line[] {
  const p = cell.parse;
  const text = cell.text;
  const metadata = p.metadata;
  const out: Line[] = [];
  let mi = 0;
  // Lines of its own, not the parse's (CellParse.lines): those are kept with
  // the parse, and the LLM view reads every cell's, which for a long file kept
  // an object per line of the whole file until the tree went.
  for (let start = lineAt(text, 0).end; start < text.length; ) {
    const line = lineAt(text, start);
    start = line.end;
    // Metadata nodes are in line order.
    while (mi < metadata.length && metadata[mi]!.span.start < line.start) mi++;
    if (mi < metadata.length && metadata[mi]!.span.start === line.start && metadata[mi]!.type !== undefined) continue;
    const a = firstNonBlank(text, line);
    if (a < line.contentEnd && p.comments.length && p.comments.some((c) => c.closed && c.start <= a && c.end >= line.contentEnd)) continue;
    out.push(line);
  }
  const blank = (l: Line): boolean => firstNonBlank(text, l) >= l.contentEnd;
  let s = 0;
  let e = out.length;
  while (s < e && blank(out[s]!)) s++;
  while (e > s && blank(out[e - 1]!)) e--;
  return out.slice(s, e);
}

export type OutputStream = 'stdout' | 'stderr';

/**
 * The stream prefix of a code output line: `stdout> ` / `stderr> ` (the space
 * is part of the prefix), or `stdout>` / `stderr>` alone for an empty line.
 * Returns where the output text starts, or null when the line has no prefix.
 */
export function outputPrefix(text: string, line: Line): { stream: OutputStream; contentStart: number } | null {
  for (let i = 0, list = ['stdout', 'stderr'] as const; i < list.length; i++) {
    const stream = list[i]!;
    if (!text.startsWith(stream, line.start) || text.charCodeAt(line.start + 6) !== 62) continue;
    const after = line.start + 7;
    if (after >= line.contentEnd) return { stream, contentStart: after };
    if (text.charCodeAt(after) === 32) return { stream, contentStart: after + 1 };
  }
  return null;
}

/** A content line of a code output cell, with its stream prefix when it has one. */
export interface OutputLine {
  line: Line;
  stream: OutputStream | null;
  /** `stdout> ` / `stderr> ` (relative to the cell); absent without a prefix. */
  prefix?: Span;
  /** The output text after the prefix (the whole line without one). */
  content: Span;
}

/** The content lines of a cell read as code output lines (relative spans; use `doc.abs(cell, span)`). */
export function outputLines(cell: Cell): OutputLine[] {
  return contentLines(cell).map((line) => {
    const p = outputPrefix(cell.text, line);
    if (!p) return { line, stream: null, content: { start: line.start, end: line.contentEnd } };
    return { line, stream: p.stream, prefix: { start: line.start, end: p.contentStart }, content: { start: p.contentStart, end: line.contentEnd } };
  });
}
