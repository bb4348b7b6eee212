import type { Position, Range } from '../../base/text.js';
import { addFrom } from '../../base/lists.js';
import { Memo, MEMO } from '../../base/memo.js';

const NO_LINES: readonly number[] = [];
/** How many lines past the previous edit's a next edit still folds into it. */
const NEAR = 64;
/** The most lines an index keeps beside its base before it makes its own. */
const MAX_INS = 4096;

/**
 * Maps UTF-16 offsets to 0-based line/character positions and back.
 * Line breaks are LF or CRLF; a lone CR is not a line break (as in the
 * line-based spec), so it stays part of its line's content.
 */
/** The line starts an index made by an edit makes on first use (see `starts`): a memo slot, since an index is not written after it is made. */
const MADE = new Memo<LineIndex, Int32Array>('lines');

export class LineIndex {
  /** @internal Memo slots (base/memo.ts). */
  [MEMO]: unknown[] | undefined = undefined;
  /** Typed: copied and moved with memcpy and one small loop (a first edit far from the last one makes it, see `starts`). */
  private readonly given: Int32Array | undefined;
  /**
   * An index made by an edit from another (`spliced`): lines [0, cut) start
   * where `base` says, then the lines the edit made (`ins`), then the lines
   * of `base` from `skip` on, moved by `delta`. Typing, even across lines,
   * then costs no copy of a long file's line starts per keystroke: the next
   * edit near the same place folds into `ins`.
   */
  private readonly base: Int32Array | undefined;
  private readonly cut: number;
  private readonly ins: readonly number[];
  private readonly skip: number;
  private readonly delta: number;

  constructor(
    readonly text: string,
    starts?: Int32Array,
    spliced?: { base: Int32Array; cut: number; ins: readonly number[]; skip: number; delta: number },
  ) {
    this.base = spliced?.base;
    this.cut = spliced?.cut ?? 0;
    this.ins = spliced?.ins ?? NO_LINES;
    this.skip = spliced?.skip ?? 0;
    this.delta = spliced?.delta ?? 0;
    this.given = starts || spliced ? starts : lineStartsOf(text);
  }

  /** The line starts, when given or made. */
  private get own(): Int32Array | undefined {
    return this.given ?? MADE.get(this);
  }

  /** Offset of the first character of each line. */
  get starts(): Int32Array {
    const own = this.own;
    if (own) return own;
    // Made when an edit lands far from the last one (the first keystroke in
    // a new place): block copies and one loop in a small function, not an
    // array filled element by element (docs/performance.md).
    const base = this.base!;
    const all = new Int32Array(this.lineCount);
    all.set(base.subarray(0, this.cut));
    all.set(this.ins, this.cut);
    const moved = this.cut + this.ins.length;
    all.set(base.subarray(this.skip), moved);
    if (this.delta !== 0) addFrom(all, moved, this.delta);
    MADE.set(this, all);
    return all;
  }

  private startOf(line: number): number {
    const own = this.own;
    if (own) return own[line]!;
    if (line < this.cut) return this.base![line]!;
    const i = line - this.cut;
    return i < this.ins.length ? this.ins[i]! : this.base![i - this.ins.length + this.skip]! + this.delta;
  }

  /**
   * The index of a text that differs from this one's only in
   * [editStart, oldEnd), now [editStart, newEnd): line starts before the edit
   * are kept, those after it shifted, and only the edited range is searched.
   */
  edited(text: string, editStart: number, oldEnd: number, newEnd: number): LineIndex {
    const made: number[] = [];
    for (let i = text.indexOf('\n', editStart); i !== -1 && i < newEnd; i = text.indexOf('\n', i + 1)) made.push(i + 1);
    return this.spliced(editStart, oldEnd, made, newEnd - oldEnd, text);
  }

  /**
   * The index after [start, oldEnd) was replaced by `inserted`, line breaks
   * allowed. Reads `inserted`, not the new text (which an editor may hold
   * as a rope that reading would flatten).
   */
  replaced(start: number, oldEnd: number, inserted: string, text: string): LineIndex {
    const made: number[] = [];
    for (let i = inserted.indexOf('\n'); i !== -1; i = inserted.indexOf('\n', i + 1)) made.push(start + i + 1);
    return this.spliced(start, oldEnd, made, inserted.length - (oldEnd - start), text);
  }

  /**
   * The index after an edit at `at` that added or removed no line break:
   * the lines after the edited one move by `delta`. Reads nothing of `text`.
   */
  moved(at: number, delta: number, text: string): LineIndex {
    return this.spliced(at, delta < 0 ? at - delta : at, NO_LINES, delta, text);
  }

  /**
   * The index after [start, oldEnd) became text with line starts `made`
   * (absolute, new offsets) and a length changed by `delta`: the lines
   * starting in (start, oldEnd] are gone, those after move by `delta`.
   */
  private spliced(start: number, oldEnd: number, made: readonly number[], delta: number, text: string): LineIndex {
    const a = this.lineOf(start) + 1;
    const b = this.lineOf(oldEnd) + 1;
    // Near the lines the previous edit made: fold this one in with them.
    if (!this.own && a >= this.cut && a <= this.cut + this.ins.length + NEAR && this.ins.length < MAX_INS) {
      const ins: number[] = [];
      for (let line = this.cut; line < a; line++) ins.push(this.startOf(line));
      for (let k = 0; k < made.length; k++) ins.push(made[k]!);
      const insEnd = this.cut + this.ins.length;
      for (let line = b; line < insEnd; line++) ins.push(this.ins[line - this.cut]! + delta);
      const skip = b > insEnd ? this.skip + (b - insEnd) : this.skip;
      return new LineIndex(text, undefined, { base: this.base!, cut: this.cut, ins, skip, delta: this.delta + delta });
    }
    return new LineIndex(text, undefined, { base: this.starts, cut: a, ins: made.slice(), skip: b, delta });
  }

  get lineCount(): number {
    return this.own ? this.own.length : this.cut + this.ins.length + this.base!.length - this.skip;
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

/** The line of `text` that starts at `start` (LF or CRLF ends it); a loop passes one `line` to move along. */
export function lineAt(text: string, start: number, line: Line = { start: 0, contentEnd: 0, end: 0 }): Line {
  const nl = text.indexOf('\n', start);
  line.start = start;
  if (nl === -1) {
    line.contentEnd = line.end = text.length;
  } else {
    line.end = nl + 1;
    line.contentEnd = nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
  }
  return line;
}

/** Splits text into lines (LF or CRLF). The last line may be empty. */
export function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  for (let start = 0; start < text.length; ) {
    const line = lineAt(text, start);
    lines.push(line);
    start = line.end;
  }
  return lines;
}

/** The offset of each line's first character (after LF; CRLF ends in LF), counted first. */
export function lineStartsOf(text: string): Int32Array {
  let count = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count++;
  const starts = new Int32Array(count);
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts[n++] = i + 1;
  return starts;
}
