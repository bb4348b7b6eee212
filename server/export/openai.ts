// OpenAI Chat Completions `messages` (seed 004's OpenAI formatter): the
// system prompt first, assistant `tool_calls` with `function.arguments` as a
// JSON string, and one `tool` message per call with its `tool_call_id`;
// a later system message (`role="system"`, spec section 9) in its place.
// The API takes ids of at most 40 characters (longer ones are mapped, see
// ids.ts) and names matching TOOL_NAME_PATTERN (names.ts).
// The types are a subset of the `openai` package's ChatCompletionMessageParam
// (a test type-checks the output against the package).

import type { IMessageFormatter } from './formatter.js';
import { toolCallIds } from './ids.js';
import type { InternalMessage } from './model.js';
import { toolNames } from './names.js';

export interface OpenAIToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type OpenAIMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: OpenAIToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

/** The id rules of `--to openai`: any characters, at most 40 of them. */
export const OPENAI_IDS = { safe: false, max: 40 } as const;

export class OpenAIFormatter implements IMessageFormatter<OpenAIMessage> {
  format(history: Readonly<InternalMessage[]>, systemPrompt?: string | null): OpenAIMessage[] {
    const ids = toolCallIds(history, OPENAI_IDS);
    const names = toolNames(history, true);
    const out: OpenAIMessage[] = [];
    if (systemPrompt) out.push({ role: 'system', content: systemPrompt });
    for (const m of history) {
      switch (m.role) {
        case 'system':
          out.push({ role: 'system', content: m.content ?? '' });
          break;
        case 'user':
          out.push({ role: 'user', content: m.content ?? '' });
          break;
        case 'assistant': {
          const msg: OpenAIMessage = { role: 'assistant', content: m.content };
          if (m.toolCalls?.length) {
            msg.tool_calls = m.toolCalls.map((c) => ({ id: ids.get(c.id)!, type: 'function', function: { name: names.of(c), arguments: c.function.arguments } }));
          }
          out.push(msg);
          break;
        }
        case 'tool':
          out.push({ role: 'tool', tool_call_id: ids.get(m.toolCallId!)!, content: m.content ?? '' });
          break;
      }
    }
    return out;
  }
}
