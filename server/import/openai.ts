// OpenAI Chat Completions `messages` (or a request body `{model, messages}`),
// with the legacy `function_call` / `function` role of older SDKs; the same
// reader serves the AI SDK 3.x `Message[]` (vercel-legacy), which has that
// shape plus `id` and `createdAt`.

import { argsFromText, Dropped, extraKeys, ImportError, isObject, textOf, timeOf, type Conversation, type ImportedCall, type Turn } from './model.js';

const MESSAGE_KEYS = ['role', 'content', 'tool_calls', 'tool_call_id', 'function_call', 'name'];

export function readOpenAI(data: unknown, dropped: Dropped, legacy = false): Conversation {
  let messages: unknown = data;
  const conv: Conversation = { turns: [] };
  if (isObject(data)) {
    messages = data.messages;
    if (typeof data.model === 'string') conv.model = data.model;
    const other = Object.keys(data).filter((k) => k !== 'messages' && k !== 'model');
    if (other.length) dropped.add(`request fields (${other.join(', ')})`, -1, other.length);
  }
  if (!Array.isArray(messages)) throw new ImportError('expected an array of messages or an object with "messages"');
  messages.forEach((m, at) => {
    if (!isObject(m)) throw new ImportError(`message ${at + 1} is not an object`);
    const role = m.role;
    const known = legacy ? [...MESSAGE_KEYS, 'id', 'createdAt'] : MESSAGE_KEYS;
    const time = legacy ? timeOf(m.createdAt) : undefined;
    const base = { at, ...(time !== undefined ? { time } : {}) };
    if (legacy && m.id !== undefined) dropped.add('message ids', at);
    switch (role) {
      case 'system':
      case 'developer':
        extraKeys(m, [...known, 'name'].filter((k) => k !== 'id' || !legacy), at, dropped);
        conv.turns.push({ role: 'system', text: textOf(m.content, at, dropped), ...base });
        if (role === 'developer') dropped.add('changed: developer messages written as system messages', at);
        break;
      case 'user': {
        extraKeys(m, known.filter((k) => k !== 'name' && k !== 'id'), at, dropped);
        if (m.name !== undefined) dropped.add('provider-only fields `name`', at);
        conv.turns.push({ role: 'user', text: textOf(m.content, at, dropped), ...base });
        break;
      }
      case 'assistant': {
        extraKeys(m, [...known.filter((k) => k !== 'id'), 'reasoning_content', 'thinking_blocks', 'refusal'], at, dropped);
        const turn: Extract<Turn, { role: 'assistant' }> = { role: 'assistant', text: textOf(m.content, at, dropped, '\n\n', ['text']), calls: [], ...base };
        if (typeof m.reasoning_content === 'string' && m.reasoning_content !== '') turn.thinking = m.reasoning_content;
        if (Array.isArray(m.thinking_blocks)) {
          const text = m.thinking_blocks.map((b) => (isObject(b) && typeof b.thinking === 'string' ? b.thinking : '')).join('\n');
          if (text.trim() !== '') turn.thinking = text;
          dropped.add('thinking blocks (their signatures)', at, m.thinking_blocks.length);
        }
        if (typeof m.refusal === 'string' && m.refusal !== '') dropped.add('refusals', at);
        for (const c of Array.isArray(m.tool_calls) ? m.tool_calls : []) {
          if (!isObject(c) || !isObject(c.function) || typeof c.function.name !== 'string') {
            dropped.add('tool calls of an unknown shape', at);
            continue;
          }
          const call: ImportedCall = { name: c.function.name, args: argsFromText(typeof c.function.arguments === 'string' ? c.function.arguments : JSON.stringify(c.function.arguments ?? {})) };
          if (typeof c.id === 'string') call.id = c.id;
          if (c.type !== undefined && c.type !== 'function') dropped.add(`tool calls of type ${String(c.type)}`, at);
          turn.calls.push(call);
        }
        const fc = typeof m.function_call === 'string' ? safeParse(m.function_call) : m.function_call;
        if (isObject(fc) && typeof fc.name === 'string') {
          turn.calls.push({ name: fc.name, args: argsFromText(typeof fc.arguments === 'string' ? fc.arguments : JSON.stringify(fc.arguments ?? {})) });
        }
        conv.turns.push(turn);
        break;
      }
      case 'tool':
        extraKeys(m, known.filter((k) => k !== 'id'), at, dropped);
        conv.turns.push({
          role: 'tool',
          text: textOf(m.content, at, dropped, ''),
          ...(typeof m.tool_call_id === 'string' ? { callId: m.tool_call_id } : {}),
          ...(typeof m.name === 'string' ? { name: m.name } : {}),
          ...base,
        });
        break;
      case 'function':
        extraKeys(m, known.filter((k) => k !== 'id'), at, dropped);
        conv.turns.push({ role: 'tool', text: textOf(m.content, at, dropped, ''), ...(typeof m.name === 'string' ? { name: m.name } : {}), ...base });
        break;
      case 'data':
        dropped.add('data messages', at);
        break;
      default:
        throw new ImportError(`message ${at + 1} has the role ${JSON.stringify(role)}, which this format does not have`);
    }
  });
  return conv;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
