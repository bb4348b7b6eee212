// Where remark's reading of a text may start afresh, and the parts of a text
// that cannot hold a heading, read line by line (headings.ts).
//
// After a blank line, a line that starts with a letter in the first column
// continues no container (a block quote needs its `>`, a list item or a
// footnote definition its indentation, and a paragraph ended at the blank
// line: the line is not lazy) and no block but fenced code or an HTML block
// of the first five kinds (the others end at a blank line, indented code at
// a line that is not indented). Such a line is a candidate; remark's reading
// says whether one of those blocks runs on over it.

import { isMarkerCandidate, SPACE, TAB } from './scan-lines.js';

const LF = 10;
const CR = 13;

function isLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/** Whether the line that ends with the LF at `nl` holds only blanks. */
function blankLineBefore(input: string, nl: number): boolean {
  let i = nl - 1;
  if (i >= 0 && input.charCodeAt(i) === CR) i--;
  while (i >= 0) {
    const c = input.charCodeAt(i);
    if (c === LF) return true;
    if (c !== SPACE && c !== TAB) return false;
    i--;
  }
  return true;
}

/** The first candidate at or after `at`, or -1. */
export function nextCandidate(input: string, at: number): number {
  for (let nl = input.indexOf('\n', Math.max(at, 1) - 1); nl !== -1; nl = input.indexOf('\n', nl + 1)) {
    if (nl + 1 >= at && isLetter(input.charCodeAt(nl + 1)) && blankLineBefore(input, nl)) return nl + 1;
  }
  return -1;
}

/** The candidates in [start, end), ascending. */
export function candidatesIn(input: string, start: number, end: number): number[] {
  const found: number[] = [];
  for (let c = nextCandidate(input, start); c !== -1 && c < end; c = nextCandidate(input, c + 1)) found.push(c);
  return found;
}

/**
 * Whether no line of [start, end) could be a heading (its first character
 * other than a blank is `#`, or it is a run of `=` or of `-`) or open fenced
 * code or an HTML block (its first such character is a backtick, `~` or
 * `<`). Such lines are found at any indentation and in any container: more
 * than CommonMark's top-level ones, never fewer. A cell marker line is let
 * be: where no fenced code or HTML block can hide it, it is a heading that
 * is left out (headings.ts), and its place in the blocks decides no other
 * heading but a setext one, whose underline is such a line.
 */
export function quietRegion(input: string, start: number, end: number): boolean {
  for (let at = start; at < end; ) {
    const nl = input.indexOf('\n', at);
    const next = nl === -1 || nl >= end ? end : nl + 1;
    let i = at;
    while (i < next && (input.charCodeAt(i) === SPACE || input.charCodeAt(i) === TAB)) i++;
    const c = input.charCodeAt(i);
    if (c === 35 && !isMarkerCandidate(input, at, nl === -1 || nl >= end ? end : nl)) return false;
    if (c === 96 || c === 126 || c === 60) return false;
    if (c === 61 || c === 45) {
      let j = i;
      while (j < next && input.charCodeAt(j) === c) j++;
      while (j < next && (input.charCodeAt(j) === SPACE || input.charCodeAt(j) === TAB || input.charCodeAt(j) === CR)) j++;
      if (j === next || input.charCodeAt(j) === LF) return false;
    }
    at = next;
  }
  return true;
}
