// Look-ahead for the block scanner: where a fence, comment or CDATA section
// closes, and whether a position is inside inline code. Each answers many
// questions about one text in time linear in the text, so that a file of
// many unclosed openers stays linear.

import { BACKTICK, SPACE, TAB, TILDE } from './scan-lines.js';

/** The end of the run of fence characters that starts at `i`. */
function runEnd(text: string, i: number, to: number, ch: number): number {
  let j = i + 3;
  while (j < to && text.charCodeAt(j) === ch) j++;
  return j;
}

/**
 * The start of the closer line whose run is [i, j): up to three spaces
 * before it at a line start, only blanks after it to the line end; -1 when
 * the run is not on such a line.
 */
function closerStart(text: string, from: number, to: number, i: number, j: number): number {
  let start = i;
  while (start > from && i - start < 4 && text.charCodeAt(start - 1) === SPACE) start--;
  let e = j;
  while (e < to && (text.charCodeAt(e) === SPACE || text.charCodeAt(e) === TAB)) e++;
  const c = text.charCodeAt(e);
  // A lone CR or U+2028 is not a line break here.
  const lineEnd = e >= to || c === 10 || (c === 13 && text.charCodeAt(e + 1) === 10);
  return i - start <= 3 && (start === from || text.charCodeAt(start - 1) === 10) && lineEnd ? start : -1;
}

/** How far `CloserIndex.find` looks before it indexes the whole region. */
const NEARBY = 65536;

/**
 * Finds, for fence openers, the first later closer line of the same
 * character that is at least as long. Built lazily (one regex pass) on the
 * first opener; next-greater jumps keep many unclosable openers linear.
 */
export class CloserIndex {
  private built = false;
  private readonly starts: number[][] = [[], []];
  private readonly lengths: number[][] = [[], []];
  private readonly nextGreater: Int32Array[] = [];

  constructor(
    private readonly text: string,
    private readonly from: number,
    private readonly to: number,
    /** How far `find` looks before it indexes the region (tests set 0). */
    private readonly reach = NEARBY,
  ) {}

  /** The closer `find` would give, when it lies within `reach` characters; undefined when none does. */
  private nearby(char: '`' | '~', length: number, after: number): number | undefined {
    const { text, from, to } = this;
    const fence = char === '`' ? '```' : '~~~';
    const ch = char === '`' ? BACKTICK : TILDE;
    const limit = Math.min(to, after + this.reach);
    // The same closer lines as `build` finds, the first one long enough.
    for (let i = text.indexOf(fence, after + 1); i !== -1 && i < limit; ) {
      const j = runEnd(text, i, to, ch);
      const start = closerStart(text, from, to, i, j);
      if (start > after && j - i >= length) return start;
      i = j < to ? text.indexOf(fence, j) : -1;
    }
    return undefined;
  }

  private build(): void {
    this.built = true;
    const { text, from, to } = this;
    // Closer lines: up to three spaces, a run of ``` or ~~~, blanks, the line
    // end. Found with indexOf, V8's fast substring search: a multiline
    // regular expression over a long text is slower.
    for (let k = 0; k < 2; k++) {
      const fence = k === 0 ? '```' : '~~~';
      const ch = k === 0 ? BACKTICK : TILDE;
      for (let i = text.indexOf(fence, from); i !== -1 && i < to; ) {
        const j = runEnd(text, i, to, ch);
        const start = closerStart(text, from, to, i, j);
        if (start !== -1) {
          this.starts[k]!.push(start);
          this.lengths[k]!.push(j - i);
        }
        i = j < to ? text.indexOf(fence, j) : -1;
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
    if (!this.built) {
      // Most fences close a few lines later: look there first, and index the
      // whole region only for one that does not (re-scanning a few cells of
      // a long file after a keystroke then reads only those cells).
      const near = this.nearby(char, length, after);
      if (near !== undefined) return near;
      this.build();
    }
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
export class LaterIndex {
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
export class InlineCode {
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

