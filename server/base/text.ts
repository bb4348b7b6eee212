// Places in a text, shared by every layer: offsets are UTF-16 code units
// into the document text; lines and characters are 0-based, as in LSP.

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
