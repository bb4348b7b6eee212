// The headings of an ordinary `.md` file decide its message section (spec
// section 1). They are CommonMark's, so remark finds them: the line scanner
// knows no setext heading, HTML block, block quote or list item. Where remark
// and the format's line rules meet, the format wins (spec section 2): remark
// reads the text as the scanner sees it. docs/architecture.md, "Markdown
// where Markdown is prose", says what remark is given and when it is loaded.

import { loadMarkdownParser } from '../../base/lazy.js';
import type { Line } from './lines.js';
import { blockLineStart, isMarkerCandidate } from './scan-lines.js';
import { scan } from './scan.js';

export interface Heading {
  line: Line;
  index: number;
  level: number;
  text: string;
}

const LF = 10;

/** What remark reads for [from, to): unclosed openers blanked, lone CRs as spaces. */
export function remarkInput(text: string, from: number, to: number): string {
  const found = scan(text, from, to, { markers: true, blocks: true, leadingLine: false, stopAtMarker: undefined });
  const blanks: [number, number][] = [];
  for (const f of found.fences) if (!f.close) blanks.push([f.open.start, f.open.contentEnd]);
  // Only a `<!--` at a line's start (after at most three spaces) opens an HTML block.
  for (const c of found.comments) if (!c.closed && blockLineStart(text, from, c.start) !== -1) blanks.push([c.start, c.start + 4]);
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
