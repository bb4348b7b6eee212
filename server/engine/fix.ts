import type { TextEdit } from './types.js';

/** Merges several edits into one that covers them all, keeping the text between them. */
export function mergeEdits(text: string, edits: TextEdit | TextEdit[]): TextEdit {
  if (!Array.isArray(edits)) return edits;
  if (edits.length === 1) return edits[0]!;
  const sorted = [...edits].sort((a, b) => a.range[0] - b.range[0] || a.range[1] - b.range[1]);
  const start = sorted[0]!.range[0];
  let end = start;
  let out = '';
  for (const e of sorted) {
    if (e.range[0] < end) throw new Error('overlapping edits in one fix');
    out += text.slice(end, e.range[0]) + e.text;
    end = e.range[1];
  }
  return { range: [start, end], text: out };
}

/**
 * Applies non-overlapping edits (the first of two overlapping ones wins; the
 * other is left for the next pass). Returns the new text and how many edits
 * were applied.
 */
export function applyEdits(text: string, edits: TextEdit[]): { text: string; applied: number } {
  const sorted = [...edits].sort((a, b) => a.range[0] - b.range[0] || a.range[1] - b.range[1]);
  let out = '';
  let last = 0;
  let lastStart = -1;
  let applied = 0;
  for (const e of sorted) {
    const [s, t] = e.range;
    if (s < last || s === lastStart || s < 0 || t > text.length || t < s) continue;
    out += text.slice(last, s) + e.text;
    last = t;
    lastStart = s;
    applied++;
  }
  return { text: out + text.slice(last), applied };
}
