import type { Position, Range } from '../engine/types.js';

/**
 * Maps UTF-16 offsets to 0-based line/character positions and back.
 * Line breaks are LF or CRLF; a lone CR is not a line break (as in the
 * line-based spec), so it stays part of its line's content.
 */
export class LineIndex {
  /** Offset of the first character of each line. */
  readonly starts: number[];

  constructor(readonly text: string) {
    const starts = [0];
    let i = text.indexOf('\n');
    while (i !== -1) {
      starts.push(i + 1);
      i = text.indexOf('\n', i + 1);
    }
    this.starts = starts;
  }

  get lineCount(): number {
    return this.starts.length;
  }

  lineOf(offset: number): number {
    const starts = this.starts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  position(offset: number): Position {
    const o = Math.max(0, Math.min(offset, this.text.length));
    const line = this.lineOf(o);
    return { line, character: o - this.starts[line]!, offset: o };
  }

  range(start: number, end: number): Range {
    return { start: this.position(start), end: this.position(end) };
  }

  /** Offset of a line/character, clamped to the document and to the line's end. */
  offsetAt(line: number, character: number): number {
    if (line < 0) return 0;
    if (line >= this.starts.length) return this.text.length;
    const start = this.starts[line]!;
    const end = this.lineContentEnd(line);
    return Math.min(start + Math.max(0, character), end);
  }

  /** End of a line's content, before its CRLF or LF. */
  lineContentEnd(line: number): number {
    const next = line + 1 < this.starts.length ? this.starts[line + 1]! - 1 : this.text.length;
    if (next > this.starts[line]! && this.text.charCodeAt(next - 1) === 13 && next < this.text.length) return next - 1;
    return next;
  }
}

/** A line of a text slice: [start, contentEnd) is the content, [contentEnd, end) its line break. */
export interface Line {
  start: number;
  contentEnd: number;
  end: number;
}

/** Splits text into lines (LF or CRLF). The last line may be empty. */
export function splitLines(text: string, from = 0, to = text.length): Line[] {
  const lines: Line[] = [];
  let start = from;
  while (start < to) {
    let nl = text.indexOf('\n', start);
    if (nl === -1 || nl >= to) nl = -1;
    if (nl === -1) {
      lines.push({ start, contentEnd: to, end: to });
      break;
    }
    const contentEnd = nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
    lines.push({ start, contentEnd, end: nl + 1 });
    start = nl + 1;
  }
  return lines;
}
