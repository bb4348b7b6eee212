// The headings of an ordinary `.md` file (spec section 1), which decide its
// message section: CommonMark's, found by remark-parse (with remark-gfm, as
// GitHub renders the file), where the line scanner alone would miss setext
// headings, take a `# Title` inside an HTML block for one, and not know
// block quotes and list items. Only the document's own headings count: one
// inside a block quote or a list item belongs to that container.
//
// Where remark and the format's line rules meet, the format wins (spec
// section 2): a fence or an HTML comment that never closes hides nothing.
// CommonMark lets either run to the end of the document; so the text remark
// reads has the opener of each such fence, and the `<!--` of each such
// comment, blanked (same length, so every offset is kept), as found by the
// scanner that finds the cells. A lone CR is not a line break either (spec
// section 2), so remark reads a space there.
//
// remark is loaded on the first `.md` file that declares a message section,
// never for `.msg.md` files (whose cells need no headings): what it costs
// is in docs/performance.md.

import { loadMarkdownParser } from '../../base/lazy.js';
import type { Line } from './lines.js';
import { scan, isMarkerCandidate } from './scan.js';

export interface Heading {
  line: Line;
  index: number;
  level: number;
  text: string;
}

const SPACE = 32;
const LF = 10;

/** What remark reads for [from, to): unclosed openers blanked, lone CRs as spaces. */
export function remarkInput(text: string, from: number, to: number): string {
  const found = scan(text, from, to, { markers: true, keepLines: false, blocks: true, leading: undefined, stopAtMarker: undefined });
  const blanks: [number, number][] = [];
  for (const f of found.fences) if (!f.close) blanks.push([f.open.start, f.open.contentEnd]);
  for (const c of found.comments) if (!c.closed && startsBlock(text, from, c.start)) blanks.push([c.start, c.start + 4]);
  let out = text.slice(from, to);
  if (blanks.length) {
    blanks.sort((a, b) => a[0] - b[0]);
    const parts: string[] = [];
    let at = from;
    for (const [s, e] of blanks) {
      parts.push(text.slice(at, s), ' '.repeat(e - s));
      at = e;
    }
    parts.push(text.slice(at, to));
    out = parts.join('');
  }
  if (out.includes(']')) out = labelEndsKept(out);
  return out.includes('\r') ? out.replace(/\r(?!\n)/g, ' ') : out;
}

/**
 * The text with every `]` that cannot end the label of a link reference or
 * footnote definition read as `x`. micromark looks back over the whole
 * paragraph for each `]` (a run of 100,000 takes minutes), and a `]` means
 * nothing to the block structure, hence to headings, except at the end of a
 * definition's label (`[label]:` starting a line: a definition cannot be a
 * setext heading's text). Such a label is the first unescaped `]` after the
 * `[`, within 999 characters, with no `[` or blank line before it; each
 * character is looked at by at most one label, so this stays linear.
 */
function labelEndsKept(text: string): string {
  const keep = new Set<number>();
  for (const m of text.matchAll(/^ {0,3}\[/gm)) {
    const open = m.index + m[0].length - 1;
    const limit = Math.min(text.length, open + 1000);
    for (let i = open + 1; i < limit; i++) {
      const c = text.charCodeAt(i);
      if (c === 92) i++; // a backslash escapes the next character
      else if (c === 91) break;
      else if (c === 93) {
        keep.add(i);
        break;
      } else if (c === LF && /^[ \t]*\r?(?:\n|$)/.test(text.slice(i + 1, i + 3))) break;
    }
  }
  return text.replace(/\]/g, (_, at: number) => (keep.has(at) ? ']' : 'x'));
}

/** Whether `at` starts a line's content after at most three spaces (where an HTML block may start). */
function startsBlock(text: string, from: number, at: number): boolean {
  let i = at;
  while (i > from && at - i < 4 && text.charCodeAt(i - 1) === SPACE) i--;
  return at - i <= 3 && (i === from || text.charCodeAt(i - 1) === LF);
}

/**
 * The document's headings in [from, to), in order, cell markers left out
 * (a `# %%` line is an ATX heading to CommonMark). `line` runs from the
 * heading's first character to the end of its last line (a setext heading's
 * underline); `text` is its source text without the `#`s or the underline.
 */
export function documentHeadings(text: string, from: number, to: number): Heading[] {
  const root = loadMarkdownParser()(remarkInput(text, from, to));
  const headings: Heading[] = [];
  for (const node of root.children) {
    if (node.type !== 'heading') continue;
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    if (start === undefined || end === undefined) continue;
    const lineStart = lineStartBefore(text, from, from + start);
    const contentEnd = from + end;
    if (isMarkerCandidate(text, lineStart, lineEndAfter(text, contentEnd, to, false))) continue;
    const first = node.children[0]?.position?.start.offset;
    const last = node.children[node.children.length - 1]?.position?.end.offset;
    const body = first === undefined || last === undefined ? '' : text.slice(from + first, from + last).trim();
    const line: Line = { start: lineStart, contentEnd, end: lineEndAfter(text, contentEnd, to, true) };
    headings.push({ line, index: headings.length, level: node.depth, text: body });
  }
  return headings;
}

function lineStartBefore(text: string, from: number, at: number): number {
  const nl = text.lastIndexOf('\n', at - 1);
  return nl < from ? from : nl + 1;
}

/** The end of the line holding `at`: of its content, or after its line break. */
function lineEndAfter(text: string, at: number, to: number, withBreak: boolean): number {
  const nl = text.indexOf('\n', at);
  if (nl === -1 || nl >= to) return to;
  if (withBreak) return nl + 1;
  return nl > at && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
}
