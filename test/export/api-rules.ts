// Checks that an export pairs every tool call with its result, the way each
// provider requires. Each returns the problems found (empty when valid).

import type { AnthropicRequest, ContextEntry, OpenAIMessage, VercelMessage } from '../../server/export/index.js';

export function openaiPairing(messages: OpenAIMessage[]): string[] {
  const problems: string[] = [];
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role === 'tool') {
      problems.push(`message ${i}: a tool message not right after its call`);
      continue;
    }
    if (m.role !== 'assistant' || !m.tool_calls) continue;
    if (!m.tool_calls.length) problems.push(`message ${i}: empty tool_calls`);
    const ids = m.tool_calls.map((c) => c.id);
    if (new Set(ids).size !== ids.length) problems.push(`message ${i}: repeated call ids`);
    for (const c of m.tool_calls) {
      try {
        JSON.parse(c.function.arguments);
      } catch {
        problems.push(`message ${i}: arguments are not JSON`);
      }
    }
    const answered: string[] = [];
    let j = i + 1;
    for (; j < messages.length && messages[j]!.role === 'tool'; j++) answered.push((messages[j] as { tool_call_id: string }).tool_call_id);
    if ([...answered].sort().join() !== [...ids].sort().join()) problems.push(`message ${i}: calls ${ids.join()} answered by ${answered.join()}`);
    i = j - 1;
  }
  return problems;
}

export function anthropicPairing(request: AnthropicRequest): string[] {
  const problems: string[] = [];
  const ms = request.messages;
  ms.forEach((m, i) => {
    if (i > 0 && ms[i - 1]!.role === m.role) problems.push(`message ${i}: two ${m.role} messages in a row`);
    if (!m.content.length) problems.push(`message ${i}: no content`);
    for (const b of m.content) if (b.type === 'text' && b.text.trim() === '') problems.push(`message ${i}: empty text block`);
    const uses = m.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : []));
    if (m.role === 'user' && uses.length) problems.push(`message ${i}: tool_use in a user message`);
    for (const id of uses) if (!/^[A-Za-z0-9_-]+$/.test(id)) problems.push(`message ${i}: tool_use id ${id} not allowed`);
    const prevUses = i > 0 ? ms[i - 1]!.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : [])) : [];
    const results = m.content.flatMap((b) => (b.type === 'tool_result' ? [b.tool_use_id] : []));
    if (m.role === 'assistant' && results.length) problems.push(`message ${i}: tool_result in an assistant message`);
    if (m.role === 'user' && [...results].sort().join() !== [...prevUses].sort().join()) {
      problems.push(`message ${i}: results ${results.join()} for the calls ${prevUses.join()}`);
    }
    // Tool results come first in their message.
    const firstOther = m.content.findIndex((b) => b.type !== 'tool_result');
    if (firstOther !== -1 && m.content.slice(firstOther).some((b) => b.type === 'tool_result')) problems.push(`message ${i}: a tool_result after text`);
    if (m.role === 'assistant' && uses.length && i === ms.length - 1) problems.push(`message ${i}: calls without results at the end`);
  });
  return problems;
}

export function vercelPairing(messages: VercelMessage[]): string[] {
  const problems: string[] = [];
  messages.forEach((m, i) => {
    const prev = messages[i - 1];
    const next = messages[i + 1];
    if (m.role === 'function' && !(prev?.role === 'assistant' && prev.function_call?.name === m.name)) {
      problems.push(`message ${i}: a function result not right after its call`);
    }
    if (m.role === 'assistant' && m.function_call && !(next?.role === 'function' && next.name === m.function_call.name)) {
      problems.push(`message ${i}: a function_call without its result`);
    }
  });
  return problems;
}

export function contextPairing(entries: ContextEntry[]): string[] {
  const problems: string[] = [];
  entries.forEach((e, i) => {
    if (e.index !== i) problems.push(`entry ${i}: index ${e.index}`);
    if (i > 0 && e.turn < entries[i - 1]!.turn) problems.push(`entry ${i}: turn goes back`);
    if (e.role === 'assistant' && typeof e.content === 'object' && 'toolCall' in e.content && e.content.toolCall !== undefined && e.content.result === undefined) {
      problems.push(`entry ${i}: a tool call without its result`);
    }
  });
  return problems;
}
