// Text helpers of the export: times, fences, the thinking paragraph of a
// reply, and the text of a cell around its `<tool>` elements or code block.

import { bodyText, contentLines, escapedLines } from '../llm-view/view.js';
import type { Cell, MessageDocument } from '../syntax/document.js';

/** An ISO 8601 date-time with an offset, as UTC without milliseconds when they are zero; undefined when not valid. */
export function normalizeTime(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (!/^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:[Zz]|[+-]\d{2}:?\d{2})$/.test(v)) return undefined;
  const ms = Date.parse(v.replace(' ', 'T').replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  if (Number.isNaN(ms)) return undefined;
  const iso = new Date(ms).toISOString();
  // Joined, not `+`: one flat string, where `+` keeps its pieces too (base/flat.ts).
  const utc = iso.endsWith('.000Z') ? [iso.slice(0, -5), 'Z'].join('') : iso;
  // Written so already: the file's own string, not a copy in every message of a long view.
  return utc === v ? v : utc;
}

/** A fenced code block holding `text`, with a fence longer than any backtick run inside. */
export function fence(text: string, info: string): string {
  let longest = 0;
  for (const m of text.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  const f = '`'.repeat(Math.max(3, longest + 1));
  // Joined, not a template: one flat string (base/flat.ts).
  return [f, info, '\n', text, '\n', f].join('');
}

/** A code cell as a user message: its code block, fenced with its language. */
export function codeText(doc: MessageDocument, cell: Cell): string {
  const block = cell.codeBlock;
  if (!block || !block.fence.close) return bodyText(doc, cell);
  return fence(bodyText(doc, cell), block.language);
}

/** A leading `[...]` paragraph (the agent's thinking, spec section 6) apart from the rest. */
export function splitThinking(text: string): { thinking?: string; text: string } {
  const m = /\n[ \t]*\n/.exec(text);
  const first = (m ? text.slice(0, m.index) : text).trim();
  if (first.length >= 2 && first.startsWith('[') && first.endsWith(']') && !first.startsWith('[^')) {
    const rest = m ? text.slice(m.index + m[0].length).trim() : '';
    return { thinking: first.slice(1, -1).trim(), text: rest };
  }
  return { text };
}

/**
 * The content of a cell outside the given ranges (cell-relative): the
 * reasoning around a `<tool>` element or a code block. Lines left blank by
 * the cut are dropped and runs of blank lines become one.
 */
export function textOutside(cell: Cell, ranges: [number, number][]): string {
  const text = cell.text;
  const out: string[] = [];
  // In document order, with a cursor past the ranges that end before the
  // current line: linear in lines + ranges (a cell of 20,000 `<tool>`
  // elements took seconds when every line looked at every range).
  const sorted = [...ranges].sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  let first = 0;
  const lines = contentLines(cell);
  // An escaped line (spec section 6) loses its backslash, as in bodyText.
  const drops = escapedLines(cell, lines);
  for (const line of lines) {
    const drop = drops?.get(line.start);
    const piece = (a: number, b: number): string => (drop !== undefined && drop >= a && drop < b ? text.slice(a, drop) + text.slice(drop + 1, b) : text.slice(a, b));
    let s = line.start;
    const pieces: string[] = [];
    let cut = false;
    while (first < sorted.length && sorted[first]![1] <= line.start) first++;
    for (let i = first; i < sorted.length; i++) {
      const [a, b] = sorted[i]!;
      if (a >= line.contentEnd) break;
      if (b <= line.start) continue;
      cut = true;
      if (a > s) pieces.push(piece(s, a));
      s = Math.max(s, b);
    }
    if (s < line.contentEnd) pieces.push(piece(s, line.contentEnd));
    if (!cut) {
      out.push(pieces.join(''));
      continue;
    }
    const kept = pieces.map((p) => p.trim()).filter((p) => p !== '').join(' ');
    if (kept !== '') out.push(kept);
  }
  return out
    .join('\n')
    .replace(/\n[ \t]*(?:\n[ \t]*)+\n/g, '\n\n')
    .trim();
}
