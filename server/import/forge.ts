// Forge's conversation memory (seed 000): `{role, content}` messages whose
// assistant text holds the model's XML `<tool>` calls, and `tool` messages
// (results, no id) that answer them in order. The assistant text is kept as
// the reply, raw elements included, and each element that reads as a call
// also becomes a tool call cell: the LLM view then sends it once, as the
// call (spec section 6). Import only.

import { parse } from '../syntax/document.js';
import { toolCallsOf } from '../tool-calls/index.js';
import { prepareBody } from '../writer/index.js';
import { Dropped, extraKeys, ImportError, isObject, textOf, type Conversation, type ImportedCall } from './model.js';

export function readForge(data: unknown, dropped: Dropped): Conversation {
  if (!Array.isArray(data)) throw new ImportError('expected an array of Forge messages');
  const conv: Conversation = { turns: [] };
  data.forEach((m, at) => {
    if (!isObject(m)) throw new ImportError(`message ${at + 1} is not an object`);
    extraKeys(m, ['role', 'content'], at, dropped);
    const text = textOf(m.content, at, dropped);
    switch (m.role) {
      case 'system':
        conv.turns.push({ role: 'system', text, at });
        break;
      case 'user':
        conv.turns.push({ role: 'user', text, at });
        break;
      case 'assistant':
        conv.turns.push({ role: 'assistant', text, calls: callsIn(text), at });
        break;
      case 'tool':
        conv.turns.push({ role: 'tool', text, at });
        break;
      default:
        throw new ImportError(`message ${at + 1} has the role ${JSON.stringify(m.role)}, which Forge messages do not have`);
    }
  });
  return conv;
}

/** The calls of the `<tool>` elements in a reply's text, as the file will read them. */
function callsIn(text: string): ImportedCall[] {
  if (!text.includes('<tool>')) return [];
  const body = prepareBody(text, { replyStart: true }).text;
  const doc = parse(`---\nagents:\n  forge: {}\n---\n\n# %%% [^1]\n\n[^1]: [forge]\n\n${body}\n`, { fileName: 'forge.msg.md' });
  const cell = doc.cells[0];
  if (!cell) return [];
  const out: ImportedCall[] = [];
  for (const t of toolCallsOf(cell)) {
    if (!t.ok || t.toolName === undefined) continue;
    out.push({ name: t.toolName, ...(t.serverName !== undefined ? { server: t.serverName } : {}), args: t.argumentsElement ? { object: t.arguments } : { none: true } });
  }
  return out;
}
