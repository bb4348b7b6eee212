// The headings of a text read line by line, where remark's reading would
// cost past its budget (heading-budget.ts): CommonMark's ATX headings (one
// to six `#` after at most three spaces, then a blank or the line's end)
// outside fenced code and outside HTML comments that start a line, as the
// scanner finds them. Containers and setext headings are not read: `> # a`
// is no heading (its line does not start with `#`), a `# a` line inside a
// list item is one, a `Title` line over `===` is not.

import { blockLineStart, HASH, SPACE, TAB } from './scan-lines.js';
import type { BlockHeading } from './heading-blocks.js';
import type { ScanResult } from './scan.js';

/** The ATX heading on the line [start, end) of `input`, or undefined. */
export function atxHeading(input: string, start: number, end: number): BlockHeading | undefined {
  let i = start;
  while (i < end && i - start < 3 && input.charCodeAt(i) === SPACE) i++;
  const open = i;
  while (i < end && input.charCodeAt(i) === HASH) i++;
  const level = i - open;
  if (level < 1 || level > 6 || (i < end && !isBlank(input.charCodeAt(i)))) return undefined;
  let textStart = i;
  while (textStart < end && isBlank(input.charCodeAt(textStart))) textStart++;
  let textEnd = end;
  while (textEnd > textStart && isBlank(input.charCodeAt(textEnd - 1))) textEnd--;
  // A closing run of `#`: the whole content, or after a blank.
  let close = textEnd;
  while (close > textStart && input.charCodeAt(close - 1) === HASH) close--;
  if (close === textStart) textEnd = textStart;
  else if (close < textEnd && isBlank(input.charCodeAt(close - 1))) {
    textEnd = close;
    while (textEnd > textStart && isBlank(input.charCodeAt(textEnd - 1))) textEnd--;
  }
  const empty = textStart === textEnd;
  return { start: open, end, level, textStart: empty ? -1 : textStart, textEnd: empty ? -1 : textEnd };
}

function isBlank(c: number): boolean {
  return c === SPACE || c === TAB;
}

/**
 * The ATX headings of `input` from `at` to its end, read line by line
 * (offsets in `input`, which starts at `from` of the text `found` scanned);
 * lines of closed fences and of closed comments that start a line hide theirs.
 */
export function lineHeadings(input: string, at: number, from: number, found: ScanResult): BlockHeading[] {
  const hidden: [number, number][] = [];
  for (const f of found.fences) if (f.close) hidden.push([f.open.start - from, f.close.end - from]);
  for (const c of found.comments) if (c.closed && blockLineStart(input, 0, c.start - from) !== -1) hidden.push([c.start - from, c.end - from]);
  hidden.sort((a, b) => a[0] - b[0]);
  const headings: BlockHeading[] = [];
  let h = 0;
  for (let start = at; start < input.length; ) {
    const nl = input.indexOf('\n', start);
    const next = nl === -1 ? input.length : nl + 1;
    const end = nl === -1 ? input.length : nl > start && input.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
    while (h < hidden.length && hidden[h]![1] <= start) h++;
    const inside = h < hidden.length && hidden[h]![0] <= start;
    const heading = inside ? undefined : atxHeading(input, start, end);
    if (heading) headings.push(heading);
    start = next;
  }
  return headings;
}
