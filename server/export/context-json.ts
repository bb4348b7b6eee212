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
//   go under `arguments` instead. So does what `<arguments type="json">`
//   holds when it is no JSON object: its JSON value, or its text when it is
//   not JSON.
// - `turn` starts at 0 and grows each time the speaker changes between user
//   and assistant (the seed: user 0, then assistant 1, 1).
// - `timestamp` (ISO 8601, UTC) is always there. It is the `time` of the
//   entry's cell when it has one. An entry whose cell has none is marked
//   `timestampEstimated: true` and takes the time of the cell before it (a
//   call, its reply's; else the timestamp of the entry before it: the
//   message came after that one), or for entries before the first
//   time, the first time; in a file without any `time`, the `time` option
//   (the CLI: the file's modification time; by default, the time of the
//   export). The system entry has the first entry's and is marked too.
// - A tool call's entry takes the `time` of the tool call cell, not of its
//   reply.
// - A tool name is sent with its MCP server (`SERVER__NAME`) only when tools
//   of one name from two servers are in the view (names.ts).
// - `userid` is the cell's `userid` attribute, else `user`.
// - A later system message (`role="system"`, spec section 9) is a `system`
//   entry at its place (content: its text), in the turn of the entry before
//   it: it is nobody's turn. Those before every other message are in the
//   first entry, the system prompt.

import type { JsonValue } from '../tool-calls/index.js';
import { resultFor, type IMessageFormatter } from './formatter.js';
import type { InternalMessage } from './model.js';
import { toolNames } from './names.js';

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
  timestamp: string;
  /** The entry's cell has no `time` of its own (see above for what is used). */
  timestampEstimated?: true;
  role: 'system' | 'user' | 'assistant';
  content: string | ContextUserContent | ContextAssistantContent;
}

export interface ContextOptions {
  /** The timestamp of entries in a view without any `time` (ISO 8601); default: now. */
  time?: string;
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

export function contextItems(history: Readonly<InternalMessage[]>, systemPrompt?: string | null, options: ContextOptions = {}): ContextItem[] {
  const names = toolNames(history, false);
  // `after`: the time of the reply a call without its own time belongs to (the cell right before it).
  type Draft = { role: ContextEntry['role']; time?: string; after?: string; content: ContextEntry['content']; agent?: string; args?: Record<string, JsonValue> };
  const drafts: Draft[] = [];
  history.forEach((m, i) => {
    if (m.role === 'system') {
      drafts.push({ role: 'system', time: m.source.time, content: m.content ?? '' });
      return;
    }
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
      const content: ContextAssistantContent = { toolCall: names.of(call) };
      const raw = call.rawArguments;
      const notObject = raw !== undefined && (raw.value === undefined || raw.value === null || typeof raw.value !== 'object' || Array.isArray(raw.value));
      const args: Record<string, JsonValue> = notObject ? { arguments: raw.value !== undefined ? raw.value : raw.text } : call.input;
      if (notObject) content.arguments = args.arguments;
      else if (Object.keys(args).some((k) => RESERVED.has(k))) content.arguments = args;
      else for (const [k, v] of Object.entries(args)) content[k] = v;
      const reasoning = join(n === 0 ? carried : undefined, call.text);
      if (reasoning !== undefined) content.reasoning = reasoning;
      const result = resultFor(history, i + 1, call.id);
      if (result) {
        content.result = result.content ?? '';
        if (result.isError) content.isError = true;
      }
      const after = m.source.kind === 'reply' ? m.source.time : undefined;
      drafts.push({ role: 'assistant', time: call.time, after, content, agent: m.source.agent, args });
    });
  });

  const first = drafts.find((d) => d.time !== undefined)?.time ?? options.time ?? new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const items: ContextItem[] = [];
  if (systemPrompt) items.push({ entry: { index: 0, turn: 0, timestamp: first, timestampEstimated: true, role: 'system', content: systemPrompt } });
  let turn = 0;
  let lastRole: string | undefined;
  let time = first;
  for (const d of drafts) {
    // A system entry is nobody's turn: the speaker does not change.
    if (d.role !== 'system') {
      if (lastRole !== undefined && d.role !== lastRole) turn++;
      lastRole = d.role;
    }
    time = d.time ?? d.after ?? time;
    const estimated = d.time === undefined ? { timestampEstimated: true as const } : {};
    const entry: ContextEntry = { index: items.length, turn, timestamp: time, ...estimated, role: d.role, content: d.content };
    const item: ContextItem = { entry };
    if (d.agent !== undefined) item.agent = d.agent;
    if (d.args !== undefined) item.args = d.args;
    items.push(item);
  }
  return items;
}

export class ContextJsonFormatter implements IMessageFormatter<ContextEntry> {
  constructor(private readonly options: ContextOptions = {}) {}

  format(history: Readonly<InternalMessage[]>, systemPrompt?: string | null): ContextEntry[] {
    return contextItems(history, systemPrompt, this.options).map((i) => i.entry);
  }
}
