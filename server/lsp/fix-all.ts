// All safe fixes of a document as a few small edits of the client's text
// (for formatting, source.fixAll.msglint and the msglint.fixAll command).
// Fixes are applied in passes like `msglint --fix` (a fix can reveal
// another one); the passes' edits are composed into edits of the original
// text, so the editor changes only what the fixes change.

import { applyEdits } from '../engine/fix.js';
import { lintDocument, parseForLint } from '../linter.js';
import type { Diagnostic, MsglintConfig, TextEdit } from '../engine/types.js';
import type { MessageDocument } from '../syntax/document.js';

const MAX_PASSES = 10;

/** The final text as pieces: runs of the original text and inserted text. */
type Piece = { orig: [number, number] } | { text: string };

function pieceLength(p: Piece): number {
  return 'orig' in p ? p.orig[1] - p.orig[0] : p.text.length;
}

/** Splits the piece list so that a piece boundary falls at `offset` of the current text; returns its index. */
function splitAt(pieces: Piece[], offset: number): number {
  let pos = 0;
  for (let i = 0; i < pieces.length; i++) {
    const p = pieces[i]!;
    const len = pieceLength(p);
    if (offset === pos) return i;
    if (offset < pos + len) {
      const cut = offset - pos;
      const [a, b] = 'orig' in p ? [{ orig: [p.orig[0], p.orig[0] + cut] as [number, number] }, { orig: [p.orig[0] + cut, p.orig[1]] as [number, number] }] : [{ text: p.text.slice(0, cut) }, { text: p.text.slice(cut) }];
      pieces.splice(i, 1, a, b);
      return i + 1;
    }
    pos += len;
  }
  return pieces.length;
}

/** The edits `applyEdits` applies (it skips overlapping ones), in order. */
function appliedEdits(text: string, edits: TextEdit[]): TextEdit[] {
  const sorted = [...edits].sort((a, b) => a.range[0] - b.range[0] || a.range[1] - b.range[1]);
  const out: TextEdit[] = [];
  let last = 0;
  let lastStart = -1;
  for (const e of sorted) {
    const [s, t] = e.range;
    if (s < last || s === lastStart || s < 0 || t > text.length || t < s) continue;
    out.push(e);
    last = t;
    lastStart = s;
  }
  return out;
}

export interface FixAllResult {
  /** Edits of the original text, sorted, not overlapping. */
  edits: TextEdit[];
  text: string;
}

/**
 * Applies every safe fix until none is left (or MAX_PASSES). `doc` and
 * `diagnostics` are the current version's, so the first pass costs nothing.
 */
export function fixAll(doc: MessageDocument, diagnostics: Diagnostic[], options: { fileName: string; config: MsglintConfig }): FixAllResult {
  const original = doc.text;
  let pieces: Piece[] = [{ orig: [0, original.length] }];
  let current = original;
  let currentDoc = doc;
  let diags = diagnostics;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const fixes: TextEdit[] = [];
    for (const d of diags) if (d.fix) fixes.push(d.fix);
    const applied = appliedEdits(current, fixes);
    if (applied.length === 0) break;
    const next = applyEdits(current, applied).text;
    if (next === current) break;
    // From the last edit to the first, so earlier offsets stay valid.
    for (let i = applied.length - 1; i >= 0; i--) {
      const e = applied[i]!;
      const a = splitAt(pieces, e.range[0]);
      const b = splitAt(pieces, e.range[1]);
      pieces.splice(a, b - a, ...(e.text ? [{ text: e.text }] : []));
    }
    current = next;
    currentDoc = parseForLint(current, { ...options, previous: currentDoc });
    diags = lintDocument(currentDoc, options);
  }
  if (current === original) return { edits: [], text: original };

  // Gaps between original runs, and inserted text, become edits.
  const edits: TextEdit[] = [];
  let pos = 0;
  let pending: string | undefined;
  for (const p of pieces) {
    if ('text' in p) {
      pending = (pending ?? '') + p.text;
    } else if (p.orig[1] > p.orig[0]) {
      if (pending !== undefined || p.orig[0] !== pos) edits.push({ range: [pos, p.orig[0]], text: pending ?? '' });
      pending = undefined;
      pos = p.orig[1];
    }
  }
  if (pending !== undefined || pos !== original.length) edits.push({ range: [pos, original.length], text: pending ?? '' });
  return { edits: edits.filter((e) => e.range[0] !== e.range[1] || e.text !== ''), text: current };
}
