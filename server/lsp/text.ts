// The client's text of an open document, kept in sync with didChange.
//
// Same positions as vscode-languageserver-textdocument's TextDocument (lines
// end at LF, CRLF or a lone CR), but typing does not copy the whole text.
// A JavaScript string built by `a.slice(...) + typed + a.slice(...)` is a
// rope that V8 flattens (copies whole) the first time a character of it is
// read, on every keystroke for a text of megabytes (figures in
// docs/performance.md). Here the content
// is a flat `base` in which one window [winStart, winEnd) is replaced by
// `win`: typing edits only `win`, characters are read from the pieces, and
// the whole string is made only when asked for (getText), as a rope that
// the parser's fast path never reads.

import type { Position, Range, TextDocument, TextDocumentContentChangeEvent } from 'vscode-languageserver-textdocument';

/** The largest window before it is folded into the base. */
const MAX_WINDOW = 64 * 1024;

/** One edit of the text, in offsets of the text before it. */
export interface TextChange {
  start: number;
  end: number;
  text: string;
}

const isEol = (c: number): boolean => c === 13 || c === 10;

/** Offsets just after each line break of `text` (LF, CRLF or CR), plus `offset`. */
function lineBreaks(text: string, offset: number, out: number[]): void {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (!isEol(c)) continue;
    if (c === 13 && i + 1 < text.length && text.charCodeAt(i + 1) === 10) i++;
    out.push(offset + i + 1);
  }
}

export class EditableText implements TextDocument {
  private base: string;
  private winStart = 0;
  private winEnd = 0;
  private win = '';
  private whole: string | undefined;
  private lines: number[] | undefined;
  private _version: number;

  constructor(
    readonly uri: string,
    readonly languageId: string,
    version: number,
    content: string,
  ) {
    this._version = version;
    this.base = content;
    this.whole = content;
  }

  get version(): number {
    return this._version;
  }

  get length(): number {
    return this.base.length - (this.winEnd - this.winStart) + this.win.length;
  }

  /** The character code at an offset, read from the pieces (NaN outside the text). */
  charCodeAt(i: number): number {
    if (i < this.winStart) return this.base.charCodeAt(i);
    const w = i - this.winStart;
    if (w < this.win.length) return this.win.charCodeAt(w);
    return this.base.charCodeAt(w - this.win.length + this.winEnd);
  }

  getText(range?: Range): string {
    this.whole ??= this.base.slice(0, this.winStart) + this.win + this.base.slice(this.winEnd);
    if (!range) return this.whole;
    return this.whole.substring(this.offsetAt(range.start), this.offsetAt(range.end));
  }

  get lineCount(): number {
    return this.lineStarts().length;
  }

  private lineStarts(): number[] {
    if (!this.lines) {
      const starts = [0];
      lineBreaks(this.getText(), 0, starts);
      this.lines = starts;
    }
    return this.lines;
  }

  /** Moves an offset at a line's end back before its line break. */
  private beforeEol(offset: number, lineStart: number): number {
    while (offset > lineStart && isEol(this.charCodeAt(offset - 1))) offset--;
    return offset;
  }

  positionAt(offset: number): Position {
    offset = Math.max(Math.min(offset, this.length), 0);
    const starts = this.lineStarts();
    const line = this.lineOf(offset);
    offset = this.beforeEol(offset, starts[line]!);
    return { line, character: offset - starts[line]! };
  }

  offsetAt(position: Position): number {
    const starts = this.lineStarts();
    if (position.line >= starts.length) return this.length;
    if (position.line < 0) return 0;
    const lineStart = starts[position.line]!;
    if (position.character <= 0) return lineStart;
    const next = position.line + 1 < starts.length ? starts[position.line + 1]! : this.length;
    return this.beforeEol(Math.min(lineStart + position.character, next), lineStart);
  }

