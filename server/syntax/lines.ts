import type { Position, Range } from '../base/text.js';

/**
 * Maps UTF-16 offsets to 0-based line/character positions and back.
 * Line breaks are LF or CRLF; a lone CR is not a line break (as in the
 * line-based spec), so it stays part of its line's content.
 */
export class LineIndex {
  private own: number[] | undefined;
  /**
   * An index made by `edited` after typing within one line: the line starts
   * of `base`, those from line `from` on moved by `delta`. Typing in a long
   * file then costs no copy of its line starts per keystroke.
   */
  private readonly base: number[] | undefined;
  private readonly from: number;
  private readonly delta: number;

  constructor(
    readonly text: string,
    starts?: number[],
    moved?: { base: number[]; from: number; delta: number },
  ) {
    this.base = moved?.base;
    this.from = moved?.from ?? 0;
    this.delta = moved?.delta ?? 0;
    if (starts || moved) {
      this.own = starts;
      return;
    }
    const all = [0];
    let i = text.indexOf('\n');
    while (i !== -1) {
      all.push(i + 1);
      i = text.indexOf('\n', i + 1);
    }
    this.own = all;
  }

  /** Offset of the first character of each line. */
  get starts(): number[] {
    if (!this.own) {
      const base = this.base!;
      const all = base.slice();
      for (let k = this.from; k < all.length; k++) all[k] = all[k]! + this.delta;
      this.own = all;
    }
    return this.own;
  }

  private startOf(line: number): number {
    if (this.own) return this.own[line]!;
    return line >= this.from ? this.base![line]! + this.delta : this.base![line]!;
  }

  /**
   * The index of a text that differs from this one's only in
   * [editStart, oldEnd), now [editStart, newEnd): line starts before the edit
   * are kept, those after it shifted, and only the edited range is searched.
   */
  edited(text: string, editStart: number, oldEnd: number, newEnd: number): LineIndex {
    const delta = newEnd - oldEnd;
    const oldText = this.text;
    if (oldText.lastIndexOf('\n', oldEnd - 1) < editStart && text.lastIndexOf('\n', newEnd - 1) < editStart && oldEnd < oldText.length) {
      // No line break added or removed: the lines after the edited one move.
      const from = this.lineOf(editStart) + 1;
      if (!this.own && this.from === from) return new LineIndex(text, undefined, { base: this.base!, from, delta: this.delta + delta });
      // An edit on another line than the last: this index's starts made once (one copy), then moved lazily.
      return new LineIndex(text, undefined, { base: this.starts, from, delta });
    }
    const old = this.starts;
    const starts: number[] = [];
    let k = 0;
    while (k < old.length && old[k]! <= editStart) starts.push(old[k++]!);
    for (let i = text.indexOf('\n', editStart); i !== -1 && i < newEnd; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    while (k < old.length && old[k]! <= oldEnd) k++;
    for (; k < old.length; k++) starts.push(old[k]! + delta);
    return new LineIndex(text, starts);
  }

  /**
   * The index after [start, oldEnd) was replaced by `inserted`, line breaks
   * allowed. Reads `inserted`, not the new text (which an editor may hold
   * as a rope that reading would flatten).
   */
  replaced(start: number, oldEnd: number, inserted: string, text: string): LineIndex {
    const old = this.starts;
    const delta = inserted.length - (oldEnd - start);
    const starts: number[] = [];
    let k = 0;
    while (k < old.length && old[k]! <= start) starts.push(old[k++]!);
    for (let i = inserted.indexOf('\n'); i !== -1; i = inserted.indexOf('\n', i + 1)) starts.push(start + i + 1);
    while (k < old.length && old[k]! <= oldEnd) k++;
    for (; k < old.length; k++) starts.push(old[k]! + delta);
    return new LineIndex(text, starts);
  }

  /**
   * The index after an edit at `at` that added or removed no line break:
   * the lines after the edited one move by `delta`. Reads nothing of `text`.
   */
  moved(at: number, delta: number, text: string): LineIndex {
    const from = this.lineOf(at) + 1;
    if (!this.own && this.from === from) return new LineIndex(text, undefined, { base: this.base!, from, delta: this.delta + delta });
    return new LineIndex(text, undefined, { base: this.starts, from, delta });
  }

  get lineCount(): number {
    return this.own ? this.own.length : this.base!.length;
  }

  lineOf(offset: number): number {
    let lo = 0;
    let hi = this.lineCount - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.startOf(mid) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  position(offset: number): Position {
    const o = Math.max(0, Math.min(offset, this.text.length));
    const line = this.lineOf(o);
    return { line, character: o - this.startOf(line), offset: o };
  }

  range(start: number, end: number): Range {
    return { start: this.position(start), end: this.position(end) };
  }

  /** Offset of a line/character, clamped to the document and to the line's end. */
  offsetAt(line: number, character: number): number {
    if (line < 0) return 0;
    if (line >= this.lineCount) return this.text.length;
    const start = this.startOf(line);
    const end = this.lineContentEnd(line);
    return Math.min(start + Math.max(0, character), end);
  }

  /** End of a line's content, before its CRLF or LF. */
  lineContentEnd(line: number): number {
    const next = line + 1 < this.lineCount ? this.startOf(line + 1) - 1 : this.text.length;
    if (next > this.startOf(line) && this.text.charCodeAt(next - 1) === 13 && next < this.text.length) return next - 1;
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
