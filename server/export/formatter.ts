// One formatter per target, behind seed 004's IMessageFormatter: `format`
// turns the provider-neutral history into the target's messages (with the
// system prompt among them when the target puts it there), and
// `getSystemPrompt`, for targets that take it apart (Anthropic, Vercel),
// gives the value sent beside the messages.

import type { InternalMessage } from './model.js';

export interface IMessageFormatter<M = unknown> {
  format(history: Readonly<InternalMessage[]>, systemPrompt?: string | null): M[];
  getSystemPrompt?(systemPrompt: string | null): string | null | undefined;
}

/** The messages that answer `call` (the `tool` messages right after an assistant message). */
export function resultFor(history: Readonly<InternalMessage[]>, from: number, callId: string): InternalMessage | undefined {
  for (let i = from; i < history.length; i++) {
    const m = history[i]!;
    if (m.role !== 'tool') break;
    if (m.toolCallId === callId) return m;
  }
  return undefined;
}
