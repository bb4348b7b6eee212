// OpenAI Chat Completions `messages` (seed 004's OpenAI formatter): the
// system prompt first, assistant `tool_calls` with `function.arguments` as a
// JSON string, and one `tool` message per call with its `tool_call_id`;
// a later system message (`role="system"`, spec section 9) in its place.
// The API takes ids of at most 40 characters (longer ones are mapped, see
// ids.ts) and names matching TOOL_NAME_PATTERN (names.ts). A cell's `name`
// attribute is the message's `name`: a participant's name, or a tool
// message's own (not in the package's type for tool messages, but the API
// takes it, and KodeAgent's histories and Gemini's OpenAI endpoint need it);
// a tool message's name equal to its call's is sent as the call's is.
// The types are a subset of the `openai` package's ChatCompletionMessageParam
// (a test type-checks the output against the package).

import type { IMessageFormatter } from './formatter.js';
import { toolCallIds } from './ids.js';
import type { InternalMessage, InternalToolCall } from './model.js';
import { toolNames } from './names.js';

export interface OpenAIToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type OpenAIMessage =
  | { role: 'system'; content: string; name?: string }
  | { role: 'user'; content: string; name?: string }
  | { role: 'assistant'; content: string | null; name?: string; tool_calls?: OpenAIToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string; name?: string };

/** The id rules of `--to openai`: any characters, at most 40 of them. */
export const OPENAI_IDS = { safe: false, max: 40 } as const;

export class OpenAIFormatter implements IMessageFormatter<OpenAIMessage> {
  format(history: Readonly<InternalMessage[]>, systemPrompt?: string | null): OpenAIMessage[] {
    const ids = toolCallIds(history, OPENAI_IDS);
    const names = toolNames(history, true);
    const calls = new Map<string, InternalToolCall>();
    const out: OpenAIMessage[] = [];
    if (systemPrompt) out.push({ role: 'system', content: systemPrompt });
    for (const m of history) {
      const name = m.source.name !== undefined ? { name: m.source.name } : {};
      switch (m.role) {
        case 'system':
          out.push({ role: 'system', content: m.content ?? '', ...name });
          break;
        case 'user':
          out.push({ role: 'user', content: m.content ?? '', ...name });
          break;
        case 'assistant': {
          const msg: OpenAIMessage = { role: 'assistant', content: m.content, ...name };
          if (m.toolCalls?.length) {
            for (const c of m.toolCalls) calls.set(c.id, c);
            msg.tool_calls = m.toolCalls.map((c) => ({ id: ids.get(c.id)!, type: 'function', function: { name: names.of(c), arguments: c.function.arguments } }));
          }
          out.push(msg);
          break;
        }
        case 'tool': {
          const msg: OpenAIMessage = { role: 'tool', tool_call_id: ids.get(m.toolCallId!)!, content: m.content ?? '' };
          const call = calls.get(m.toolCallId!);
          if (m.source.name !== undefined) msg.name = call && m.source.name === call.function.name ? names.of(call) : m.source.name;
          out.push(msg);
          break;
        }
      }
    }
    return out;
  }
}
