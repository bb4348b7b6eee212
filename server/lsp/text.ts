// The client's text of an open document, kept in sync with didChange.
//
// Same positions as vscode-languageserver-textdocument's TextDocument (lines
// end at LF, CRLF or a lone CR), but typing does not copy the whole text.
// A JavaScript string built by `a.slice(...) + typed + a.slice(...)` is a
// rope that V8 flattens (copies whole) the first time a character of it is
// read: 50 ms for the 6.9 MB benchmark file on this project's machines
// (figures in docs/performance.md). Here the content is a base held in
// chunks of at most 64 K characters, in which one window [winStart, winEnd)
// is replaced by `win`: typing edits only `win`, characters are read from
// the pieces, an edit elsewhere folds the window into the chunks it
// touches (not the whole text), and the whole string is made only when
// asked for (getText), as a rope of the pieces that the parser's fast path
// never reads.

import type { Position, Range, TextDocument, TextDocumentContentChangeEvent } from 'vscode-languageserver-textdocument';
import { replaceRange } from '../base/lists.js';

/** The most characters of a chunk of the base, and of the window before it is folded into the chunks. */
const CHUNK = 64 * 1024;

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
  /** The base text in chunks (one empty chunk for an empty base), and where each starts. */
  private chunks: string[] = [];
  private chunkStarts: number[] = [];
  private baseLength = 0;
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
    /** Chunk size (tests make it small to cross chunk edges often). */
    private readonly chunkSize = CHUNK,
  ) {
    this._version = version;
    this.setBase(content);
  }

  get version(): number {
    return this._version;
  }

  get length(): number {
    return this.baseLength - (this.winEnd - this.winStart) + this.win.length;
  }

  /** The character code at an offset, read from the pieces (NaN outside the text). */
  charCodeAt(i: number): number {
    if (i < this.winStart) return this.baseCharCodeAt(i);
    const w = i - this.winStart;
    if (w < this.win.length) return this.win.charCodeAt(w);
    return this.baseCharCodeAt(w - this.win.length + this.winEnd);
  }

  getText(range?: Range): string {
    if (!range) {
      if (this.whole === undefined) {
        let out = '';
        for (const piece of this.pieces(0, this.length)) out += piece;
        this.whole = out;
      }
      return this.whole;
    }
    // substring's order: the smaller offset first.
    const a = this.offsetAt(range.start);
    const b = this.offsetAt(range.end);
    const [from, to] = a <= b ? [a, b] : [b, a];
    // From the pieces even when the whole string was made: it may be a rope, which a read flattens.
    return [...this.pieces(from, to)].join('');
  }

  /** A new base, with no window. */
  private setBase(content: string): void {
    this.chunks = [];
    for (let i = 0; i < content.length; i += this.chunkSize) this.chunks.push(content.slice(i, i + this.chunkSize));
    if (this.chunks.length === 0) this.chunks.push('');
    this.indexChunks();
    this.winStart = this.winEnd = 0;
    this.win = '';
    this.whole = content;
    this.lines = undefined;
  }

  private indexChunks(): void {
    const starts = new Array<number>(this.chunks.length);
    let at = 0;
    for (let k = 0; k < this.chunks.length; k++) {
      starts[k] = at;
      at += this.chunks[k]!.length;
    }
    this.chunkStarts = starts;
    this.baseLength = at;
  }

  /** The chunk holding base offset `i` (the last one for the end of the base). */
  private chunkAt(i: number): number {
    let lo = 0;
    let hi = this.chunks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.chunkStarts[mid]! <= i) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  private baseCharCodeAt(i: number): number {
    if (i < 0 || i >= this.baseLength) return NaN;
    const k = this.chunkAt(i);
    return this.chunks[k]!.charCodeAt(i - this.chunkStarts[k]!);
  }

  /** The base's text in [from, to), as slices of its chunks. */
  private *basePieces(from: number, to: number): Generator<string> {
    if (to <= from) return;
    for (let k = this.chunkAt(from); k < this.chunks.length && this.chunkStarts[k]! < to; k++) {
      const s = this.chunkStarts[k]!;
      const chunk = this.chunks[k]!;
      yield from <= s && s + chunk.length <= to ? chunk : chunk.slice(Math.max(0, from - s), to - s);
    }
  }

  /** The text in [from, to), as pieces in order. */
  private *pieces(from: number, to: number): Generator<string> {
    const winEnd = this.winStart + this.win.length;
    yield* this.basePieces(from, Math.min(to, this.winStart));
    if (from < winEnd && to > this.winStart) yield this.win.slice(Math.max(0, from - this.winStart), to - this.winStart);
    const shift = this.winEnd - winEnd;
    yield* this.basePieces(Math.max(from, winEnd) + shift, to + shift);
  }

  /** Folds the window into the chunks it touches; its text is then the base's. */
  private fold(): void {
    if (this.win === '' && this.winEnd === this.winStart) return;
    const ka = this.chunkAt(this.winStart);
    let kb = this.chunkAt(this.winEnd);
    const head = this.chunks[ka]!.slice(0, this.winStart - this.chunkStarts[ka]!);
    let tail = this.chunks[kb]!.slice(this.winEnd - this.chunkStarts[kb]!);
    // Small pieces join the next chunk, so that deletions do not leave many tiny chunks.
    if (head.length + this.win.length + tail.length < this.chunkSize / 4 && kb + 1 < this.chunks.length) tail += this.chunks[++kb]!;
    // join() makes a flat string: the new chunks are read without flattening.
    const merged = [head, this.win, tail].join('');
    const made: string[] = [];
    for (let i = 0; i < merged.length; i += this.chunkSize) made.push(merged.slice(i, i + this.chunkSize));
    this.chunks.splice(ka, kb - ka + 1, ...made);
    if (this.chunks.length === 0) this.chunks.push('');
    this.indexChunks();
    this.winStart = this.winEnd = 0;
    this.win = '';
  }

  get lineCount(): number {
    return this.lineStarts().length;
  }

  private lineStarts(): number[] {
    if (!this.lines) this.lines = this.lfLineStarts() ?? this.anyLineStarts();
    return this.lines;
  }

  /**
   * The line starts when no line break is a CR, counted first and then
   * written into an array of that size and some room (pushing copies a
   * growing array, and a long file's is megabytes); undefined when there
   * is a CR.
   */
  private lfLineStarts(): number[] | undefined {
    let count = 1;
    // Piece by piece: reading the whole text would flatten it.
    for (const piece of this.pieces(0, this.length)) {
      if (piece.indexOf('\r') !== -1) return undefined;
      for (let i = piece.indexOf('\n'); i !== -1; i = piece.indexOf('\n', i + 1)) count++;
    }
    // With room for the lines a paste adds: the first edit that adds lines
    // to an array of exactly its size copies all of it.
    const starts = new Array<number>(count + (count >> 4) + 64);
    starts[0] = 0;
    let n = 1;
    let offset = 0;
    for (const piece of this.pieces(0, this.length)) {
      for (let i = piece.indexOf('\n'); i !== -1; i = piece.indexOf('\n', i + 1)) starts[n++] = offset + i + 1;
      offset += piece.length;
    }
    starts.length = count;
    return starts;
  }

  /** The line starts of any text: LF, CRLF and a lone CR each end a line (the LSP's rule). */
  private anyLineStarts(): number[] {
    const starts = [0];
    let offset = 0;
    let afterCr = false;
    for (const piece of this.pieces(0, this.length)) {
      // Without a CR, the breaks are found by indexOf: reading every character is several times slower on a long file.
      if (!afterCr && piece.indexOf('\r') === -1) {
        for (let i = piece.indexOf('\n'); i !== -1; i = piece.indexOf('\n', i + 1)) starts.push(offset + i + 1);
        offset += piece.length;
        continue;
      }
      for (let i = 0; i < piece.length; i++) {
        const c = piece.charCodeAt(i);
        // CRLF is one line break, after the LF (the CR may end the previous piece).
        if (afterCr && c === 10) starts[starts.length - 1] = offset + i + 1;
        else if (isEol(c)) starts.push(offset + i + 1);
        afterCr = c === 13;
      }
      offset += piece.length;
    }
    return starts;
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
        this.setBase(change.text);
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
    if (inWindow && this.win.length + text.length <= this.chunkSize) {
      this.win = this.win.slice(0, from - this.winStart) + text + this.win.slice(to - this.winStart);
    } else {
      // Fold the window into the chunks, and open a new one here.
      this.fold();
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
      // In place: a copy of the line starts of a long file is a large allocation per keystroke.
      replaceRange(lines, s + 1, e - s, added);
    }
    const diff = text.length - (to - from);
    if (diff !== 0) {
      const out = this.lines!;
      for (let i = s + 1 + added.length; i < out.length; i++) out[i] = out[i]! + diff;
    }
  }
}
