// `--to vercel-legacy`: the Vercel AI SDK's message shape of seed 004, that
// of the SDK before version 4 (`Message` of ai 3.x, where the `function`
// role was already deprecated; ai 4 to 7 reject it, see vercel.ts): the
// system prompt in the messages, `function_call` on the assistant message
// instead of `tool_calls`, and tool results as `function` role messages with
// the tool's name.
//
// `function_call` holds one call, so an assistant message with several
// parallel calls becomes one message per call, each followed by its result
// (the first keeps the text). The shape has no call ids: a result is paired
// with the call right before it.

import type { IMessageFormatter } from './formatter.js';
import { resultFor } from './formatter.js';
import type { InternalMessage } from './model.js';
import { toolNames } from './names.js';

export type VercelLegacyMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; function_call?: { name: string; arguments: string } }
  | { role: 'function'; name: string; content: string };

export class VercelLegacyFormatter implements IMessageFormatter<VercelLegacyMessage> {
  format(history: Readonly<InternalMessage[]>, systemPrompt?: string | null): VercelLegacyMessage[] {
    const names = toolNames(history, true);
    const out: VercelLegacyMessage[] = [];
    if (systemPrompt) out.push({ role: 'system', content: systemPrompt });
    for (let i = 0; i < history.length; i++) {
      const m = history[i]!;
      if (m.role === 'system') out.push({ role: 'system', content: m.content ?? '' });
      if (m.role === 'user') out.push({ role: 'user', content: m.content ?? '' });
      if (m.role !== 'assistant') continue; // tool messages are written after their call
      const calls = m.toolCalls ?? [];
      if (!calls.length) {
        out.push({ role: 'assistant', content: m.content ?? '' });
        continue;
      }
      calls.forEach((call, n) => {
        const name = names.of(call);
        out.push({ role: 'assistant', content: n === 0 ? (m.content ?? '') : '', function_call: { name, arguments: call.function.arguments } });
        const result = resultFor(history, i + 1, call.id);
        out.push({ role: 'function', name, content: result?.content ?? '' });
      });
    }
    return out;
  }

  getSystemPrompt(): null {
    return null;
  }
}
