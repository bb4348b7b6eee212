// OpenAI Chat Completions `messages` (or a request body `{model, messages}`),
// with the legacy `function_call` / `function` role of older SDKs; the same
// reader serves the AI SDK 3.x `Message[]` (vercel-legacy), which has that
// shape plus `id` and `createdAt`.

import { argsFromText, Dropped, requestMessages, extraKeys, ImportError, isObject, textOf, timeOf, type Conversation, type ImportedCall, type Turn } from './model.js';

const MESSAGE_KEYS = ['role', 'content', 'tool_calls', 'tool_call_id', 'function_call', 'name'];

export function readOpenAI(data: unknown, dropped: Dropped, legacy = false): Conversation {
  const conv: Conversation = { turns: [] };
  const messages = requestMessages(data, conv, dropped);
  messages.forEach((m, at) => {
    if (!isObject(m)) throw new ImportError(`message ${at + 1} is not an object`);
    const role = m.role;
    const known = legacy ? [...MESSAGE_KEYS, 'id', 'createdAt'] : MESSAGE_KEYS;
    const time = legacy ? timeOf(m.createdAt) : undefined;
    // A participant's `name` is the cell's `name` attribute, which --to openai sends back.
    const named = typeof m.name === 'string' ? { attributes: { name: m.name } } : {};
    const base = { at, ...(time !== undefined ? { time } : {}) };
    if (legacy && m.id !== undefined) dropped.add('message ids', at);
    // A legacy `id` is said above, once; a `name` that is no string has no place.
    const others = (...more: string[]) => extraKeys(m, [...known.filter((k) => k !== 'name' || typeof m.name === 'string'), ...more], at, dropped);
    switch (role) {
      case 'system':
      case 'developer':
        others();
        conv.turns.push({ role: 'system', text: textOf(m.content, at, dropped), ...base, ...named });
        if (role === 'developer') dropped.add('changed: developer messages written as system messages', at);
        break;
      case 'user': {
        others();
        conv.turns.push({ role: 'user', text: textOf(m.content, at, dropped), ...base, ...named });
        break;
      }
      case 'assistant': {
        others('reasoning_content', 'thinking_blocks', 'refusal');
        const turn: Extract<Turn, { role: 'assistant' }> = { role: 'assistant', text: textOf(m.content, at, dropped, '\n\n', ['text']), calls: [], ...base, ...named };
        if (typeof m.reasoning_content === 'string' && m.reasoning_content !== '') turn.thinking = m.reasoning_content;
        if (Array.isArray(m.thinking_blocks)) {
          const text = m.thinking_blocks.map((b) => (isObject(b) && typeof b.thinking === 'string' ? b.thinking : '')).join('\n');
          if (text.trim() !== '') turn.thinking = text;
          dropped.add('thinking block signatures', at, m.thinking_blocks.length);
        }
        if (typeof m.refusal === 'string' && m.refusal !== '') dropped.add('refusals', at);
        for (const c of Array.isArray(m.tool_calls) ? m.tool_calls : []) {
          if (!isObject(c) || !isObject(c.function) || typeof c.function.name !== 'string') {
            dropped.add('tool calls of an unknown shape', at);
            continue;
          }
          const call: ImportedCall = { name: c.function.name, args: argsFromText(typeof c.function.arguments === 'string' ? c.function.arguments : JSON.stringify(c.function.arguments ?? {}), at, dropped) };
          if (typeof c.id === 'string') call.id = c.id;
          if (c.type !== undefined && c.type !== 'function') dropped.add(`tool calls of type ${String(c.type)}`, at);
          turn.calls.push(call);
        }
        const fc = typeof m.function_call === 'string' ? safeParse(m.function_call) : m.function_call;
        if (isObject(fc) && typeof fc.name === 'string') {
          turn.calls.push({ name: fc.name, args: argsFromText(typeof fc.arguments === 'string' ? fc.arguments : JSON.stringify(fc.arguments ?? {}), at, dropped) });
        }
        conv.turns.push(turn);
        break;
      }
      case 'tool':
        others();
        // A tool message's `name` is optional (KodeAgent's history needs it, Gemini's API too): kept as the result's.
        conv.turns.push({
          role: 'tool',
          text: textOf(m.content, at, dropped, ''),
          ...(typeof m.tool_call_id === 'string' ? { callId: m.tool_call_id } : {}),
          ...(typeof m.name === 'string' ? { name: m.name, keepName: true } : {}),
          ...base,
        });
        break;
      case 'function':
        others();
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
