// The AI SDK's `ModelMessage[]` (ai 5 and later), or `{system, messages}`
// as generateText takes them. Reasoning parts are the reply's thinking;
// text parts of one message are joined; a text part after a tool call starts
// a reply of its own, so the order of text and calls is kept.

import { argsFromValue, Dropped, extraKeys, ImportError, isObject, partKind, textOf, type Conversation, type Turn } from './model.js';

export function readVercel(data: unknown, dropped: Dropped): Conversation {
  let messages: unknown = data;
  const conv: Conversation = { turns: [] };
  if (isObject(data)) {
    messages = data.messages;
    if (typeof data.system === 'string') conv.system = data.system;
    if (typeof data.model === 'string') conv.model = data.model;
    const other = Object.keys(data).filter((k) => !['messages', 'model', 'system'].includes(k));
    if (other.length) dropped.add(`request fields (${other.join(', ')})`, -1, other.length);
  }
  if (!Array.isArray(messages)) throw new ImportError('expected an array of messages or an object with "messages"');
  messages.forEach((m, at) => {
    if (!isObject(m)) throw new ImportError(`message ${at + 1} is not an object`);
    extraKeys(m, ['role', 'content'], at, dropped);
    switch (m.role) {
      case 'system':
        conv.turns.push({ role: 'system', text: textOf(m.content, at, dropped), at });
        break;
      case 'user':
        conv.turns.push({ role: 'user', text: textOf(m.content, at, dropped, ''), at });
        break;
      case 'assistant': {
        const parts: unknown[] = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : Array.isArray(m.content) ? m.content : [];
        let reply: Extract<Turn, { role: 'assistant' }> | undefined;
        let thinking: string | undefined;
        const start = (): Extract<Turn, { role: 'assistant' }> => {
          reply = { role: 'assistant', text: '', calls: [], at };
          conv.turns.push(reply);
          return reply;
        };
        for (const p of parts) {
          if (!isObject(p)) continue;
          if (p.type === 'text' && typeof p.text === 'string') {
            extraKeys(p, ['type', 'text'], at, dropped);
            const r = !reply || reply.calls.length ? start() : reply;
            r.text += p.text;
            if (thinking !== undefined && r.thinking === undefined) r.thinking = thinking;
            thinking = undefined;
          } else if (p.type === 'reasoning' && typeof p.text === 'string') {
            extraKeys(p, ['type', 'text'], at, dropped);
            thinking = thinking === undefined ? p.text : `${thinking}\n${p.text}`;
          } else if (p.type === 'tool-call' && typeof p.toolName === 'string') {
            extraKeys(p, ['type', 'toolCallId', 'toolName', 'input', 'args'], at, dropped);
            if (p.providerExecuted === true) {
              dropped.add('server-side tool calls', at);
              continue;
            }
            const r = reply ?? start();
            if (thinking !== undefined && r.thinking === undefined && !r.calls.length) r.thinking = thinking;
            thinking = undefined;
            r.calls.push({ name: p.toolName, args: argsFromValue(p.input ?? p.args ?? {}), ...(typeof p.toolCallId === 'string' ? { id: p.toolCallId } : {}) });
          } else if (p.type === 'tool-result') dropped.add('server-side tool results', at);
          else if (typeof p.type === 'string' && p.type.startsWith('tool-approval')) dropped.add('tool approvals', at);
          else dropped.add(`${partKind(p)} parts`, at);
        }
        if (thinking !== undefined) {
          const r = reply ?? start();
          if (r.thinking === undefined) r.thinking = thinking;
        }
        if (!reply) start();
        break;
      }
      case 'tool': {
        const parts: unknown[] = Array.isArray(m.content) ? m.content : [];
        for (const p of parts) {
          if (!isObject(p)) continue;
          if (p.type === 'tool-result') {
            extraKeys(p, ['type', 'toolCallId', 'toolName', 'output', 'result', 'isError'], at, dropped);
            const { text, isError } = outputText(p.output !== undefined ? p.output : { type: 'json', value: p.result }, at, dropped);
            conv.turns.push({
              role: 'tool',
              text,
              ...(typeof p.toolCallId === 'string' ? { callId: p.toolCallId } : {}),
              ...(typeof p.toolName === 'string' ? { name: p.toolName } : {}),
              ...(isError || p.isError === true ? { isError: true } : {}),
              at,
            });
          } else if (typeof p.type === 'string' && p.type.startsWith('tool-approval')) dropped.add('tool approvals', at);
          else dropped.add(`${partKind(p)} parts`, at);
        }
        break;
      }
      default:
        throw new ImportError(`message ${at + 1} has the role ${JSON.stringify(m.role)}, which AI SDK messages do not have`);
    }
  });
  return conv;
}

/** A tool result's `output` as text: `text`/`error-text` as they are, JSON as its text, content parts' text. */
function outputText(output: unknown, at: number, dropped: Dropped): { text: string; isError: boolean } {
  if (!isObject(output)) return { text: typeof output === 'string' ? output : JSON.stringify(output ?? null), isError: false };
  extraKeys(output, ['type', 'value', 'reason'], at, dropped);
  switch (output.type) {
    case 'text':
      return { text: String(output.value ?? ''), isError: false };
    case 'error-text':
      return { text: String(output.value ?? ''), isError: true };
    case 'json':
    case 'error-json':
      dropped.add('changed: JSON tool outputs written as their JSON text', at);
      return { text: JSON.stringify(output.value ?? null), isError: output.type === 'error-json' };
    case 'content':
      return { text: textOf(output.value, at, dropped, ''), isError: false };
    case 'execution-denied':
      dropped.add('denied tool executions (approvals)', at);
      return { text: typeof output.reason === 'string' ? output.reason : 'execution denied', isError: true };
    default:
      dropped.add('tool outputs of an unknown type', at);
      return { text: JSON.stringify(output.value ?? null), isError: false };
  }
}
