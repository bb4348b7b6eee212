// Folding ranges: the frontmatter, every cell (from its marker to its last
// non-blank line), and fenced blocks, <tool> elements and comments of
// several lines inside cells. Computed on request; each segment's ranges are
// cached with its parse (relative lines), so after an edit only the edited
// cell is looked at again.

import { FoldingRangeKind, type FoldingRange } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { CellParse } from '../syntax/format/cell.js';
import type { MessageDocument } from '../syntax/document.js';
import { messageDocument, type ServerContext } from './context.js';
import { lineAtOffset, lineStarts } from './convert.js';
import { guard } from './guard.js';
import { Memo } from '../base/memo.js';

/** Folding ranges of one segment, in lines relative to its first line. */
const cache = new Memo<CellParse, FoldingRange[]>('parse');

function segmentRanges(p: CellParse): FoldingRange[] {
  const cached = cache.get(p);
  if (cached) return cached;
  const starts = lineStarts(p.text);
  const out: FoldingRange[] = [];
  const add = (start: number, end: number, kind?: FoldingRangeKind) => {
    const a = lineAtOffset(starts, start);
    const b = lineAtOffset(starts, Math.max(start, end));
    if (b > a) out.push(kind ? { startLine: a, endLine: b, kind } : { startLine: a, endLine: b });
  };
  if (p.marker) {
    let end = p.text.length;
    while (end > 0 && /\s/.test(p.text[end - 1]!)) end--;
    add(0, end - 1, FoldingRangeKind.Region);
  }
  for (const f of p.fences) if (f.close) add(f.open.start, f.close.start);
  for (const t of p.tools) if (t.closed) add(t.start, t.end - 1);
  for (const c of p.comments) if (c.closed) add(c.start, c.end - 1, FoldingRangeKind.Comment);
  cache.set(p, out);
  return out;
}

export function foldingRanges(doc: MessageDocument, text: TextDocument): FoldingRange[] {
  const out: FoldingRange[] = [];
  const fm = doc.frontmatter;
  if (fm) {
    const a = text.positionAt(fm.start).line;
    const b = text.positionAt(Math.max(fm.start, fm.end - 1)).line;
    if (b > a) out.push({ startLine: a, endLine: b });
  }
  for (const seg of doc.segments) {
    if (!seg.parse) continue;
    const ranges = segmentRanges(seg.parse);
    if (!ranges.length) continue;
    const base = text.positionAt(doc.offsetOf(seg)).line;
    for (const r of ranges) out.push({ ...r, startLine: base + r.startLine, endLine: base + r.endLine });
  }
  return out.sort((a, b) => a.startLine - b.startLine || b.endLine - a.endLine);
}

export function registerFolding(ctx: ServerContext): void {
  ctx.connection.onFoldingRanges(
    guard(ctx.log, 'textDocument/foldingRange', null, async (params): Promise<FoldingRange[] | null> => {
      const open = await messageDocument(ctx, params.textDocument.uri);
      if (!open) return null;
      const { state, ls } = open;
      return state.derive(ls, 'folding', (doc) => foldingRanges(doc, state.text)) ?? [];
    }),
  );
}
