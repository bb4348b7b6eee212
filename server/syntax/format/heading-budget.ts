// What remark may read of a text: micromark's work is linear in the text
// but for two shapes, found by timing it on generated documents (issue 46).
// A line in many containers (`- - - … a`, or a list nested a thousand deep
// and continued by indentation) costs it more than linear in their number
// (remark's tree then overflowed the stack). A lazy line (a paragraph's
// line that leaves out its container's `>` or indentation) makes it walk
// back over the paragraph's lines so far: a quoted paragraph of n lazy lines
// costs n². Both are read here line by line, by rules that count at least
// what micromark does; past a budget, the line-based reading takes over
// (headings.ts).

import { SPACE, TAB } from './scan-lines.js';

/** The containers that may be open at a line, at most. */
export const MAX_DEPTH = 32;
/** The lines a paragraph's lazy lines make micromark walk back over, at most, in one run of lines. */
export const MAX_LAZY_WORK = 250_000;

const GT = 62;

/** A line's container prefix, as far as counting needs it. */
interface Prefix {
  /** Block quote markers, list markers and footnote labels (`[^a]:`) in the prefix. */
  markers: number;
  /** Columns of blanks in the prefix, and of those before its first marker. */
  blankColumns: number;
  leadingColumns: number;
  /** Where the prefix ends: the line's first character that is none of these. */
  end: number;
  /** Whether the last marker is a bullet (`-`, `+`, `*`) followed by a blank and content. */
  bulletItem: boolean;
}

const prefix: Prefix = { markers: 0, blankColumns: 0, leadingColumns: 0, end: 0, bulletItem: false };

/** The container prefix of the line [start, end): what may open or continue a container. */
function readPrefix(text: string, start: number, end: number): Prefix {
  let i = start;
  let column = 0;
  let bullet = false;
  prefix.markers = 0;
  prefix.blankColumns = 0;
  prefix.leadingColumns = 0;
  for (;;) {
    const before = column;
    while (i < end) {
      const c = text.charCodeAt(i);
      if (c === SPACE) column++;
      else if (c === TAB) column += 4 - (column % 4);
      else break;
      i++;
    }
    prefix.blankColumns += column - before;
    if (before === 0) prefix.leadingColumns = column;
    if (i >= end) break;
    const c = text.charCodeAt(i);
    let next = -1;
    if (c === GT) next = i + 1;
    else if (c === 45 || c === 43 || c === 42) next = blankOrEnd(text, i + 1, end) ? i + 1 : -1;
    else if (c >= 48 && c <= 57) {
      let j = i;
      while (j < end && j - i < 9 && text.charCodeAt(j) >= 48 && text.charCodeAt(j) <= 57) j++;
      const d = text.charCodeAt(j);
      next = (d === 46 || d === 41) && blankOrEnd(text, j + 1, end) ? j + 1 : -1;
    } else if (c === 91 && text.charCodeAt(i + 1) === 94) next = footnoteLabelEnd(text, i + 2, end);
    if (next === -1) break;
    prefix.markers++;
    bullet = c === 45 || c === 43 || c === 42;
    column += next - i;
    i = next;
  }
  prefix.end = i;
  prefix.bulletItem = bullet && !blankOrEnd(text, i, end);
  return prefix;
}

/** Whether `at` is a blank or the line's end (a CR before its LF included). */
function blankOrEnd(text: string, at: number, end: number): boolean {
  const c = text.charCodeAt(at);
  return at >= end || c === SPACE || c === TAB || (c === 13 && at === end - 1);
}

/** After `[^`: the offset after the label's `]:`, or -1 (a label has no blank or `[`; a backslash escapes). */
function footnoteLabelEnd(text: string, at: number, end: number): number {
  for (let i = at; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 92) i++;
    else if (c === SPACE || c === TAB || c === 91) return -1;
    else if (c === 93) return text.charCodeAt(i + 1) === 58 ? i + 2 : -1;
  }
  return -1;
}

/** Where the budget is spent: the line past it, and the start of its run of lines (lines between blank lines). */
export interface Overrun {
  runStart: number;
  line: number;
}

/**
 * Where remark's reading of [start, end) of `input` must stop, read from
 * `start`, where no container is open: the first line where more than
 * MAX_DEPTH containers may be open, or that brings its run's lazy work past
 * MAX_LAZY_WORK; undefined when no line does.
 *
 * The containers open after a line are those it continues and those it
 * opens: a continued one takes a `>` or two columns of blanks at least (a
 * list item's content is two columns in, a footnote definition's four), an
 * opened one a marker, and a lazy line leaves them as they were; after a
 * blank line, a line that starts at the first column continues none. Each
 * line while a container may be open counts the lines of its paragraph so
 * far as lazy work (a paragraph starts at the run's start or at a bullet
 * item).
 */
export function budgetEnd(input: string, start: number, end: number): Overrun | undefined {
  let runStart = start;
  let afterBlank = true;
  let open = 0;
  let lazyWork = 0;
  let paragraphLines = 0;
  for (let at = start; at < end; ) {
    const nl = input.indexOf('\n', at);
    const lineEnd = nl === -1 || nl >= end ? end : nl;
    const next = lineEnd === end ? end : nl + 1;
    const p = readPrefix(input, at, lineEnd);
    if (p.markers === 0 && blankOrEnd(input, p.end, lineEnd)) {
      afterBlank = true;
      runStart = next;
      lazyWork = 0;
      paragraphLines = 0;
      at = next;
      continue;
    }
    open = afterBlank && p.leadingColumns === 0 ? p.markers : Math.max(open, p.markers + Math.min(p.blankColumns >> 1, open));
    afterBlank = false;
    if (p.bulletItem) paragraphLines = 0;
    if (open > 0) lazyWork += paragraphLines;
    if (open > MAX_DEPTH || lazyWork > MAX_LAZY_WORK) return { runStart, line: at };
    paragraphLines++;
    at = next;
  }
  return undefined;
}
