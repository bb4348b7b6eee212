// Escapes of cell bodies (spec section 6, "Escapes"): any text can be
// written into a cell. A body line the scanner would read as a cell marker
// (the malformed ones that are diagnostics too) or as a metadata line, and
// the opening `[` of a reply's first paragraph that would be read as its
// thinking, are written with one backslash before them, as Markdown escapes
// them; the LLM view drops that one backslash again.
//
// Where the backslash goes: after a line's leading spaces (`  \# %%`), not
// before them, so that a Markdown reader shows the line without it (a
// backslash before a space is a literal backslash in CommonMark); a footnote
// definition has no leading spaces; the thinking `[` gets it right before
// the bracket.
//
// What is escaped is decided on the text as it will be written, so that the
// view, which sees only that text, undoes exactly what was done:
// - A line inside an opaque region is not escaped: a closed fence, a closed
//   HTML comment, a closed CDATA section of a closed `<tool>` element. A
//   fence that never closes hides nothing here: in the written text it would
//   hold the lines after it only up to the next marker-like line, so those
//   lines are escaped like any other.
// - Escaping a marker-like line changes what the scanner sees after it (the
//   line no longer ends an unclosed fence or a `<tool>` element), so the
//   regions are read from the text with every marker-like line escaped: the
//   same regions as the written text has, since a backslash at a line's start
//   opens and closes nothing.
// - A line that is already backslashes followed by such a line gets one more
//   backslash, so that dropping one gives it back (`\# %%` is written `\\# %%`).

import { splitLines, type Line } from './lines.js';
import { isFootnoteDefinition } from './metadata.js';
import { isMarkerCandidate } from './scan-lines.js';
import { scan, type FenceBlock, type RegionNode, type ToolElement } from './scan.js';

export interface EscapeOptions {
  /**
   * The text is an agent reply's body: a first paragraph shaped like its
   * thinking (`[…]`) is escaped too.
   */
  replyStart?: boolean;
}

const SPACE = 32;
const BACKSLASH = 92;
const BRACKET = 91;

/**
 * Where an escape of the line [start, end) of `text` goes (after its leading
 * spaces) when the line without its leading backslashes (`backslashes` of
 * them at least) is a marker-like or a footnote-shaped line; -1 otherwise.
 */
export function lineEscapeAt(text: string, start: number, end: number, backslashes = 0): number {
  let s = start;
  while (s < end && text.charCodeAt(s) === SPACE) s++;
  let r = s;
  while (r < end && text.charCodeAt(r) === BACKSLASH) r++;
  if (r - s < backslashes) return -1;
  const indent = s - start;
  // The rest must start the marker or footnote itself: `\  # %%` is not the escape of `  # %%` (that is `  \# %%`).
  if (indent <= 3 && text.charCodeAt(r) === 35 /* # */ && isMarkerCandidate(text, r, end)) return s;
  if (indent === 0 && isFootnoteDefinition(text, r, end)) return s;
  return -1;
}

/** Closed regions whose lines are not escaped, in text order: closed fences, closed comments, closed CDATA of closed tool elements. */
export function opaqueSpans(found: { fences: readonly FenceBlock[]; comments: readonly RegionNode[]; tools: readonly ToolElement[] }): [number, number][] {
  const spans: [number, number][] = [];
  for (const f of found.fences) if (f.close) spans.push([f.open.start, f.close.end]);
  for (const c of found.comments) if (c.closed) spans.push([c.start, c.end]);
  for (const t of found.tools) {
    if (!t.closed) continue;
    for (const c of t.cdata) if (c.closed) spans.push([c.start, c.end]);
  }
  return spans.sort((a, b) => a[0] - b[0]);
}

/**
 * Answers, for line starts in ascending order, whether the line starts
 * inside one of the spans (so it cannot be a marker or metadata line):
 * linear in lines and spans together.
 */
export class OpaqueCursor {
  private i = 0;
  constructor(private readonly spans: readonly [number, number][]) {}

  inside(lineStart: number): boolean {
    const spans = this.spans;
    while (this.i < spans.length && spans[this.i]![1] <= lineStart) this.i++;
    const s = spans[this.i];
    return s !== undefined && s[0] < lineStart;
  }
}

function scanBlocks(text: string) {
  return scan(text, 0, text.length, { markers: false, blocks: true, leadingLine: false, stopAtMarker: undefined });
}

const WHITE = /\s/;

/**
 * Where the thinking escape of a reply's content goes: the first character
 * of its first paragraph (up to the first blank line, as splitThinking reads
 * it) when that paragraph, trimmed and without at least `backslashes`
 * leading backslashes, is `[…]` (not `[^`); -1 otherwise.
 */
export function thinkingEscapeAt(content: string, backslashes = 0): number {
  const m = /\n[ \t]*\n/.exec(content);
  const end = m ? m.index : content.length;
  let a = 0;
  while (a < end && WHITE.test(content[a]!)) a++;
  let z = end;
  while (z > a && WHITE.test(content[z - 1]!)) z--;
  let r = a;
  while (r < z && content.charCodeAt(r) === BACKSLASH) r++;
  if (r - a < backslashes) return -1;
  if (z - r < 2 || content.charCodeAt(r) !== BRACKET || content.charCodeAt(z - 1) !== 93 || content.charCodeAt(r + 1) === 94 /* ^ */) return -1;
  return a;
}

