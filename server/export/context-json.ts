// Seed 001's indexed conversation: `index`, `turn`, `timestamp` (ISO 8601),
// `role` (system, user or assistant only) and `content` (the system prompt;
// `{userid, text}` for a user; `{toolCall, text, reasoning}` for the
// assistant, a call's arguments beside `toolCall` as in the seed's example).
//
// Decisions where the seed leaves room:
// - An agent reply is one entry `{text, reasoning}`, its thinking paragraph
//   being the reasoning; each tool call is an entry of its own
//   `{toolCall, ...arguments, reasoning}`, its reasoning being the text
//   around the `<tool>` element. A reply with `reasoning=1` ("a step that
//   leads to tool calls") has no entry of its own when it has calls: all its
//   text is the reasoning of its first call (the seed: "all tool calls must
//   include reasoning when possible").
// - The roles leave no place for tool results, so a call's result is in its
//   entry: `result` (the text) and `isError: true` for status=error.
// - Arguments are spread beside `toolCall` as in the seed's example; when
//   one of them is named `toolCall`, `reasoning`, `result` or `isError` they
//   go under `arguments` instead.
// - `turn` starts at 0 and grows each time the speaker changes between user
//   and assistant (the seed: user 0, then assistant 1, 1).
// - `timestamp` is the cell's `time` in UTC; a cell without one has the
//   previous entry's, entries before the first time have the first time, and
//   a file without times has null. The system entry has the first time.
// - `userid` is the cell's `userid` attribute, else `user`.

import type { JsonValue } from '../tool-calls/index.js';
import { resultFor, type IMessageFormatter } from './formatter.js';
import type { InternalMessage } from './model.js';

export interface ContextUserContent {
  userid: string;
  text: string;
}

export interface ContextAssistantContent {
  toolCall?: string;
  text?: string;
  reasoning?: string;
  result?: string;
  isError?: true;
  [argument: string]: JsonValue | undefined;
}

export interface ContextEntry {
  index: number;
  turn: number;
  timestamp: string | null;
  role: 'system' | 'user' | 'assistant';
  content: string | ContextUserContent | ContextAssistantContent;
}

/** An entry with what the console display adds. */
export interface ContextItem {
  entry: ContextEntry;
  agent?: string;
  /** For a tool call entry: its arguments. */
  args?: Record<string, JsonValue>;
}

const RESERVED = new Set(['toolCall', 'reasoning', 'result', 'isError']);

const join = (...parts: (string | undefined)[]): string | undefined => {
  const kept = parts.filter((p): p is string => p !== undefined && p.trim() !== '');
  return kept.length ? kept.join('\n\n') : undefined;
};

export function contextItems(history: Readonly<InternalMessage[]>, systemPrompt?: string | null): ContextItem[] {
  type Draft = { role: ContextEntry['role']; time?: string; content: ContextEntry['content']; agent?: string; args?: Record<string, JsonValue> };
  const drafts: Draft[] = [];
  history.forEach((m, i) => {
    if (m.role === 'user') {
      drafts.push({ role: 'user', time: m.source.time, content: { userid: m.source.userid ?? 'user', text: m.content ?? '' } });
      return;
    }
    if (m.role !== 'assistant') return; // tool results are in their call's entry
    const calls = m.toolCalls ?? [];
    let carried: string | undefined;
    if (m.source.kind === 'reply') {
      const { thinking, text } = m.source;
      if (m.source.reasoning && calls.length) carried = join(thinking, text);
      else {
        const content: ContextAssistantContent = {};
        if (text) content.text = text;
        if (thinking) content.reasoning = thinking;
        if (content.text !== undefined || content.reasoning !== undefined) drafts.push({ role: 'assistant', time: m.source.time, content, agent: m.source.agent });
      }
    }
    calls.forEach((call, n) => {
      const content: ContextAssistantContent = { toolCall: call.function.name };
      const args = call.input;
      if (Object.keys(args).some((k) => RESERVED.has(k))) content.arguments = args;
      else for (const [k, v] of Object.entries(args)) content[k] = v;
      const reasoning = join(n === 0 ? carried : undefined, call.text);
      if (reasoning !== undefined) content.reasoning = reasoning;
      const result = resultFor(history, i + 1, call.id);
      if (result) {
        content.result = result.content ?? '';
        if (result.isError) content.isError = true;
      }
      drafts.push({ role: 'assistant', time: call.time ?? m.source.time, content, agent: m.source.agent, args });
    });
  });

  const first = drafts.find((d) => d.time !== undefined)?.time ?? null;
  const items: ContextItem[] = [];
  if (systemPrompt) items.push({ entry: { index: 0, turn: 0, timestamp: first, role: 'system', content: systemPrompt } });
  let turn = 0;
  let lastRole: string | undefined;
  let time: string | null = first;
  for (const d of drafts) {
    if (lastRole !== undefined && d.role !== lastRole) turn++;
    lastRole = d.role;
    if (d.time !== undefined) time = d.time;
    const item: ContextItem = { entry: { index: items.length, turn, timestamp: time, role: d.role, content: d.content } };
    if (d.agent !== undefined) item.agent = d.agent;
    if (d.args !== undefined) item.args = d.args;
    items.push(item);
  }
  return items;
}

export class ContextJsonFormatter implements IMessageFormatter<ContextEntry> {
  format(history: Readonly<InternalMessage[]>, systemPrompt?: string | null): ContextEntry[] {
    return contextItems(history, systemPrompt).map((i) => i.entry);
  }
}
