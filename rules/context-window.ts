import { defineRule } from '../server/engine/rule-kit.js';
import type { Cell, MessageDocument } from '../server/syntax/document.js';
import { agentInfoAt, agentInfos } from '../server/agents/agents.js';
import { BINARY_OUTPUT_TOKENS, MESSAGE_OVERHEAD_TOKENS } from '../server/llm-view/tokens.js';
import { viewBudget } from '../server/llm-view/budget.js';

/**
 * Whether every reply's view fits: the estimate counts at most one token per
 * character (plus per-message overhead, and a binary code output counts
 * 1,000), so a file shorter than the smallest window of an agent that
 * replies fits. Most files need no token counted.
 */
function fits(doc: MessageDocument): boolean {
  const windows = new Map<string, number>();
  for (const { def, settings } of agentInfos(doc)) {
    if (settings.contextWindow !== undefined) windows.set(def.name, Math.min(settings.contextWindow, windows.get(def.name) ?? Infinity));
  }
  if (!windows.size) return true;
  let smallest = Infinity;
  let outputs = 0;
  for (const cell of doc.cells) {
    const kind = doc.kindOf(cell);
    if (kind === 'code-output') outputs++;
    else if (kind === 'agent-reply') smallest = Math.min(smallest, windows.get(doc.typeOf(cell)!) ?? Infinity);
  }
  return doc.text.length + doc.cellCount * (MESSAGE_OVERHEAD_TOKENS + 1) + outputs * BINARY_OUTPUT_TOKENS <= smallest;
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
    if (fits(doc)) return;
    // The view up to a reply (server/llm-view/budget.ts): its system prompt, the cells before it, and itself.
    const first = new Map<string, { cell: Cell; tokens: number; window: number; later: number }>();
    viewBudget(doc).windowedReplies(({ index, count, tokens }) => {
      const window = count.window!;
      if (tokens <= window) return;
      const f = first.get(count.agent);
      if (f) f.later++;
      else first.set(count.agent, { cell: doc.cell(index)!, tokens, window, later: 0 });
    });
    for (const [agent, f] of first) {
      const m = doc.metadataOf(f.cell)!;
      const info = agentInfoAt(doc, agent, doc.offsetOf(f.cell));
      const cw = info?.entries.find((e) => e.key === 'context_window' && !e.repeated);
      const fmt = (n: number): string => n.toLocaleString('en-US');
      report({
        at: doc.abs(m.segment, m.node.typeSpan!),
        message:
          `The conversation up to this reply is about ${fmt(f.tokens)} tokens (estimated), more than the ${fmt(f.window)}-token context window of \`${agent}\`.` +
          (f.later ? ` ${f.later} later ${f.later === 1 ? 'reply' : 'replies'} of \`${agent}\` exceed it too.` : '') +
          ' Leave earlier cells out with `history=exclude` or shorten them with `history=summary`.',
        related: cw ? [{ at: cw.at, message: `The context window of \`${agent}\`` }] : undefined,
      });
    }
  },
);