/** Drops the thinking escape of a reply's content (the view's inverse of `replyStart`). */
export function unescapeReplyStart(content: string): string {
  const at = thinkingEscapeAt(content, 1);
  return at === -1 ? content : content.slice(0, at) + content.slice(at + 1);
}

/**
 * The reply's content as the view reads it from a body (lines that are only
 * HTML comments left out, blank lines at both ends dropped, joined by LF),
 * with where each content line starts in it and in the body.
 */
function replyContent(text: string, lines: readonly Line[], comments: readonly RegionNode[]): { content: string; at: number[]; from: number[] } {
  const parts: string[] = [];
  const at: number[] = [];
  const from: number[] = [];
  let length = 0;
  let ci = 0;
  let first = -1;
  let last = -1;
  for (const line of lines) {
    let a = line.start;
    while (a < line.contentEnd && (text.charCodeAt(a) === SPACE || text.charCodeAt(a) === 9)) a++;
    if (a < line.contentEnd) {
      while (ci < comments.length && comments[ci]!.end < a) ci++;
      // As contentLines: a line whose first character is in a closed comment that runs to its end.
      let onlyComment = false;
      for (let k = ci; k < comments.length && comments[k]!.start <= a; k++) {
        const c = comments[k]!;
        if (c.closed && c.end >= line.contentEnd) onlyComment = true;
      }
      if (onlyComment) continue;
    }
    if (first === -1 && a >= line.contentEnd) continue;
    if (first === -1) first = parts.length;
    if (a < line.contentEnd) last = parts.length;
    if (parts.length) length++;
    at.push(length);
    from.push(line.start);
    parts.push(text.slice(line.start, line.contentEnd));
    length += line.contentEnd - line.start;
  }
  const kept = parts.slice(0, last + 1);
  return { content: kept.join('\n'), at: at.slice(0, last + 1), from: from.slice(0, last + 1) };
}

/** The offset in the body of the thinking escape (-1 without one), given the content the view reads. */
function thinkingOffset(text: string, lines: readonly Line[], comments: readonly RegionNode[], backslashes: number): number {
  const { content, at, from } = replyContent(text, lines, comments);
  const i = thinkingEscapeAt(content, backslashes);
  if (i === -1) return -1;
  let k = at.length - 1;
  while (k > 0 && at[k]! > i) k--;
  return from[k]! + (i - at[k]!);
}

/**
 * The text with exactly the lines that need it escaped by one backslash
 * (see above); `unescapeBody` gives the text back.
 */
export function escapeBody(text: string, options: EscapeOptions = {}): string {
  const lines = splitLines(text);
  // Where each escape goes, and the start of its line.
  const at: number[] = [];
  const starts: number[] = [];
  for (const line of lines) {
    const a = lineEscapeAt(text, line.start, line.contentEnd);
    if (a === -1) continue;
    at.push(a);
    starts.push(line.start);
  }
  // The text with every marker-like line escaped, to read the regions from.
  const all = edited(text, at, true);
  const found = scanBlocks(all);
  const cursor = new OpaqueCursor(opaqueSpans(found));
  // An offset in `all` is the one in `text` plus the escapes before it.
  const inserts = at.filter((_, k) => !cursor.inside(starts[k]! + k));
  if (options.replyStart) {
    const t = thinkingOffset(all, splitLines(all), found.comments, 0);
    if (t !== -1) {
      // The line it is on is not escaped (a thinking paragraph starts with `[`, not `#` or `[^`): back to the text's offsets.
      let before = 0;
      while (before < at.length && at[before]! + before < t) before++;
      inserts.push(t - before);
      inserts.sort((a, b) => a - b);
    }
  }
  return edited(text, inserts, true);
}

/** The text with a backslash inserted at (`insert`), or dropped from, each offset of `at` (ascending). */
function edited(text: string, at: readonly number[], insert: boolean): string {
  if (!at.length) return text;
  const out: string[] = [];
  let prev = 0;
  for (const p of at) {
    out.push(text.slice(prev, p));
    if (insert) out.push('\\');
    prev = insert ? p : p + 1;
  }
  out.push(text.slice(prev));
  return out.join('');
}

/**
 * The inverse of `escapeBody`: drops the one backslash of each escaped line
 * outside the opaque regions (and, with `replyStart`, of an escaped thinking
 * paragraph), and nothing else. The LLM view does the same on a cell's lines.
 */
export function unescapeBody(text: string, options: EscapeOptions = {}): string {
  if (text.indexOf('\\') === -1) return text;
  const lines = splitLines(text);
  const found = scanBlocks(text);
  const cursor = new OpaqueCursor(opaqueSpans(found));
  const drops: number[] = [];
  for (const line of lines) {
    const at = lineEscapeAt(text, line.start, line.contentEnd, 1);
    if (at !== -1 && !cursor.inside(line.start)) drops.push(at);
  }
  if (options.replyStart) {
    const t = thinkingOffset(text, lines, found.comments, 1);
    if (t !== -1) {
      drops.push(t);
      drops.sort((a, b) => a - b);
    }
  }
  return edited(text, drops, false);
}
