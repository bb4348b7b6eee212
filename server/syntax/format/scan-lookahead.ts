// Look-ahead for the block scanner: where a fence, comment or CDATA section
// closes, and whether a position is inside inline code. Each answers many
// questions about one text in time linear in the text, so that a file of
// many unclosed openers stays linear.

import { BACKTICK, blockLineStart, SPACE, TAB, TILDE } from './scan-lines.js';

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
  let e = j;
  while (e < to && (text.charCodeAt(e) === SPACE || text.charCodeAt(e) === TAB)) e++;
  const c = text.charCodeAt(e);
  // A lone CR or U+2028 is not a line break here.
  const lineEnd = e >= to || c === 10 || (c === 13 && text.charCodeAt(e + 1) === 10);
  return lineEnd ? blockLineStart(text, from, i) : -1;
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
 * Whether positions on a line lie inside an inline code span, as CommonMark
 * reads one: a backtick string opens a span that the next backtick string
 * of the same length closes (``` ``<tool>`` ``` is code); a string no later
 * one matches is literal backticks, and a backtick after a backslash (outside
 * a span) is literal. Spans are read within one line, as the scanner reads
 * everything else (spec section 8: a `<tool>` on a line outside code spans).
 * The spans of a line are found once, in one pass (a queue per length finds
 * each closer), and positions are asked in increasing order along a line, so
 * a line of many `<` and many backtick strings stays linear.
 */
export class InlineCode {
  private line = -1;
  /** The line's spans, [start, end) pairs in order. */
  private spans: number[] = [];
  private next = 0;
  private pos = 0;
  constructor(private readonly text: string) {}
  at(lineStart: number, p: number): boolean {
    if (lineStart !== this.line) {
      this.line = lineStart;
      this.spans = codeSpans(this.text, lineStart);
      this.next = 0;
    } else if (p < this.pos) this.next = 0;
    this.pos = p;
    const spans = this.spans;
    while (this.next < spans.length && spans[this.next + 1]! <= p) this.next += 2;
    return this.next < spans.length && spans[this.next]! <= p;
  }
}

const BACKSLASH = 92;

/** The code spans of the line starting at `lineStart`, as [start, end) pairs. */
export function codeSpans(text: string, lineStart: number): number[] {
  let lineEnd = text.indexOf('\n', lineStart);
  if (lineEnd === -1) lineEnd = text.length;
  const starts: number[] = [];
  const lengths: number[] = [];
  for (let i = text.indexOf('`', lineStart); i !== -1 && i < lineEnd; ) {
    let j = i + 1;
    while (j < lineEnd && text.charCodeAt(j) === BACKTICK) j++;
    starts.push(i);
    lengths.push(j - i);
    i = text.indexOf('`', j);
  }
  const spans: number[] = [];
  if (starts.length < 2) return spans;
  // Per length, the indices of the strings of that length, and how far each queue is read.
  const byLength = new Map<number, number[]>();
  for (let k = 0; k < starts.length; k++) {
    const list = byLength.get(lengths[k]!);
    if (list) list.push(k);
    else byLength.set(lengths[k]!, [k]);
  }
  const read = new Map<number, number>();
  for (let k = 0; k < starts.length; k++) {
    let open = starts[k]!;
    let length = lengths[k]!;
    // An odd run of backslashes before it escapes its first backtick.
    let b = open;
    while (b > lineStart && text.charCodeAt(b - 1) === BACKSLASH) b--;
    if ((open - b) % 2 === 1) {
      open++;
      length--;
      if (length === 0) continue;
    }
    const queue = byLength.get(length);
    if (!queue) continue;
    let q = read.get(length) ?? 0;
    while (q < queue.length && queue[q]! <= k) q++;
    read.set(length, q);
    if (q === queue.length) continue;
    const close = queue[q]!;
    spans.push(open, starts[close]! + length);
    k = close;
  }
  return spans;
}
