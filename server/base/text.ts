// Places in a text, shared by every layer: offsets are UTF-16 code units
// into the document text; lines and characters are 0-based, as in LSP.

import { countAtMost } from './sorted.js';

/** A stretch of text, [start, end) in offsets (relative to a cell inside a cell's parse). */
export interface Span {
  start: number;
  end: number;
}

export interface Position {
  line: number;
  character: number;
  offset: number;
}

export interface Range {
  start: Position;
  end: Position;
}

/** A text edit in absolute offsets, [start, end) replaced by text. */
export interface TextEdit {
  range: [number, number];
  text: string;
}

/** Line starts of a text, breaking at LF, CRLF and a lone CR (as LSP clients count lines). */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 13) {
      if (text.charCodeAt(i + 1) === 10) i++;
      starts.push(i + 1);
    } else if (c === 10) starts.push(i + 1);
  }
  return starts;
}

/** The line (index into `starts`) an offset is on. */
export function lineAtOffset(starts: number[], offset: number): number {
  return Math.max(0, countAtMost(starts.length, (k) => starts[k]!, offset) - 1);
}
