import { defineRule } from '../server/engine/rule-kit.js';
import type { Cell, MessageDocument } from '../server/syntax/document.js';
import { agentInfoAt, agentInfos } from '../server/agents/agents.js';
import { BINARY_OUTPUT_TOKENS, cellTokens, estimateTokens, MESSAGE_OVERHEAD_TOKENS } from '../server/llm-view/tokens.js';
import { historyMode, isBinaryOutput, systemPromptFor } from '../server/llm-view/view.js';

/** Estimated tokens of the view up to and including each agent reply, for replies whose agent has a context window. */
export function replyWindows(doc: MessageDocument): { cell: Cell; tokens: number; window: number; agent: string }[] {
  const out: { cell: Cell; tokens: number; window: number; agent: string }[] = [];
  // The estimate counts at most one token per character, so a file shorter
  // than the smallest window (plus per-message overhead) cannot exceed it.
  const windows = agentInfos(doc).map((i) => i.settings.contextWindow).filter((w): w is number => w !== undefined);
  if (!windows.length) return out;
  const binary = doc.cells.filter((c) => c.cellType === 'code-output' && isBinaryOutput(c)).length;
  const bound = doc.text.length + doc.cells.length * (MESSAGE_OVERHEAD_TOKENS + 1) + binary * BINARY_OUTPUT_TOKENS;
  if (bound <= Math.min(...windows)) return out;
  const prompts = new Map<string, number>();
  let total = 0;
  for (const cell of doc.cells) {
    const mode = historyMode(cell);
    const reply = cell.cellType === 'agent-reply' && cell.type !== undefined ? cell.type : undefined;
    const window = reply !== undefined ? agentInfoAt(doc, reply, cell.offset)?.settings.contextWindow : undefined;
    if (reply !== undefined && window !== undefined) {
      // The reply was generated in the window whatever its history setting says now.
      const own = cellTokens(cell, 'body');
      const prompt = systemPromptFor(doc, cell) ?? '';
      let system = prompts.get(prompt);
      if (system === undefined) {
        system = prompt === '' ? 0 : MESSAGE_OVERHEAD_TOKENS + estimateTokens(prompt);
        prompts.set(prompt, system);
      }
      out.push({ cell, tokens: system + total + own, window, agent: reply });
      if (mode !== 'exclude') total += mode === 'summary' ? cellTokens(cell, 'summary') : own;
      continue;
    }
    if (mode !== 'exclude') total += cellTokens(cell, mode === 'summary' ? 'summary' : 'body');
  }
  return out;
}

export default defineRule(
  {
    id: 'context-window',
    group: 'llm-view',
    severity: 'warning',
    fixable: null,
    description: "The estimated tokens of the LLM view up to a reply exceed that reply's agent's `context_window`.",
  },
  ({ doc, report }) => {
    const first = new Map<string, { cell: Cell; tokens: number; window: number; later: number }>();
    for (const r of replyWindows(doc)) {
      if (r.tokens <= r.window) continue;
      const f = first.get(r.agent);
      if (f) f.later++;
      else first.set(r.agent, { cell: r.cell, tokens: r.tokens, window: r.window, later: 0 });
    }
    for (const [agent, f] of first) {
      const m = f.cell.metadata!;
      const info = agentInfoAt(doc, agent, f.cell.offset);
      const cw = info?.entries.find((e) => e.key === 'context_window' && !e.repeated);
      const fmt = (n: number): string => n.toLocaleString('en-US');
      report({
        at: m.segment.abs(m.node.typeSpan!),
        message:
          `The conversation up to this reply is about ${fmt(f.tokens)} tokens (estimated), more than the ${fmt(f.window)}-token context window of \`${agent}\`.` +
          (f.later ? ` ${f.later} later ${f.later === 1 ? 'reply' : 'replies'} of \`${agent}\` exceed it too.` : '') +
          ' Leave earlier cells out with `history=exclude` or shorten them with `history=summary`.',
        related: cw ? [{ at: cw.at, message: `The context window of \`${agent}\`` }] : undefined,
      });
    }
  },
);
