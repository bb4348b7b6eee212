// dexto's (formerly saiki's) `InternalMessage[]` (seed 004): OpenAI-like
// messages with content as a string, null or parts (`text`, `image`,
// `file`), `toolCalls` on the assistant, `toolCallId` and `name` on tool
// messages, and `timestamp` in milliseconds. Import only.

import { argsFromText, Dropped, extraKeys, ImportError, isObject, textOf, timeOf, type Conversation, type ImportedCall, type Turn } from './model.js';

export function readDexto(data: unknown, dropped: Dropped): Conversation {
  if (!Array.isArray(data)) throw new ImportError('expected an array of dexto messages');
  const conv: Conversation = { turns: [] };
  data.forEach((m, at) => {
    if (!isObject(m)) throw new ImportError(`message ${at + 1} is not an object`);
    const time = timeOf(m.timestamp);
    const base = { at, ...(time !== undefined ? { time } : {}) };
    extraKeys(m, ['role', 'content', 'toolCalls', 'toolCallId', 'name', 'timestamp', 'reasoning'], at, dropped);
    switch (m.role) {
      case 'system':
        conv.turns.push({ role: 'system', text: textOf(m.content, at, dropped), ...base });
        break;
      case 'user':
        conv.turns.push({ role: 'user', text: textOf(m.content, at, dropped), ...base });
        break;
      case 'assistant': {
        const turn: Extract<Turn, { role: 'assistant' }> = { role: 'assistant', text: textOf(m.content, at, dropped), calls: [], ...base };
        if (typeof m.reasoning === 'string' && m.reasoning !== '') turn.thinking = m.reasoning;
        for (const c of Array.isArray(m.toolCalls) ? m.toolCalls : []) {
          if (!isObject(c) || !isObject(c.function) || typeof c.function.name !== 'string') {
            dropped.add('tool calls of an unknown shape', at);
            continue;
          }
          const call: ImportedCall = { name: c.function.name, args: argsFromText(typeof c.function.arguments === 'string' ? c.function.arguments : JSON.stringify(c.function.arguments ?? {}), at, dropped) };
          if (typeof c.id === 'string') call.id = c.id;
          turn.calls.push(call);
        }
        conv.turns.push(turn);
        break;
      }
      case 'tool':
        conv.turns.push({
          role: 'tool',
          text: textOf(m.content, at, dropped, '\n\n'),
          ...(typeof m.toolCallId === 'string' ? { callId: m.toolCallId } : {}),
          ...(typeof m.name === 'string' ? { name: m.name } : {}),
          ...base,
        });
        break;
      default:
        throw new ImportError(`message ${at + 1} has the role ${JSON.stringify(m.role)}, which dexto messages do not have`);
    }
  });
  return conv;
}
