// Anthropic Messages (seed 004's Anthropic formatter): the system prompt
// apart, content blocks, `tool_use` blocks in the assistant message and
// `tool_result` blocks (with `is_error` for status=error) in the user message
// after it; consecutive messages of one role are merged into one, as the API
// requires strictly alternating roles, with tool results first in a user
// message. The types are a subset of `@anthropic-ai/sdk`'s MessageParam (a
// test type-checks the output against the package).
//
// Tool use ids must match ^[a-zA-Z0-9_-]+$, so the dots of cell ids become
// underscores (`2.k7f3q` -> `2_k7f3q`), with a suffix in the rare case that
// makes two ids equal (ids.ts). Names follow TOOL_NAME_PATTERN (names.ts).
//
// The API takes one system prompt, `system`, before the conversation (a
// `system` role inside `messages` only in a beta that not every model takes).
// A later system message (`role="system"`, spec section 9) is therefore sent
// in a user turn at its place, as a text block that says what it is:
// `<system>` and `</system>` lines around its text (systemText); merged with
// the user turn around it like any user content, after the tool results of
// that turn. The CLI says so on stderr (notes.ts).
//
// A `tool_use` block's `input` must be an object: a call's typed arguments,
// or for `<arguments type="json">` the text's JSON object; when the text is
// no JSON object (not JSON, or an array, a number, …) the input is `{}`, and
// export notes say so.
//
// A view that opens with an assistant message (a file that starts with an
// agent reply, or with a code cell sent as a call) is sent as it is: no user
// message is made up before it, as that would be content the file does not
// have; the API has refused such a request ("first message must use the
// user role"), and the CLI says so on stderr, for the user to add a message
// to the file if theirs still does. A view that ends with an assistant
// message is sent as it is too: the API takes it as a prefill to continue
// (several current models reject prefill; the CLI says so on stderr).

import type { JsonValue } from '../tool-calls/index.js';
import type { IMessageFormatter } from './formatter.js';
import { toolCallIds } from './ids.js';
import type { InternalMessage } from './model.js';
import { toolNames } from './names.js';

/** A later system message as the text block of a user turn that `--to anthropic` sends for it. */
export function systemText(content: string): string {
  return `<system>\n${content}\n</system>`;
}

/** The id rules of `--to anthropic`. */
export const ANTHROPIC_IDS = { safe: true } as const;

export type AnthropicBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, JsonValue> }
  | { type: 'tool_result'; tool_use_id: string; content?: string; is_error?: boolean };

export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: AnthropicBlock[];
}

/** What `--to anthropic` writes: the parameters `system` and `messages` of a request. */
export interface AnthropicRequest {
  system?: string;
  messages: AnthropicMessage[];
}

export class AnthropicFormatter implements IMessageFormatter<AnthropicMessage> {
  format(history: Readonly<InternalMessage[]>): AnthropicMessage[] {
    const ids = toolCallIds(history, ANTHROPIC_IDS);
    const names = toolNames(history, true);
    const out: AnthropicMessage[] = [];
    const push = (role: AnthropicMessage['role'], blocks: AnthropicBlock[]) => {
      if (!blocks.length) return;
      const last = out[out.length - 1];
      if (last && last.role === role) last.content.push(...blocks);
      else out.push({ role, content: blocks });
    };
    for (const m of history) {
      const text: AnthropicBlock[] = m.content !== null && m.content.trim() !== '' ? [{ type: 'text', text: m.content }] : [];
      switch (m.role) {
        case 'system':
          if (m.content !== null && m.content.trim() !== '') push('user', [{ type: 'text', text: systemText(m.content) }]);
          break;
        case 'user':
          push('user', text);
          break;
        case 'assistant':
          push('assistant', [
            ...text,
            ...(m.toolCalls ?? []).map((c): AnthropicBlock => ({ type: 'tool_use', id: ids.get(c.id)!, name: names.of(c), input: c.input })),
          ]);
          break;
        case 'tool': {
          const block: AnthropicBlock = { type: 'tool_result', tool_use_id: ids.get(m.toolCallId!)! };
          if (m.content !== null && m.content !== '') block.content = m.content;
          if (m.isError) block.is_error = true;
          push('user', [block]);
          break;
        }
      }
    }
    // A final assistant message is a prefill, which may not end with white space.
    const last = out[out.length - 1];
    const lastBlock = last?.role === 'assistant' ? last.content[last.content.length - 1] : undefined;
    if (lastBlock?.type === 'text') lastBlock.text = lastBlock.text.trimEnd();
    return out;
  }

  getSystemPrompt(systemPrompt: string | null): string | null | undefined {
    return systemPrompt;
  }
}
