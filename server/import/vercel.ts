// The AI SDK's `ModelMessage[]` (ai 5 and later), or `{system, messages}`
// as generateText takes them. Reasoning parts are the reply's thinking;
// text parts of one message are joined; a text part after a tool call starts
// a reply of its own, so the order of text and calls is kept.

import { argsFromValue, Dropped, requestMessages, extraKeys, ImportError, isObject, partKind, ServerTools, textOf, type Conversation, type Turn } from './model.js';

export function readVercel(data: unknown, dropped: Dropped): Conversation {
  const conv: Conversation = { turns: [] };
  if (isObject(data) && typeof data.system === 'string') conv.system = data.system;
  const messages = requestMessages(data, conv, dropped, ['messages', 'model', 'system']);
  const server = new ServerTools(dropped);
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
            // A server-side call is left out whole, its own fields with it.
            if (p.providerExecuted === true) {
              server.call(p.toolCallId, at);
              continue;
            }
            extraKeys(p, ['type', 'toolCallId', 'toolName', 'input', 'args'], at, dropped);
            const r = reply ?? start();
            if (thinking !== undefined && r.thinking === undefined && !r.calls.length) r.thinking = thinking;
            thinking = undefined;
            r.calls.push({ name: p.toolName, args: argsFromValue(p.input ?? p.args ?? {}), ...(typeof p.toolCallId === 'string' ? { id: p.toolCallId } : {}) });
          } else if (p.type === 'tool-result') server.result(p.toolCallId, at);
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
            const { text, isError, json } = outputText(p.output !== undefined ? p.output : { type: 'json', value: p.result }, at, dropped);
            conv.turns.push({
              role: 'tool',
              text,
              ...(json ? { json: true } : {}),
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
  server.end();
  return conv;
}

/**
 * A tool result's `output` as text: `text`/`error-text` as they are, JSON as
 * its JSON text (marked `json`: the result cell's `output=json` gives the
 * type back on export), content parts' text.
 */
function outputText(output: unknown, at: number, dropped: Dropped): { text: string; isError: boolean; json?: true } {
  if (!isObject(output)) return { text: typeof output === 'string' ? output : JSON.stringify(output ?? null), isError: false };
  extraKeys(output, ['type', 'value', 'reason'], at, dropped);
  switch (output.type) {
    case 'text':
      return { text: String(output.value ?? ''), isError: false };
    case 'error-text':
      return { text: String(output.value ?? ''), isError: true };
    case 'json':
    case 'error-json':
      return { text: JSON.stringify(output.value ?? null), isError: output.type === 'error-json', json: true };
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
