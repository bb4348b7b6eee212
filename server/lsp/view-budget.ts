// The view's running total (server/llm-view/budget.ts) in the editor: counted
// in slices with pauses for messages, as far as a request needs, and worded
// the same way wherever it is shown (inlay hints, code lenses, the status).
//
// The `msglint/viewTotal` request (`{ textDocument: { uri } }`): the whole
// view's tokens against the default agent's window, as the VS Code status
// bar and the playground show it: `{ tokens, agent?, window?, label,
// tooltip }`, or null for a file that is not a message file.

import { LSPErrorCodes, ResponseError } from 'vscode-languageserver/node';
import { viewBudget, wholeView, type ViewBudget } from '../llm-view/budget.js';
import { messageDocument, type OpenMessageDocument, type ServerContext } from './context.js';
import { pause, SLICE_MS, type Unfinished } from './cooperative.js';
import type { DocumentState } from './documents.js';
import { describeError, guard } from './guard.js';

export const VIEW_TOTAL_REQUEST = 'msglint/viewTotal';

/**
 * The running total of an open document's version, counted at least up to
 * cell `upTo` (Infinity: every cell). A long count lets messages in every
 * slice: a cancel stops it ('cancelled'), and so does an edit ('stale': the
 * answer would be of a version the client no longer has). What was counted
 * stays counted for the versions that share the cells.
 */
export async function countedBudget(ctx: ServerContext, open: OpenMessageDocument, upTo: number, cancelled: () => boolean): Promise<ViewBudget | Unfinished> {
  const { state, doc } = open;
  const version = state.version;
  const budget = viewBudget(doc);
  while (!budget.countSome(SLICE_MS, upTo)) {
    await pause();
    if (cancelled()) return 'cancelled';
    if (ctx.store.get(state.uri) !== state || state.version !== version) return 'stale';
  }
  return budget;
}

/** A background slice: short, so that a keystroke that comes meanwhile waits little. */
const BACKGROUND_SLICE_MS = 2;

const completing = new WeakSet<DocumentState>();

/**
 * Counts the rest of an open document's view a slice at a time, between
 * messages, so that the next screen anywhere in the file is answered without
 * counting. Each slice counts the current version's (an edit meanwhile
 * keeps what was counted of the cells it did not change); it stops when all
 * is counted or the document is closed.
 */
export function countRestInBackground(ctx: ServerContext, state: DocumentState): void {
  if (completing.has(state)) return;
  completing.add(state);
  const run = async (): Promise<void> => {
    for (;;) {
      await pause();
      if (ctx.store.get(state.uri) !== state) return;
      const open = await messageDocument(ctx, state.uri);
      if (!open || viewBudget(open.doc).countSome(BACKGROUND_SLICE_MS)) return;
    }
  };
  run()
    .catch((e: unknown) => ctx.log.error(`msglint: counting the view's tokens failed: ${describeError(e)}`))
    .finally(() => completing.delete(state));
}

/** The protocol's answer to a request whose count did not finish (see cooperative.ts's unfinishedError). */
export function uncounted(method: string, why: Unfinished): ResponseError<unknown> {
  if (why === 'cancelled') return new ResponseError(LSPErrorCodes.RequestCancelled, `${method}: cancelled while counting tokens`);
  return new ResponseError(LSPErrorCodes.ServerCancelled, `${method}: the document changed while its tokens were counted`, { retriggerRequest: true });
}

/** A token count in a few characters: 340, 1.2k, 45.3k, 128k, 1.2M. */
export function compactTokens(n: number): string {
  const short = (x: number, unit: string): string => `${x < 100 ? Number(x.toFixed(1)) : Math.round(x)}${unit}`;
  if (n < 1000) return String(n);
  if (n < 999_500) return short(n / 1000, 'k');
  return short(n / 1_000_000, 'M');
}

/** A whole number as written in prose: 45,321 (by hand: the first toLocaleString of a process sets up ICU's formatters, tens of milliseconds). */
export const fullNumber = (n: number): string => String(n).replace(/\B(?=(\d{3})+$)/g, ',');

/** How full a window is, in whole percent (`<1%` for a little). */
function percent(tokens: number, window: number): string {
  const p = Math.round((tokens * 100) / window);
  return p === 0 && tokens > 0 ? '<1%' : `${p}%`;
}

/** `Σ 45.3k / 128k · 35%`, or `Σ 45.3k` without a window. */
export function totalLabel(tokens: number, window: number | undefined): string {
  return `Σ ${compactTokens(tokens)}${window !== undefined ? ` / ${compactTokens(window)} · ${percent(tokens, window)}` : ''}`;
}

/** What a total is: `about 45,321 tokens, 35% of the …`. */
export function totalTooltip(tokens: number, window: number | undefined, agent: string | undefined): string {
  const of = window !== undefined ? `, ${percent(tokens, window)} of the ${fullNumber(window)}-token context window of \`${agent}\`` : agent !== undefined ? ` (\`${agent}\` has no context_window)` : '';
  return `about ${fullNumber(tokens)} tokens${of}`;
}

export interface ViewTotal {
  tokens: number;
  agent?: string;
  window?: number;
  label: string;
  tooltip: string;
}

export function registerViewTotal(ctx: ServerContext): void {
  ctx.connection.onRequest(
    VIEW_TOTAL_REQUEST,
    guard(ctx.log, VIEW_TOTAL_REQUEST, null, async (params: unknown, token): Promise<ViewTotal | null> => {
      const uri = (params as { textDocument?: { uri?: unknown } } | null)?.textDocument?.uri;
      if (typeof uri !== 'string') throw new ResponseError(-32602, `${VIEW_TOTAL_REQUEST} takes { textDocument: { uri } }`);
      const open = await messageDocument(ctx, uri);
      if (!open) return null;
      const budget = await countedBudget(ctx, open, Infinity, () => token.isCancellationRequested);
      if (typeof budget === 'string') throw uncounted(VIEW_TOTAL_REQUEST, budget);
      const whole = wholeView(open.doc, budget);
      const tooltip =
        `The LLM view of the whole file, as \`msglint export\` builds it: ${totalTooltip(whole.tokens, whole.window, whole.agent)}.` +
        (whole.agent !== undefined ? ` The system prompt is that of \`${whole.agent}\`, the default agent at the end of the file.` : '');
      return { ...whole, label: totalLabel(whole.tokens, whole.window), tooltip };
    }),
  );
}
