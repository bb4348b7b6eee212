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

function slicePiece(p: Piece, from: number, to: number): Piece {
  return 'orig' in p ? { orig: [p.orig[0] + from, p.orig[0] + to] } : { text: p.text.slice(from, to) };
}

/**
 * The pieces of the text after `edits` (sorted, not overlapping, offsets of
 * the text `pieces` make): one walk over both. Splitting and splicing the
 * list per edit made 80,000 fixes quadratic.
 */
function editPieces(pieces: readonly Piece[], edits: readonly TextEdit[], length: number): Piece[] {
  const out: Piece[] = [];
  let i = 0; // the piece the cursor is in
  let within = 0; // the cursor's offset in it
  let at = 0; // the cursor's offset in the text
  /** Moves the cursor to `to`, keeping what it passes when `keep`. */
  const advance = (to: number, keep: boolean) => {
    while (at < to && i < pieces.length) {
      const p = pieces[i]!;
      const n = Math.min(pieceLength(p) - within, to - at);
      if (keep && n > 0) out.push(n === pieceLength(p) ? p : slicePiece(p, within, within + n));
      within += n;
      at += n;
      if (within === pieceLength(p)) {
        i++;
        within = 0;
      }
    }
  };
  for (const e of edits) {
    advance(e.range[0], true);
    if (e.text) out.push({ text: e.text });
    advance(e.range[1], false);
  }
  advance(length, true);
  return out;
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
    pieces = editPieces(pieces, applied, current.length);
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
