// `--to vercel`: the Vercel AI SDK's `ModelMessage[]` (the shape of `ai` 5
// and later, checked against `ai` 6's modelMessageSchema and generateText in
// the tests), with the system prompt apart: `{system, messages}`, to be
// passed as `generateText({model, system, messages})` (`ai` 7 calls the
// field `instructions` and still takes `system`; it refuses a system message
// inside `messages` by default).
//
// - user: `{role: 'user', content: string}`; a later system message
//   (`role="system"`, spec section 9): `{role: 'system', content: string}` in
//   its place (the SDK's providers send it as their APIs allow);
//   generateText takes it with `allowSystemInMessages: true` (ai 7 refuses
//   it without, ai 6 warns), which the CLI says on stderr (notes.ts).
// - assistant: content parts in order: `{type: 'reasoning'}` for the
//   thinking paragraph of a reply (when the file marks one), `{type: 'text'}`,
//   then one `{type: 'tool-call', toolCallId, toolName, input}` per call;
//   parallel calls stay in one message. `input` is the typed arguments; for
//   `<arguments type="json">` it is the text's JSON value, of any kind (the
//   SDK's schema takes any value: `z.unknown()`), or, when the text is not
//   JSON, the text itself as a string (export notes say so: the SDK's
//   providers send `input` on as JSON, so such a string reaches OpenAI
//   JSON-encoded, and Anthropic takes only an object).
// - the results of an assistant message's calls: one `role: 'tool'` message
//   right after it, one `{type: 'tool-result', toolCallId, toolName, output}`
//   per call, `output` being `{type: 'text', value}`, or `{type:
//   'error-text', value}` for status=error; a result cell with `output=json`
//   (an AI SDK JSON output, as import writes it) whose text is JSON is
//   `{type: 'json', value}` (`error-json` for status=error), and its
//   `toolName` is the result's own `name` when it has one.
// - ids and names: the SDK hands them to whichever provider it calls, so
//   they follow the strictest of OpenAI and Anthropic: ids of `A-Z a-z 0-9 _
//   -` at most 40 long (ids.ts), names matching TOOL_NAME_PATTERN (names.ts).

import type { JsonValue } from '../tool-calls/index.js';
import type { IMessageFormatter } from './formatter.js';
import { toolCallIds } from './ids.js';
import type { InternalMessage, InternalToolCall } from './model.js';
import { toolNames } from './names.js';
import { splitThinking } from './text.js';

export type VercelAssistantPart =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string }
  | { type: 'tool-call'; toolCallId: string; toolName: string; input: JsonValue };

export interface VercelToolResultPart {
  type: 'tool-result';
  toolCallId: string;
  toolName: string;
  output: { type: 'text' | 'error-text'; value: string } | { type: 'json' | 'error-json'; value: JsonValue };
}

export type VercelMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: VercelAssistantPart[] }
  | { role: 'tool'; content: VercelToolResultPart[] };

/** What `--to vercel` writes: the `system` and `messages` of a generateText call. */
export interface VercelRequest {
  system?: string;
  messages: VercelMessage[];
}

/** A call's `input` for the AI SDK: the typed arguments, or what `<arguments type="json">` holds (see above). */
export function vercelInput(c: InternalToolCall): JsonValue {
  const raw = c.rawArguments;
  if (!raw) return c.input;
  return raw.value !== undefined ? raw.value : raw.text;
}

/** The id rules of `--to vercel` (and the OpenAI limit on length). */
export const VERCEL_IDS = { safe: true, max: 40 } as const;

export class VercelFormatter implements IMessageFormatter<VercelMessage> {
  format(history: Readonly<InternalMessage[]>): VercelMessage[] {
    const ids = toolCallIds(history, VERCEL_IDS);
    const names = toolNames(history, true);
    const sentName = new Map<string, string>();
    const out: VercelMessage[] = [];
    for (const m of history) {
      if (m.role === 'system') {
        out.push({ role: 'system', content: m.content ?? '' });
      } else if (m.role === 'user') {
        out.push({ role: 'user', content: m.content ?? '' });
      } else if (m.role === 'assistant') {
        const parts: VercelAssistantPart[] = [];
        const content = m.content ?? '';
        const split = m.source.thinking !== undefined ? splitThinking(content) : { text: content };
        if (split.thinking) parts.push({ type: 'reasoning', text: split.thinking });
        if (split.text.trim() !== '') parts.push({ type: 'text', text: split.text });
        for (const c of m.toolCalls ?? []) {
          sentName.set(c.id, names.of(c));
          parts.push({ type: 'tool-call', toolCallId: ids.get(c.id)!, toolName: names.of(c), input: vercelInput(c) });
        }
        out.push({ role: 'assistant', content: parts });
      } else {
        const own = m.source.name !== undefined && m.source.name !== m.name ? m.source.name : undefined;
        const part: VercelToolResultPart = {
          type: 'tool-result',
          toolCallId: ids.get(m.toolCallId!)!,
          toolName: own ?? sentName.get(m.toolCallId!) ?? m.name ?? '',
          output: resultOutput(m),
        };
        const last = out[out.length - 1];
        if (last?.role === 'tool') last.content.push(part);
        else out.push({ role: 'tool', content: [part] });
      }
    }
    return out;
  }

  getSystemPrompt(systemPrompt: string | null): string | null | undefined {
    return systemPrompt;
  }
}

/** A result's `output`: its JSON value when it is marked `output=json` and its text is JSON, else its text. */
function resultOutput(m: InternalMessage): VercelToolResultPart['output'] {
  const value = m.source.output === 'json' ? jsonValue(m.content ?? '') : undefined;
  if (value !== undefined) return { type: m.isError ? 'error-json' : 'json', value };
  return { type: m.isError ? 'error-text' : 'text', value: m.content ?? '' };
}

/** The JSON value of a text, or undefined when it is not JSON. */
export function jsonValue(text: string): JsonValue | undefined {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return undefined;
  }
}
