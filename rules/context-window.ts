import { defineRule } from '../server/engine/rule-kit.js';
import { Cell, replacedSegments, type MessageDocument } from '../server/syntax/document.js';
import { agentInfoAt, agentInfos } from '../server/agents/agents.js';
import { BINARY_OUTPUT_TOKENS, cellTokens, estimateTokens, MESSAGE_OVERHEAD_TOKENS } from '../server/llm-view/tokens.js';
import { historyMode, systemPromptFor } from '../server/llm-view/view.js';
import { spliceNumbers } from '../server/base/lists.js';
import { Memo } from '../server/base/memo.js';

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

// Per version, so that the next one, when it keeps the other cells
// (keepsCells), counts only the edited cells.
const windowsCache = new Memo<MessageDocument, Windows>();

function adds(cell: Cell): number {
  const mode = historyMode(cell);
  return mode === 'exclude' ? 0 : cellTokens(cell, mode === 'summary' ? 'summary' : 'body');
}

function windowsOf(doc: MessageDocument): Windows {
  let w = windowsCache.get(doc);
  if (w) return w;
  const edit = doc.edit;
  const before = edit?.previous && windowsCache.get(edit.previous);
  if (before && edit!.keepsCells) w = spliced(doc, before);
  else {
    w = { adds: new Float64Array(doc.cells.length), replies: [] };
    const prompts = new Map<string, number>();
    for (const cell of doc.cells) count(doc, cell, w, prompts);
  }
  windowsCache.set(doc, w);
  return w;
}

/** Sets a cell's part of `w` (its adds, and its reply entry when it is a reply with a window, pushed). */
function count(doc: MessageDocument, cell: Cell, w: Windows, prompts: Map<string, number>): void {
  const reply = cell.cellKind === 'agent-reply' && cell.type !== undefined ? cell.type : undefined;
  const window = reply !== undefined ? agentInfoAt(doc, reply, cell.offset)?.settings.contextWindow : undefined;
  if (reply === undefined || window === undefined) {
    w.adds[cell.index] = adds(cell);
    return;
  }
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
}

/**
 * After an edit that keeps the cells (the agents and their settings too):
 * the previous counts of the kept cells, moved; the replaced cells and the
 * kept ones whose facts the edit made again (DocumentEdit.refreshed) counted.
 */
function spliced(doc: MessageDocument, before: Windows): Windows {
  const { cell: at, removed, added } = doc.edit!.replaced!;
  const shift = added - removed;
  const w: Windows = { adds: spliceNumbers(before.adds, at, removed, added), replies: [] };
  const again = new Set<number>();
  for (let i = at; i < at + added; i++) again.add(i);
  for (const seg of doc.edit!.refreshed ?? []) if (seg instanceof Cell) again.add(seg.index);
  for (const r of before.replies) {
    if (r.index >= at && r.index < at + removed) continue;
    const index = r.index >= at + removed ? r.index + shift : r.index;
    if (!again.has(index)) w.replies.push(index === r.index ? r : { ...r, index });
  }
  const prompts = new Map<string, number>();
  for (const i of again) count(doc, doc.cells[i]!, w, prompts);
  w.replies.sort((a, b) => a.index - b.index);
  return w;
}

/** The agents that reply (with how many replies each) and the code outputs, with what each cell adds to them. */
interface CellKinds {
  replying: Map<string, number>;
  codeOutputs: number;
  /** A reply's agent, or '' for a code output; other cells are not in it. */
  of: Map<Cell, string>;
}

// Per version; one that keeps the previous one's cells (DocumentEdit.keepsCells)
// takes the previous counts (that version is spent: changed in place),
// updated for the replaced and refreshed cells.
const kindsCache = new Memo<MessageDocument, CellKinds>();

function kindOf(cell: Cell): string | undefined {
  if (cell.cellKind === 'agent-reply' && cell.type !== undefined) return cell.type;
  return cell.cellKind === 'code-output' ? '' : undefined;
}

function addKind(k: CellKinds, cell: Cell, sign: 1 | -1): void {
  const kind = sign === 1 ? kindOf(cell) : k.of.get(cell);
  if (kind === undefined) return;
  if (sign === 1) k.of.set(cell, kind);
  else k.of.delete(cell);
  if (kind === '') k.codeOutputs += sign;
  else {
    const n = (k.replying.get(kind) ?? 0) + sign;
    if (n === 0) k.replying.delete(kind);
    else k.replying.set(kind, n);
  }
}

function cellKinds(doc: MessageDocument): CellKinds {
  let k = kindsCache.get(doc);
  if (k) return k;
  const edit = doc.edit;
  const before = edit?.keepsCells && edit.previous ? kindsCache.get(edit.previous) : undefined;
  if (before) {
    k = before;
    const { gone, come } = replacedSegments(doc);
    const refreshed = (edit!.refreshed ?? []).filter((s) => s instanceof Cell);
    for (const c of [...gone, ...refreshed]) if (c instanceof Cell) addKind(k, c, -1);
    for (const c of [...come, ...refreshed]) if (c instanceof Cell) addKind(k, c, 1);
  } else {
    k = { replying: new Map(), codeOutputs: 0, of: new Map() };
    for (const cell of doc.cells) addKind(k, cell, 1);
  }
  kindsCache.set(doc, k);
  return k;
}

/** Estimated tokens of the view up to and including each agent reply, for replies whose agent has a context window. */
export function replyWindows(doc: MessageDocument): { cell: Cell; tokens: number; window: number; agent: string }[] {
  const out: { cell: Cell; tokens: number; window: number; agent: string }[] = [];
  const previous = doc.edit?.keepsCells ? doc.edit.previous : undefined;
  // Counts kept from the previous version are updated for the edited cells:
  // the checks below, which read every cell, are for a version without them.
  if (windowsCache.get(doc) === undefined && !(previous && windowsCache.get(previous) !== undefined)) {
    // The estimate counts at most one token per character, so a file shorter
    // than the smallest window of an agent that replies (plus per-message
    // overhead) cannot exceed it.
    const kinds = cellKinds(doc);
    const windows = agentInfos(doc)
      .filter((i) => kinds.replying.has(i.def.name))
      .map((i) => i.settings.contextWindow)
      .filter((w): w is number => w !== undefined);
    if (!windows.length) return out;
    // Every code output counted as binary: a looser bound, but one that versions of the same structure share.
    const bound = doc.text.length + doc.cells.length * (MESSAGE_OVERHEAD_TOKENS + 1) + kinds.codeOutputs * BINARY_OUTPUT_TOKENS;
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
