// The view's running total (spec section 9): how many tokens, by the
// estimate of tokens.ts, the LLM view holds up to each cell, and up to each
// agent reply with the reply's system prompt. One value per version, kept on
// the document: the `context-window` rule reads it, and so do the language
// server's inlay hints, code lenses and status, so every place that shows a
// total shows the same number.
//
// What a reply's total is: the view `msglint export --until` the reply sends
// to openai or anthropic, by the same estimate: its system prompt (its own
// agent's, none when that agent has none: systemPromptFor), the cells before
// it as the view has them (body, summary or nothing), and the reply's own
// body, which was generated in the window whatever its history setting says
// now. A reply's thinking paragraph is counted nowhere (cellTokens' `sent`):
// those exports leave it out by default (export/thinking.ts), as the
// providers leave out an earlier turn's reasoning.
//
// Cells are counted on first use, a chunk of 256 at a time in file order, as
// far as a question needs: the first screen of a long file reads its own
// cells, not the file (counting all of the 5,000-turn benchmark file takes
// about as long as linting it). A version made on the editor's path
// (DocumentEdit.replaced) shares the previous version's counts of every cell
// but the replaced and refreshed ones, as the engine does with a rule's
// per-cell values (engine/cell-values.ts): an edit elsewhere recounts
// nothing, and what one version counts of a shared cell the other has too.
// Totals are kept per chunk (ChunkedList.derived, shared by the versions that
// share the chunk); a total at one cell is the chunks' totals before it plus a
// walk of at most one chunk, so a request for a screen reads a screen of
// counts.

import { ChunkedList } from '../base/chunked-list.js';
import { Memo } from '../base/memo.js';
import { agentInfoAt } from '../agents/agents.js';
import { Cell, type MessageDocument } from '../syntax/document.js';
import { versionValue, type VersionMaker } from '../syntax/tree/message-document.js';
import { cellTokens, estimateTokens, MESSAGE_OVERHEAD_TOKENS } from './tokens.js';
import { historyMode, systemPromptFor } from './view.js';

/** An agent reply's part in the running total. */
export interface ReplyCount {
  /** What it adds to the view after it (0 when excluded, its summary's tokens in summary mode). */
  adds: number;
  /** Its own body's tokens as sent (without its thinking): what it took of the window when it was generated. */
  own: number;
  agent: string;
  /** The agent's `context_window` at the reply, when it has one. */
  window: number | undefined;
  /** The system prompt in force ('' for none). */
  prompt: string;
}

/** What a cell adds to the view's running total; a ReplyCount for an agent reply. */
export type ViewCount = number | ReplyCount;

/** A cell's ViewCount: a function of the cell and the file-wide facts only (agents, their settings, the default agent). */
export function viewCount(cell: Cell, doc: MessageDocument): ViewCount {
  const mode = historyMode(doc, cell);
  const adds = mode === 'exclude' ? 0 : cellTokens(doc, cell, mode === 'summary' ? 'summary' : 'sent');
  const agent = doc.kindOf(cell) === 'agent-reply' ? doc.typeOf(cell) : undefined;
  if (agent === undefined) return adds;
  const window = agentInfoAt(doc, agent, doc.offsetOf(cell))?.settings.contextWindow;
  return { adds, own: mode === 'include' ? adds : cellTokens(doc, cell, 'sent'), agent, window, prompt: systemPromptFor(doc, cell) ?? '' };
}

/** What a count adds to the running total. */
export function addsOf(count: ViewCount): number {
  return typeof count === 'number' ? count : count.adds;
}

/** The tokens a system prompt takes (none for ''): a message of its own. */
export function promptTokens(prompt: string): number {
  return prompt === '' ? 0 : MESSAGE_OVERHEAD_TOKENS + estimateTokens(prompt);
}

/**
 * A cell's count in the versions that share the slot, made on first use: an
 * edit gives the cells it replaces or refreshes new slots, so a slot is only
 * ever filled with the one value every version that holds it agrees on.
 */
interface Slot {
  count?: ViewCount;
}

function sumSlots(slots: readonly Slot[]): number {
  let sum = 0;
  for (let k = 0; k < slots.length; k++) sum += addsOf(slots[k]!.count!);
  return sum;
}

/** A reply at its place in the view: its count and the view's total up to and including it. */
export interface ReplyTotal {
  index: number;
  count: ReplyCount;
  /** System prompt + the cells before + the reply's own body. */
  tokens: number;
  /** The parts of `tokens`. */
  prompt: number;
  before: number;
}

/**
 * A version's running total (viewBudget). Cells are counted a chunk at a
 * time, in file order as far as a question needs: the screen at the top of
 * a long file is answered without counting the rest (countSome counts on in
 * slices, for a caller that wants the whole and the event loop free).
 */
export class ViewBudget {
  /** The running total before each chunk whose cells are all counted, and after the last of them. */
  private readonly starts: number[] = [0];
  private readonly prompts = new Map<string, number>();

  constructor(
    private readonly doc: MessageDocument,
    /** Every cell's slot, by cell index. */
    readonly slots: ChunkedList<Slot>,
  ) {}

  get length(): number {
    return this.slots.length;
  }

  /** How many cells, from the first, have their chunk's total counted. */
  get counted(): number {
    return this.slots.chunkStarts()[this.starts.length - 1]!;
  }

  /** Whether every cell is counted. */
  get complete(): boolean {
    return this.starts.length > this.slots.chunks.length;
  }

  /** The count of cell `index`. */
  countAt(index: number): ViewCount {
    const slot = this.slots.at(index)!;
    return (slot.count ??= viewCount(this.doc.cell(index)!, this.doc));
  }

