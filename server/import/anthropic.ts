// Anthropic Messages: `{system?, messages, model?, …}` (a request body) or a
// bare `messages` array. Each text block is a reply or message of its own
// (export merges consecutive same-role messages back into one); tool_use
// blocks are calls of the reply before them in the message, thinking the
// thinking of the reply after it. A user text block `<system>\n…\n</system>`
// is a system message, as msglint's export writes one after the first
// message.

import { argsFromValue, Dropped, requestMessages, extraKeys, ImportError, isObject, ServerTools, textOf, type Conversation, type Turn } from './model.js';

export function readAnthropic(data: unknown, dropped: Dropped): Conversation {
  const conv: Conversation = { turns: [] };
  if (isObject(data)) {
    if (typeof data.system === 'string') conv.system = data.system;
    else if (Array.isArray(data.system)) {
      conv.system = data.system.map((b) => (isObject(b) && typeof b.text === 'string' ? b.text : '')).join('\n\n');
      for (const b of data.system) if (isObject(b)) extraKeys(b, ['type', 'text'], -1, dropped);
      if (data.system.length > 1) dropped.add('changed: system blocks joined into one system prompt', -1);
    }
  }
  const messages = requestMessages(data, conv, dropped, ['messages', 'model', 'system']);
  const server = new ServerTools(dropped);
  messages.forEach((m, at) => {
    if (!isObject(m)) throw new ImportError(`message ${at + 1} is not an object`);
    extraKeys(m, ['role', 'content'], at, dropped);
    const blocks: unknown[] = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : Array.isArray(m.content) ? m.content : [];
    if (!Array.isArray(m.content) && typeof m.content !== 'string') dropped.add('message contents of an unknown shape', at);
    if (m.role === 'user') {
      for (const b of blocks) {
        if (!isObject(b)) continue;
        if (b.type === 'text' && typeof b.text === 'string') {
          extraKeys(b, ['type', 'text'], at, dropped);
          // msglint's export sends a later system message so (server/export/anthropic.ts, systemText): read back as one.
          const system = /^<system>\n([\s\S]*)\n<\/system>$/.exec(b.text);
          conv.turns.push(system ? { role: 'system', text: system[1]!, at } : { role: 'user', text: b.text, at });
        } else if (b.type === 'tool_result') {
          extraKeys(b, ['type', 'tool_use_id', 'content', 'is_error'], at, dropped);
          conv.turns.push({
            role: 'tool',
            text: textOf(b.content, at, dropped, ''),
            ...(typeof b.tool_use_id === 'string' ? { callId: b.tool_use_id } : {}),
            ...(b.is_error === true ? { isError: true } : {}),
            at,
          });
        } else dropped.add(`${kindOf(b)} blocks`, at);
      }
    } else if (m.role === 'assistant') {
      let reply: Extract<Turn, { role: 'assistant' }> | undefined;
      let thinking: string | undefined;
      const start = (text: string) => {
        reply = { role: 'assistant', text, calls: [], at };
        if (thinking !== undefined) reply.thinking = thinking;
        thinking = undefined;
        conv.turns.push(reply);
        return reply;
      };
      for (const b of blocks) {
        if (!isObject(b)) continue;
        if (b.type === 'text' && typeof b.text === 'string') {
          extraKeys(b, ['type', 'text'], at, dropped);
          start(b.text);
        } else if (b.type === 'thinking' && typeof b.thinking === 'string') {
          thinking = thinking === undefined ? b.thinking : `${thinking}\n${b.thinking}`;
          if (b.signature !== undefined) dropped.add('thinking signatures', at);
          extraKeys(b, ['type', 'thinking', 'signature'], at, dropped);
        } else if (b.type === 'tool_use' && typeof b.name === 'string') {
          extraKeys(b, ['type', 'id', 'name', 'input'], at, dropped);
          const r = reply ?? start('');
          r.calls.push({ name: b.name, args: argsFromValue(b.input ?? {}), ...(typeof b.id === 'string' ? { id: b.id } : {}) });
        } else if (b.type === 'redacted_thinking') dropped.add('redacted thinking blocks', at);
        else if (b.type === 'server_tool_use' || b.type === 'mcp_tool_use') server.call(b.id, at, 'server-side tool blocks');
        else if (typeof b.type === 'string' && (b.type.startsWith('server_tool') || b.type.endsWith('_tool_result'))) server.result(b.tool_use_id, at, 'server-side tool blocks');
        else dropped.add(`${kindOf(b)} blocks`, at);
      }
      if (thinking !== undefined) start('');
    } else {
      throw new ImportError(`message ${at + 1} has the role ${JSON.stringify(m.role)}; Anthropic messages are user or assistant`);
    }
  });
  server.end();
  return conv;
}

function kindOf(b: Record<string, unknown>): string {
  const t = String(b.type ?? 'unknown');
  return t === 'document' ? 'file' : t;
}