  getLineRange(line: number): Range {
    const starts = this.lineStarts();
    if (line >= starts.length) {
      const last = starts.length - 1;
      return { start: { line: last, character: 0 }, end: { line: last, character: this.length - starts[last]! } };
    }
    if (line < 0) return { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    const next = line + 1 < starts.length ? starts[line + 1]! : this.length;
    return { start: { line, character: 0 }, end: { line, character: this.beforeEol(next, starts[line]!) - starts[line]! } };
  }

  getEOLCharacters(line: number): string {
    const starts = this.lineStarts();
    if (line >= starts.length || line < 0) return '';
    const next = line + 1 < starts.length ? starts[line + 1]! : this.length;
    const eol = this.beforeEol(next, starts[line]!);
    let out = '';
    for (let i = eol; i < next; i++) out += String.fromCharCode(this.charCodeAt(i));
    return out;
  }

  /**
   * Applies a didChange notification's changes in order and returns each as
   * offsets of the text it applied to (undefined for a whole-text change).
   */
  update(changes: TextDocumentContentChangeEvent[], version: number): (TextChange | undefined)[] {
    const applied: (TextChange | undefined)[] = [];
    for (const change of changes) {
      if ('range' in change && change.range) {
        let { start, end } = change.range;
        if (start.line > end.line || (start.line === end.line && start.character > end.character)) [start, end] = [end, start];
        const from = this.offsetAt(start);
        const to = this.offsetAt(end);
        this.replace(from, to, change.text);
        applied.push({ start: from, end: to, text: change.text });
      } else if (typeof (change as { text?: unknown }).text === 'string') {
        this.base = change.text;
        this.whole = change.text;
        this.winStart = this.winEnd = 0;
        this.win = '';
        this.lines = undefined;
        applied.push(undefined);
      } else {
        throw new Error('Unknown change event received');
      }
    }
    this._version = version;
    return applied;
  }

  /** The line holding an offset. */
  private lineOf(offset: number): number {
    const starts = this.lineStarts();
    let low = 0;
    let high = starts.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (starts[mid]! > offset) high = mid;
      else low = mid + 1;
    }
    return low - 1;
  }

  private replace(from: number, to: number, text: string): void {
    // Lines of the edit's ends, counted before the change (as the client's range gives them).
    const startLine = this.lines ? this.lineOf(from) : 0;
    const endLine = this.lines ? this.lineOf(to) : 0;
    const winContentEnd = this.winStart + this.win.length;
    const inWindow = (this.win !== '' || this.winEnd > this.winStart) && from >= this.winStart && to <= winContentEnd;
    if (inWindow && this.win.length + text.length <= MAX_WINDOW) {
      this.win = this.win.slice(0, from - this.winStart) + text + this.win.slice(to - this.winStart);
    } else {
      // Fold the window into the base, and open a new one here.
      if (this.win !== '' || this.winEnd > this.winStart) this.base = this.getText();
      this.winStart = from;
      this.winEnd = to;
      this.win = text;
    }
    this.whole = undefined;

    const lines = this.lines;
    if (!lines) return;
    const insertedEnd = from + text.length;
    // A CRLF pair made across the edit's edges is one line break, not two: recount.
    if ((this.charCodeAt(from - 1) === 13 && this.charCodeAt(from) === 10) || (this.charCodeAt(insertedEnd - 1) === 13 && this.charCodeAt(insertedEnd) === 10)) {
      this.lines = undefined;
      return;
    }
    const added: number[] = [];
    lineBreaks(text, from, added);
    const s = startLine;
    const e = endLine;
    if (e - s === added.length) {
      for (let i = 0; i < added.length; i++) lines[i + s + 1] = added[i]!;
    } else {
      this.lines = lines.slice(0, s + 1).concat(added, lines.slice(e + 1));
    }
    const diff = text.length - (to - from);
    if (diff !== 0) {
      const out = this.lines!;
      for (let i = s + 1 + added.length; i < out.length; i++) out[i] = out[i]! + diff;
    }
  }
}