  /** Counts the next chunk not counted yet; false when there was none. */
  private countNext(): boolean {
    const c = this.starts.length - 1;
    const chunks = this.slots.chunks;
    if (c >= chunks.length) return false;
    const first = this.slots.chunkStarts()[c]!;
    const chunk = chunks[c]!;
    for (let k = 0; k < chunk.length; k++) chunk[k]!.count ??= viewCount(this.doc.cell(first + k)!, this.doc);
    this.starts.push(this.starts[c]! + this.slots.derived(c, sumSlots));
    return true;
  }

  /** The running total before chunk `c` (counting the chunks before it). */
  private chunkStart(c: number): number {
    while (this.starts.length <= c && this.countNext()) {
      // counted one more
    }
    return this.starts[Math.min(c, this.starts.length - 1)]!;
  }

  /**
   * Counts chunks for about `ms` milliseconds (at least one), until the
   * cells before `upTo` are counted; true when they are.
   */
  countSome(ms: number, upTo = Infinity): boolean {
    const until = Date.now() + ms;
    while (this.counted < upTo && this.countNext() && Date.now() < until) {
      // one chunk per turn
    }
    return this.counted >= upTo || this.complete;
  }

  /** What the whole view's cells add up to (without a system prompt). */
  get total(): number {
    return this.chunkStart(this.slots.chunks.length);
  }

  /** The tokens of the cells before cell `index` in the view. */
  before(index: number): number {
    if (index <= 0) return 0;
    if (index >= this.slots.length) return this.total;
    const c = this.slots.chunkOf(index);
    let sum = this.chunkStart(c);
    for (let i = this.slots.chunkStarts()[c]!; i < index; i++) sum += addsOf(this.countAt(i));
    return sum;
  }

  /** The tokens of a system prompt, counted once per version. */
  promptTokens(prompt: string): number {
    let t = this.prompts.get(prompt);
    if (t === undefined) this.prompts.set(prompt, (t = promptTokens(prompt)));
    return t;
  }

  private replyTotal(index: number, count: ReplyCount, before: number): ReplyTotal {
    const prompt = this.promptTokens(count.prompt);
    return { index, count, tokens: prompt + before + count.own, prompt, before };
  }

  /**
   * Each cell of [from, to) in order with its count and the total of the
   * cells before it; a reply also with its total (ReplyTotal). Counts the
   * cells up to `to` not counted yet.
   */
  forEach(from: number, to: number, fn: (index: number, count: ViewCount, before: number, reply: ReplyTotal | undefined) => void): void {
    const end = Math.min(to, this.slots.length);
    let before = this.before(from);
    for (let i = Math.max(0, from); i < end; i++) {
      const count = this.countAt(i);
      fn(i, count, before, typeof count === 'number' ? undefined : this.replyTotal(i, count, before));
      before += addsOf(count);
    }
  }

  /** Every reply whose agent has a context window, with its total, in file order. */
  windowedReplies(fn: (reply: ReplyTotal) => void): void {
    const chunks = this.slots.chunks;
    for (let c = 0; c < chunks.length; c++) {
      this.chunkStart(c + 1); // counts chunk c
      let before = this.starts[c]!;
      const chunk = chunks[c]!;
      const first = this.slots.chunkStarts()[c]!;
      for (let k = 0; k < chunk.length; k++) {
        const count = chunk[k]!.count!;
        if (typeof count !== 'number' && count.window !== undefined) fn(this.replyTotal(first + k, count, before));
        before += addsOf(count);
      }
    }
  }
}

/** The whole view's tokens as the next request would send them, and the window it goes to. */
export interface WholeView {
  tokens: number;
  /** The default agent at the end of the file, whose system prompt and window count. */
  agent?: string;
  window?: number;
}

/**
 * The whole view, as `msglint export` without `--until` builds it: the
 * default agent's system prompt at the end of the file and every cell.
 * Counts every cell not counted yet.
 */
export function wholeView(doc: MessageDocument, budget: ViewBudget = viewBudget(doc)): WholeView {
  const agent = doc.defaultAgentAt(doc.text.length);
  const settings = agent !== undefined ? agentInfoAt(doc, agent, doc.text.length)?.settings : undefined;
  const tokens = budget.promptTokens(settings?.systemPrompt ?? '') + budget.total;
  const out: WholeView = { tokens };
  if (agent !== undefined) out.agent = agent;
  if (settings?.contextWindow !== undefined) out.window = settings.contextWindow;
  return out;
}

const budgets = new Memo<MessageDocument, ViewBudget>('document');

// The next version's total is made from this one's slots (a ViewBudget holds its version).
const budgetMaker: VersionMaker<ViewBudget, ChunkedList<Slot>> = {
  carry: (budget) => budget.slots,
  whole(doc) {
    const slots: Slot[] = [];
    for (let i = 0; i < doc.cellCount; i++) slots.push({});
    return new ViewBudget(doc, ChunkedList.of(slots));
  },
  updated(doc, before) {
    const r = doc.edit!.replaced;
    if (before.length - r.removed + r.added !== doc.cellCount) return budgetMaker.whole(doc);
    const added: Slot[] = [];
    for (let i = 0; i < r.added; i++) added.push({});
    const slots = before.edit().splice(r.cell, r.removed, added);
    for (const seg of r.refreshed) if (seg instanceof Cell) slots.set(doc.indexOf(seg), {});
    return new ViewBudget(doc, slots.done());
  },
};

/** The running total of a version, made once (from the previous version's slots when that one had a total). */
export function viewBudget(doc: MessageDocument): ViewBudget {
  return versionValue(budgets, doc, budgetMaker);
}

/** Whether a version's running total has been made (a caller that keeps it up to date across versions asks). */
export function hasViewBudget(doc: MessageDocument): boolean {
  return budgets.get(doc) !== undefined;
}
