// What a single line (or tag) of the block scanner is: a marker candidate,
// a fence opener, a `<tool>` start tag. Char codes compared
// one by one: this runs for every line of every file.

import type { Span } from '../../base/text.js';

export const SPACE = 32;
export const TAB = 9;
export const HASH = 35;
export const PERCENT = 37;
export const BACKTICK = 96;
export const TILDE = 126;

/** Columns of leading spaces (only spaces count for CommonMark's 0-3 indent). */
export function leadingSpaces(text: string, start: number, end: number): number {
  let i = start;
  while (i < end && text.charCodeAt(i) === SPACE) i++;
  return i - start;
}

/**
 * The start of the line that holds `at` when at most three spaces come
 * before `at` on it (where a CommonMark block may start), or -1; `from` is
 * a line start.
 */
export function blockLineStart(text: string, from: number, at: number): number {
  let start = at;
  while (start > from && at - start < 4 && text.charCodeAt(start - 1) === SPACE) start--;
  return at - start <= 3 && (start === from || text.charCodeAt(start - 1) === 10) ? start : -1;
}

/**
 * Whether a line looks like a cell marker: up to three spaces, one or more
 * `#`, optional blanks, two or more `%`. Deeper indentation is an indented
 * code block in Markdown, so it is content.
 */
export function isMarkerCandidate(text: string, start: number, contentEnd: number): boolean {
  const indent = leadingSpaces(text, start, contentEnd);
  if (indent > 3) return false;
  let i = start + indent;
  if (text.charCodeAt(i) !== HASH) return false;
  while (i < contentEnd && text.charCodeAt(i) === HASH) i++;
  while (i < contentEnd && (text.charCodeAt(i) === SPACE || text.charCodeAt(i) === TAB)) i++;
  return text.charCodeAt(i) === PERCENT && text.charCodeAt(i + 1) === PERCENT;
}

export function fenceOpener(text: string, start: number, contentEnd: number): { char: '`' | '~'; length: number; indent: number; info: Span } | null {
  const indent = leadingSpaces(text, start, contentEnd);
  if (indent > 3) return null;
  const p = start + indent;
  const c = text.charCodeAt(p);
  if (c !== BACKTICK && c !== TILDE) return null;
  let q = p;
  while (q < contentEnd && text.charCodeAt(q) === c) q++;
  const length = q - p;
  if (length < 3) return null;
  let infoStart = q;
  while (infoStart < contentEnd && (text.charCodeAt(infoStart) === SPACE || text.charCodeAt(infoStart) === TAB)) infoStart++;
  let infoEnd = contentEnd;
  while (infoEnd > infoStart && (text.charCodeAt(infoEnd - 1) === SPACE || text.charCodeAt(infoEnd - 1) === TAB)) infoEnd--;
  if (c === BACKTICK && text.indexOf('`', q) !== -1 && text.indexOf('`', q) < contentEnd) return null;
  return { char: c === BACKTICK ? '`' : '~', length, indent, info: { start: infoStart, end: infoEnd } };
}

export function isToolOpenTag(text: string, p: number, end: number): number {
  // `<tool` followed by blank, `>` (not `<tool_name>`); returns the tag end or -1.
  if (!text.startsWith('<tool', p)) return -1;
  const c = text.charCodeAt(p + 5);
  if (c !== 62 && c !== SPACE && c !== TAB && !(p + 5 >= end)) return -1;
  const gt = text.indexOf('>', p + 5);
  if (gt === -1 || gt >= end) return -1;
  if (text.charCodeAt(gt - 1) === 47) return -1; // self-closing <tool/>
  return gt + 1;
}


/**
 * How many lines look like cell markers (isMarkerCandidate), counting up
 * to `limit + 1` at most: what a file's cells will cost, told before it is
 * parsed. Markers inside fences are counted too, so it may count more
 * cells than the parse finds, never fewer.
 */
export function countMarkerLines(text: string, limit: number): number {
  let count = 0;
  for (let start = 0; start < text.length && count <= limit; ) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    // Most lines are ruled out by their first character.
    const first = text.charCodeAt(start);
    if ((first === HASH || first === SPACE) && isMarkerCandidate(text, start, end)) count++;
    start = end + 1;
  }
  return count;
}
