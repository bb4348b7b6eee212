// Inlay hints (textDocument/inlayHint) at the end of each cell's marker
// line: what the cell takes of the LLM view (`≈ 1.2k tok`, `summary ≈ 40
// tok`, `excluded`) and, at an agent reply, the view's running total against
// the agent's context window (`Σ 45.3k / 128k · 35%`): the numbers of the
// `context-window` rule (server/llm-view/budget.ts). The `msglint.inlayHints`
// setting chooses: `all`, `replies` (only the totals) or `off`.
//
// Only the cells whose marker lines are in the requested range get hints;
// their totals come from the version's running total, counted as far as the
// range (in slices, see view-budget.ts), and the rest of the file is counted
// afterwards in the background, so that scrolling anywhere is answered at once.

import type { InlayHint, InlayHintLabelPart } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { ReplyTotal, ViewBudget, ViewCount } from '../llm-view/budget.js';
import { cellTokens, thinkingTokens } from '../llm-view/tokens.js';
import { historyMode } from '../llm-view/view.js';
import type { Cell, MessageDocument } from '../syntax/document.js';
import { messageDocument, type ServerContext } from './context.js';
import { toOffsets } from './convert.js';
import { guard } from './guard.js';
import type { InlayHintsMode } from './settings.js';
import { compactTokens, countedBudget, countRestInBackground, fullNumber, totalLabel, totalTooltip, uncounted } from './view-budget.js';

/** The index of the first cell that starts at or after `offset` (the cell count when none does). */
export function firstCellFrom(doc: MessageDocument, offset: number): number {
  let lo = 0;
  let hi = doc.cellCount;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (doc.offsetOf(doc.cell(mid)!) < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** What a cell adds to the view, as a hint's part. */
function cellPart(doc: MessageDocument, index: number, count: ViewCount): InlayHintLabelPart {
  const cell = doc.cell(index)!;
  const adds = typeof count === 'number' ? count : count.adds;
  switch (historyMode(doc, cell)) {
    case 'exclude': {
      const body = typeof count === 'number' ? cellTokens(doc, cell, 'sent') : count.own;
      return { value: 'excluded', tooltip: `Left out of the LLM view (history=exclude): about ${fullNumber(body)} tokens if it were in.` };
    }
    case 'summary':
      return { value: `summary ≈ ${compactTokens(adds)} tok`, tooltip: `Only its summary is in the LLM view (history=summary): about ${fullNumber(adds)} tokens.` };
    default:
      return {
        value: `≈ ${compactTokens(adds)} tok`,
        tooltip: `About ${fullNumber(adds)} tokens in the LLM view (msglint's estimate, as the context-window rule counts).${thinkingNote(doc, cell)}`,
      };
  }
}

/** What a reply's count leaves out: its thinking paragraph, which the openai and anthropic exports do not send (export/thinking.ts). */
function thinkingNote(doc: MessageDocument, cell: Cell): string {
  const thinking = thinkingTokens(doc, cell);
  return thinking > 0 ? ` Its thinking paragraph (about ${fullNumber(thinking)} tokens) is left out, as \`msglint export\` leaves it out for openai and anthropic.` : '';
}

/** The view's total at a reply, as a hint's part. */
function totalPart(reply: ReplyTotal): InlayHintLabelPart {
  const { tokens, count, prompt, before } = reply;
  const parts = `${prompt ? `system prompt ${fullNumber(prompt)} + ` : ''}the cells before ${fullNumber(before)} + this reply ${fullNumber(count.own)}`;
  return {
    value: totalLabel(tokens, count.window),
    tooltip: `The LLM view up to and including this reply: ${totalTooltip(tokens, count.window, count.agent)} (${parts}).`,
  };
}

/** The hints of cells [first, end): at the end of each marker line, its part and, at a reply, the total. */
export function budgetHints(doc: MessageDocument, text: TextDocument, budget: ViewBudget, first: number, end: number, mode: InlayHintsMode): InlayHint[] {
  const hints: InlayHint[] = [];
  budget.forEach(first, end, (index, count, _before, reply) => {
    const label: InlayHintLabelPart[] = [];
    if (mode === 'all') label.push(cellPart(doc, index, count));
    if (reply) {
      if (label.length) label.push({ value: ' · ' });
      label.push(totalPart(reply));
    }
    if (!label.length) return;
    const cell = doc.cell(index)!;
    hints.push({ position: text.positionAt(doc.offsetOf(cell) + cell.marker.span.end), label, paddingLeft: true });
  });
  return hints;
}

export function registerInlayHints(ctx: ServerContext): void {
  ctx.connection.languages.inlayHint.on(
    guard(ctx.log, 'textDocument/inlayHint', null, async (params, token): Promise<InlayHint[] | null> => {
      const open = await messageDocument(ctx, params.textDocument.uri);
      if (!open) return null;
      const mode = open.ls.inlayHints ?? 'all';
      if (mode === 'off') return [];
      const { state, doc } = open;
      const [start, end] = toOffsets(state.text, params.range);
      const first = firstCellFrom(doc, start);
      let last = first;
      while (last < doc.cellCount && doc.offsetOf(doc.cell(last)!) < end) last++;
      if (first === last) return [];
      const budget = await countedBudget(ctx, open, first, () => token.isCancellationRequested);
      if (typeof budget === 'string') throw uncounted('textDocument/inlayHint', budget);
      const hints = budgetHints(doc, state.text, budget, first, last, mode);
      if (!budget.complete) countRestInBackground(ctx, state);
      return hints;
    }),
  );
}
