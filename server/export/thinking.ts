// An agent reply's thinking paragraph in a target that has no place for
// reasoning (spec section 9, point 7). The AI SDK's `reasoning` part and
// context JSON's `reasoning` keep it apart, and the console shows it as the
// reply's reason; OpenAI's Chat Completions, Anthropic's Messages and the
// AI SDK 3 messages have no field that takes an earlier turn's reasoning
// back (Anthropic takes a thinking block only with the signature its API
// made, which a message file does not keep), so by default the thinking is
// left out there, as those APIs leave it out; `text` sends it as the `[…]`
// paragraph that starts the assistant's text, for an agent whose model reads
// its own bracketed thinking back. Either way the export says so.

import type { ExportFormat, InternalMessage, LLMView } from './model.js';
import { splitThinking } from './text.js';

export const THINKING_MODES = ['omit', 'text'] as const;
export type ThinkingMode = (typeof THINKING_MODES)[number];

/** What each target without a place for reasoning is, for the note that says what became of the thinking. */
const WITHOUT_REASONING: Partial<Record<ExportFormat, string>> = {
  openai: 'Chat Completions has no field for an earlier turn’s reasoning',
  anthropic: 'the Anthropic API takes an earlier turn’s thinking only as a thinking block with its signature, which a message file does not keep',
  'vercel-legacy': 'the AI SDK 3 messages have no place for reasoning',
};

/** Whether `to` has no place for a reply's thinking, so that the mode decides. */
export function thinkingFollowsMode(to: ExportFormat): boolean {
  return WITHOUT_REASONING[to] !== undefined;
}

/** The replies of the view that have a thinking paragraph. */
function thinkingReplies(view: LLMView): InternalMessage[] {
  return view.messages.filter((m) => m.role === 'assistant' && m.source.thinking !== undefined);
}

/**
 * The view as `to` gets it: with `omit` (the default) and a target without a
 * place for reasoning, each reply's content loses its thinking paragraph (a
 * reply that was nothing else, and asked for no tool, is left out).
 */
export function applyThinking(view: LLMView, to: ExportFormat, mode: ThinkingMode = 'omit'): LLMView {
  if (mode === 'text' || !thinkingFollowsMode(to) || thinkingReplies(view).length === 0) return view;
  const messages: InternalMessage[] = [];
  for (const m of view.messages) {
    if (m.role !== 'assistant' || m.source.thinking === undefined || m.content === null) {
      messages.push(m);
      continue;
    }
    const rest = splitThinking(m.content).text;
    if (rest === '' && !m.toolCalls?.length) continue;
    messages.push({ ...m, content: rest === '' ? null : rest });
  }
  return { ...view, messages };
}

/** The line the export says about the thinking it left out or sent as text, if the view has any. */
export function thinkingNote(view: LLMView, to: ExportFormat, mode: ThinkingMode = 'omit'): { cell: string; message: string } | undefined {
  const why = WITHOUT_REASONING[to];
  const replies = thinkingReplies(view);
  if (why === undefined || replies.length === 0) return undefined;
  const n = replies.length;
  const cells = replies.slice(0, 5).map((m) => m.source.cells[0]).join(', ') + (n > 5 ? ', …' : '');
  const what = `the thinking paragraph${n === 1 ? '' : 's'} of ${n} ${n === 1 ? 'reply' : 'replies'} (${n === 1 ? 'cell' : 'cells'} ${cells})`;
  // A reply of thinking alone that asked for no tool has nothing left to send.
  const emptied = replies.filter((m) => !m.toolCalls?.length && (m.content === null || splitThinking(m.content).text === '')).map((m) => m.source.cells[0]);
  const gone = emptied.length ? `; ${emptied.length === 1 ? 'the reply' : 'the replies'} ${emptied.join(', ')} held nothing else and ${emptied.length === 1 ? 'is' : 'are'} left out` : '';
  const message =
    mode === 'omit'
      ? `left out ${what}: ${why} (--thinking text sends ${n === 1 ? 'it' : 'them'} as text)${gone}`
      : `sent ${what} as text at the start of the assistant's content (--thinking text)`;
  return { cell: replies[0]!.source.cells[0]!, message };
}
