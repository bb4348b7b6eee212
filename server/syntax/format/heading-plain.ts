// The headings of a text whose blocks need no CommonMark reader: where no
// line could be read differently by CommonMark and by the line rules, the
// headings are the ATX lines outside fenced code and HTML comments, as the
// scanner finds those (heading-lines.ts). remark's reading costs about a
// microsecond a character (micromark, blocks only): the 200 ordinary .md
// files of the benchmark's tree took 0.8 s of its 3.2 s (docs/performance.md).
//
// What would make the readings differ, and so sends the text to remark:
// - a `#` line, fence line or comment indented at all: inside a list item or
//   footnote definition it belongs to that container, at the top level not;
// - a run of `=` or `-` under a line that is not blank: a setext underline;
// - a line that starts with `<` (an HTML block of the sixth or seventh kind,
//   which a blank line ends) followed before the next blank line by a `#`
//   line, a fence or a comment: inside the block, those are its text;
// - an HTML block of the first five kinds (`<script`, `<pre`, `<style`,
//   `<textarea`, `<!--` where the scanner found no comment, `<?`, `<!X`,
//   `<![CDATA[`), which a blank line does not end;
// - a fence line where the scanner read none (inside a CDATA section), and a
//   comment that spans lines from after text (CommonMark reads its lines as
//   blocks), or one that starts `<!-->` or `<!--->` (an empty comment to
//   CommonMark).
// Block quotes, list items, footnote definitions, tables and paragraphs end
// before a `#` line or fence at the first column, so they change nothing else.

import type { BlockHeading } from './heading-blocks.js';
import { atxHeading } from './heading-lines.js';
import { nextCandidate } from './heading-resets.js';
import { blockLineStart, fenceOpener, SPACE, TAB } from './scan-lines.js';
import type { ScanResult } from './scan.js';

const HASH = 35;
const LT = 60;
const BACKTICK = 96;
const TILDE = 126;
const EQUALS = 61;
const DASH = 45;

/** Blocks of the first, third, fourth and fifth kind: `<` then these start one that only its own closer ends. */
const LONG_HTML = /^(?:script|pre|style|textarea)(?:[\s>]|$)|^\?|^!(?:[A-Za-z]|\[CDATA\[|--)/i;

/** Where a closed fence or a comment starting a line lies, in `input`'s offsets. */
interface Hidden {
  start: number;
  end: number;
}

/**
 * The headings of `input` (remark's input for the text `found` scanned,
 * which starts at `from`) and where remark's reading could start afresh
 * (offsets in `input`), as remark would find them; undefined when a line
 * could make remark's reading differ from the line rules' (above).
 */
export function plainHeadings(input: string, from: number, found: ScanResult): { headings: BlockHeading[]; resets: number[] } | undefined {
  const hidden: Hidden[] = [];
  for (const f of found.fences) if (f.close) hidden.push({ start: f.open.start - from, end: f.close.end - from });
  for (const c of found.comments) {
    if (!c.closed) continue;
    // `<!-->` and `<!--->` end CommonMark's comment where they stand; the scanner's goes on to the next `-->`.
    if (/^<!---?>/.test(input.slice(c.start - from, c.start - from + 6))) return undefined;
    // A comment after text on its line is inline: CommonMark reads the lines it spans as blocks, the scanner as a comment.
    if (blockLineStart(input, 0, c.start - from) !== -1) hidden.push({ start: c.start - from, end: c.end - from });
    else if (input.indexOf('\n', c.start - from) < c.end - from) return undefined;
  }
  hidden.sort((a, b) => a.start - b.start);
  const headings: BlockHeading[] = [];
  let h = 0;
  let blankBefore = true;
  let inHtml = false;
  for (let start = 0; start < input.length; ) {
    const nl = input.indexOf('\n', start);
    const next = nl === -1 ? input.length : nl + 1;
    const end = nl === -1 ? input.length : nl > start && input.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
    let i = start;
    while (i < end && (input.charCodeAt(i) === SPACE || input.charCodeAt(i) === TAB)) i++;
    if (h < hidden.length && hidden[h]!.start < next) {
      // A fence or a comment: at the first column and outside an HTML block, CommonMark's too.
      if (hidden[h]!.start !== start || i !== start || inHtml) return undefined;
      start = lineAfter(input, hidden[h]!.end);
      while (h < hidden.length && hidden[h]!.start < start) h++;
      blankBefore = false;
      continue;
    }
    const c = input.charCodeAt(i);
    if (i === end) {
      blankBefore = true;
      inHtml = false;
      start = next;
      continue;
    }
    if (i !== start && (c === HASH || c === BACKTICK || c === TILDE)) return undefined;
    if (c === HASH) {
      if (inHtml) return undefined;
      const heading = atxHeading(input, start, end);
      if (heading) headings.push(heading);
    } else if ((c === BACKTICK || c === TILDE) && fenceOpener(input, start, end)) {
      // A fence the scanner did not find closed is blanked unless it lies where the scanner reads no fence (a CDATA section).
      return undefined;
    } else if (c === LT) {
      if (LONG_HTML.test(input.slice(i + 1, i + 12))) return undefined;
      inHtml = true;
    } else if ((c === EQUALS || c === DASH) && !blankBefore && onlyRun(input, i, end, c)) {
      return undefined;
    }
    blankBefore = false;
    start = next;
  }
  return { headings, resets: resetsOutside(input, hidden) };
}

/** The start of the line after the one holding `at - 1` (where a region that ends at `at` leaves off). */
function lineAfter(input: string, at: number): number {
  const nl = input.indexOf('\n', at - 1);
  return nl === -1 ? input.length : nl + 1;
}

/** Whether [i, end) is a run of `c` then blanks. */
function onlyRun(input: string, i: number, end: number, c: number): boolean {
  let j = i;
  while (j < end && input.charCodeAt(j) === c) j++;
  while (j < end && (input.charCodeAt(j) === SPACE || input.charCodeAt(j) === TAB)) j++;
  return j === end;
}

/** The candidates (heading-resets.ts) that no fence or comment holds: with no long HTML block, remark starts afresh at each. */
function resetsOutside(input: string, hidden: readonly Hidden[]): number[] {
  const resets: number[] = [];
  let h = 0;
  for (let c = nextCandidate(input, 1); c !== -1; c = nextCandidate(input, c + 1)) {
    while (h < hidden.length && hidden[h]!.end <= c) h++;
    if (h < hidden.length && hidden[h]!.start <= c) continue;
    resets.push(c);
  }
  return resets;
}
