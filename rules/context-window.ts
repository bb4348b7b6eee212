import { defineRule } from '../server/engine/rule-kit.js';
import { Cell, type MessageDocument, type Structure } from '../server/syntax/document.js';
import { agentInfoAt, agentInfos } from '../server/agents/agents.js';
import { BINARY_OUTPUT_TOKENS, cellTokens, estimateTokens, MESSAGE_OVERHEAD_TOKENS } from '../server/llm-view/tokens.js';
import { historyMode, systemPromptFor } from '../server/llm-view/view.js';
import { Memo } from '../server/syntax/memo.js';

interface ReplyWindow {
  /** Index of the reply among the cells. */
  index: number;
  /** Tokens of the agent's system prompt. */
  system: number;
  /** The reply's own tokens. */
  own: number;
  window: number;
  agent: string;
}

/**
 * Per cell, what it adds to the view's running total, and the replies whose
 * agent has a context window. The view up to reply r takes
 * own(r) + the sum of `adds` before r.
 */
interface Windows {
  adds: Float64Array;
  replies: ReplyWindow[];
}

// Per version, so that the next one, when it differs only in prose
// (DocumentEdit.sameStructure), recounts only the edited cells.
const windowsCache = new Memo<MessageDocument, Windows>();

function adds(cell: Cell): number {
  const mode = historyMode(cell);
  return mode === 'exclude' ? 0 : cellTokens(cell, mode === 'summary' ? 'summary' : 'body');
}

function windowsOf(doc: MessageDocument): Windows {
  let w = windowsCache.get(doc);
  if (w) return w;
  const previous = doc.edit?.sameStructure ? doc.edit.previous : undefined;
  const before = previous && windowsCache.get(previous);
  if (before && before.adds.length === doc.cells.length) {
    // Only the prose of messages and replies changed: settings and history
    // modes are the same; recount the edited cells.
    w = { adds: before.adds.slice(), replies: before.replies };
    for (const si of doc.edit!.changed) {
      const seg = doc.segments[si];
      if (!(seg instanceof Cell)) continue;
      const r = w.replies.findIndex((x) => x.index === seg.index);
      if (r === -1) {
        w.adds[seg.index] = adds(seg);
        continue;
      }
      // A reply: its own count changes (its agent and system prompt do not).
      const own = cellTokens(seg, 'body');
      if (w.replies === before.replies) w.replies = before.replies.slice();
      w.replies[r] = { ...w.replies[r]!, own };
      const mode = historyMode(seg);
      w.adds[seg.index] = mode === 'exclude' ? 0 : mode === 'summary' ? cellTokens(seg, 'summary') : own;
    }
  } else {
    w = { adds: new Float64Array(doc.cells.length), replies: [] };
    const prompts = new Map<string, number>();
    for (const cell of doc.cells) {
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
        w.replies.push({ index: cell.index, system, own, window, agent: reply });
        const mode = historyMode(cell);
        w.adds[cell.index] = mode === 'exclude' ? 0 : mode === 'summary' ? cellTokens(cell, 'summary') : own;
        continue;
      }
      w.adds[cell.index] = adds(cell);
    }
  }
  windowsCache.set(doc, w);
  return w;
}

// By the cell types of a structure, which versions that differ only in prose share.
const replyingCache = new Memo<Structure, Set<string>>();

/** Names of the agents that reply in the file. */
function replyingAgents(doc: MessageDocument): Set<string> {
  let names = replyingCache.get(doc.structure);
  if (!names) {
    names = new Set();
    for (const cell of doc.cells) {
      if (cell.cellType === 'agent-reply' && cell.type !== undefined) names.add(cell.type);
    }
    replyingCache.set(doc.structure, names);
  }
  return names;
}

const codeOutputCache = new Memo<Structure, number>();

/** How many cells are code outputs (a binary output counts more tokens than its text). */
function codeOutputs(doc: MessageDocument): number {
  let n = codeOutputCache.get(doc.structure);
  if (n === undefined) {
    n = 0;
    for (const cell of doc.cells) if (cell.cellType === 'code-output') n++;
    codeOutputCache.set(doc.structure, n);
  }
  return n;
}

/** Estimated tokens of the view up to and including each agent reply, for replies whose agent has a context window. */
export function replyWindows(doc: MessageDocument): { cell: Cell; tokens: number; window: number; agent: string }[] {
  const out: { cell: Cell; tokens: number; window: number; agent: string }[] = [];
  // The estimate counts at most one token per character, so a file shorter
  // than the smallest window of an agent that replies (plus per-message
  // overhead) cannot exceed it.
  const replying = replyingAgents(doc);
  const windows = agentInfos(doc)
    .filter((i) => replying.has(i.def.name))
    .map((i) => i.settings.contextWindow)
    .filter((w): w is number => w !== undefined);
  if (!windows.length) return out;
  const previous = doc.edit?.sameStructure ? doc.edit.previous : undefined;
  if (windowsCache.get(doc) === undefined && !(previous && windowsCache.get(previous) !== undefined)) {
    // Every code output counted as binary: a looser bound, but one that versions of the same structure share.
    const bound = doc.text.length + doc.cells.length * (MESSAGE_OVERHEAD_TOKENS + 1) + codeOutputs(doc) * BINARY_OUTPUT_TOKENS;
    if (bound <= Math.min(...windows)) return out;
  }
  const { adds, replies } = windowsOf(doc);
  let total = 0;
  let upTo = 0;
  for (const r of replies) {
    while (upTo < r.index) total += adds[upTo++]!;
    out.push({ cell: doc.cells[r.index]!, tokens: r.system + r.own + total, window: r.window, agent: r.agent });
  }
  return out;
}

const rule = defineRule(
  {
    id: 'context-window',
    group: 'llm-view',
    severity: 'warning',
    fixable: null,
    description: "The estimated tokens of the LLM view up to a reply exceed that reply's agent's `context_window`.",
    incremental: { readsProse: true }, // token estimates change with every keystroke of prose
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
export default rule;
