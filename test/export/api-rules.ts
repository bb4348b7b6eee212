// A checker of the rules each provider's API enforces on a request, beyond
// what the SDKs' types say (the tests type-check against those too). Each
// function returns the problems found, empty when the API would take it.
//
// OpenAI Chat Completions: system messages anywhere (a file's later
// `role="system"` cells are sent in place), non-empty; every tool call answered by `tool` messages
// before the next non-tool message, and tool messages nowhere else; call ids
// of 1 to 40 characters, unique; function names matching the pattern;
// arguments a JSON object.
// Anthropic Messages: the first message the user's, roles strictly
// alternating, no empty content or blank text block; `tool_use` only in
// assistant messages, every one answered by a `tool_result` at the start of
// the next (user) message, and `tool_result` nowhere else; ids matching
// ^[a-zA-Z0-9_-]+$, unique; names matching the pattern; `input` an object; a
// final assistant message (prefill) not ending with white space.
// Vercel AI SDK (ModelMessage): a system message among the messages only
// with text (generateText takes it with `allowSystemInMessages: true`; ai 7
// refuses it without, ai 6 warns); tool-call parts answered by tool-result parts (same
// id and name) in the tool messages that follow, before the next message of
// another role; ids and names fit both providers above, as the SDK forwards
// them.

import { exportNotes, formatLLMView, type AnthropicRequest, type ContextEntry, type LLMView, type OpenAIMessage, type VercelLegacyMessage, type VercelRequest } from '../../server/export/index.js';

export const NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const ANTHROPIC_ID = /^[a-zA-Z0-9_-]+$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/;

const isObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);
const sameSet = (a: string[], b: string[]) => a.length === b.length && [...a].sort().join('\u0000') === [...b].sort().join('\u0000');

export function openaiRules(messages: OpenAIMessage[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role === 'system' && m.content.trim() === '') problems.push(`message ${i}: an empty system message`);
    if (m.role === 'tool') {
      problems.push(`message ${i}: a tool message not right after the assistant message with its call`);
      continue;
    }
    if (m.role !== 'assistant') continue;
    if (m.content === null && !m.tool_calls?.length) problems.push(`message ${i}: an assistant message with neither content nor tool_calls`);
    if (!m.tool_calls) continue;
    if (!m.tool_calls.length) problems.push(`message ${i}: empty tool_calls`);
    for (const c of m.tool_calls) {
      if (c.id.length < 1 || c.id.length > 40) problems.push(`message ${i}: the call id ${c.id} is ${c.id.length} characters long (1 to 40)`);
      if (seen.has(c.id)) problems.push(`message ${i}: the call id ${c.id} is used twice`);
      seen.add(c.id);
      if (!NAME.test(c.function.name)) problems.push(`message ${i}: the function name ${JSON.stringify(c.function.name)} does not match ${NAME.source}`);
      let args: unknown;
      try {
        args = JSON.parse(c.function.arguments);
      } catch {
        problems.push(`message ${i}: the arguments of ${c.id} are not JSON`);
      }
      if (args !== undefined && !isObject(args)) problems.push(`message ${i}: the arguments of ${c.id} are not a JSON object`);
    }
    const answered: string[] = [];
    let j = i + 1;
    for (; j < messages.length && messages[j]!.role === 'tool'; j++) answered.push((messages[j] as { tool_call_id: string }).tool_call_id);
    const ids = m.tool_calls.map((c) => c.id);
    if (!sameSet(answered, ids)) problems.push(`message ${i}: calls ${ids.join()} answered by ${answered.join() || 'nothing'}`);
    i = j - 1;
  }
  return problems;
}

/** The problem anthropicRules finds in a request that opens with an assistant message. */
export const ASSISTANT_FIRST = "message 0: the first message is the assistant's, not the user's";

/**
 * Anthropic's rules on a view's export, but for a view that opens with an
 * assistant message: export sends it as the file has it, making up no user
 * message, and says so (notes.ts), which this checks instead.
 */
export function anthropicRulesOf(view: LLMView): string[] {
  const problems = anthropicRules(formatLLMView(view, 'anthropic'));
  if (problems[0] !== ASSISTANT_FIRST) return problems;
  const said = exportNotes(view, 'anthropic').some((n) => /^the view opens with an assistant message, and no user message is made up/.test(n.message));
  return said ? problems.slice(1) : problems;
}

export function anthropicRules(request: AnthropicRequest): string[] {
  const problems: string[] = [];
  const ms = request.messages;
  if (request.system !== undefined && (typeof request.system !== 'string' || request.system === '')) problems.push('system: not a non-empty string');
  if (ms.length && ms[0]!.role !== 'user') problems.push(`message 0: the first message is the ${ms[0]!.role}'s, not the user's`);
  const seen = new Set<string>();
  ms.forEach((m, i) => {
    if (i > 0 && ms[i - 1]!.role === m.role) problems.push(`message ${i}: two ${m.role} messages in a row`);
    if (!m.content.length) problems.push(`message ${i}: no content`);
    for (const b of m.content) if (b.type === 'text' && b.text.trim() === '') problems.push(`message ${i}: a blank text block`);
    const uses = m.content.flatMap((b) => (b.type === 'tool_use' ? [b] : []));
    if (m.role === 'user' && uses.length) problems.push(`message ${i}: tool_use in a user message`);
    for (const u of uses) {
      if (!ANTHROPIC_ID.test(u.id)) problems.push(`message ${i}: the tool_use id ${u.id} does not match ${ANTHROPIC_ID.source}`);
      if (seen.has(u.id)) problems.push(`message ${i}: the tool_use id ${u.id} is used twice`);
      seen.add(u.id);
      if (!NAME.test(u.name)) problems.push(`message ${i}: the tool name ${JSON.stringify(u.name)} does not match ${NAME.source}`);
      if (!isObject(u.input)) problems.push(`message ${i}: the input of ${u.id} is not an object`);
    }
    const prev = i > 0 ? ms[i - 1]! : undefined;
    const prevUses = prev?.role === 'assistant' ? prev.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : [])) : [];
    const results = m.content.flatMap((b) => (b.type === 'tool_result' ? [b.tool_use_id] : []));
    if (m.role === 'assistant' && results.length) problems.push(`message ${i}: tool_result in an assistant message`);
    if (m.role === 'user' && !sameSet(results, prevUses)) problems.push(`message ${i}: results ${results.join() || 'none'} for the calls ${prevUses.join() || 'none'}`);
    const firstOther = m.content.findIndex((b) => b.type !== 'tool_result');
    if (firstOther !== -1 && m.content.slice(firstOther).some((b) => b.type === 'tool_result')) problems.push(`message ${i}: a tool_result after another block`);
    if (i === ms.length - 1 && m.role === 'assistant') {
      if (uses.length) problems.push(`message ${i}: tool_use without tool_result at the end`);
      const last = m.content[m.content.length - 1];
      if (last?.type === 'text' && /\s$/.test(last.text)) problems.push(`message ${i}: a final assistant message ending with white space`);
    }
  });
  return problems;
}

export function vercelRules(request: VercelRequest): string[] {
  const problems: string[] = [];
  const ms = request.messages;
  const seen = new Set<string>();
  for (let i = 0; i < ms.length; i++) {
    const m = ms[i]!;
    if (m.role === 'system') {
      if (m.content.trim() === '') problems.push(`message ${i}: an empty system message`);
      continue;
    }
    if (m.role === 'tool') {
      problems.push(`message ${i}: a tool message not right after the assistant message with its calls`);
      continue;
    }
    if (m.role !== 'assistant') continue;
    if (!m.content.length) problems.push(`message ${i}: an assistant message with no parts`);
    for (const p of m.content) if ((p.type === 'text' || p.type === 'reasoning') && p.text.trim() === '') problems.push(`message ${i}: a blank ${p.type} part`);
    const calls = m.content.flatMap((p) => (p.type === 'tool-call' ? [p] : []));
    for (const c of calls) {
      if (!ANTHROPIC_ID.test(c.toolCallId) || c.toolCallId.length > 40) problems.push(`message ${i}: the call id ${c.toolCallId} does not fit OpenAI and Anthropic`);
      if (seen.has(c.toolCallId)) problems.push(`message ${i}: the call id ${c.toolCallId} is used twice`);
      seen.add(c.toolCallId);
      if (!NAME.test(c.toolName)) problems.push(`message ${i}: the tool name ${JSON.stringify(c.toolName)} does not match ${NAME.source}`);
      if (!isObject(c.input)) problems.push(`message ${i}: the input of ${c.toolCallId} is not an object`);
    }
    const answered: string[] = [];
    let j = i + 1;
    for (; j < ms.length; j++) {
      const t = ms[j]!;
      if (t.role !== 'tool') break;
      for (const r of t.content) {
        answered.push(r.toolCallId);
        const call = calls.find((c) => c.toolCallId === r.toolCallId);
        if (call && call.toolName !== r.toolName) problems.push(`message ${j}: the result of ${r.toolCallId} names ${r.toolName}, its call ${call.toolName}`);
      }
    }
    const ids = calls.map((c) => c.toolCallId);
    if (!sameSet(answered, ids)) problems.push(`message ${i}: calls ${ids.join() || 'none'} answered by ${answered.join() || 'nothing'}`);
    i = j - 1;
  }
  return problems;
}

export function vercelLegacyRules(messages: VercelLegacyMessage[]): string[] {
  const problems: string[] = [];
  messages.forEach((m, i) => {
    const prev = messages[i - 1];
    const next = messages[i + 1];
    if (m.role === 'function' && !(prev?.role === 'assistant' && prev.function_call?.name === m.name)) {
      problems.push(`message ${i}: a function result not right after its call`);
    }
    if (m.role === 'assistant' && m.function_call) {
      if (!NAME.test(m.function_call.name)) problems.push(`message ${i}: the function name ${JSON.stringify(m.function_call.name)} does not match ${NAME.source}`);
      if (!(next?.role === 'function' && next.name === m.function_call.name)) problems.push(`message ${i}: a function_call without its result`);
    }
  });
  return problems;
}

export function contextRules(entries: ContextEntry[]): string[] {
  const problems: string[] = [];
  entries.forEach((e, i) => {
    if (e.index !== i) problems.push(`entry ${i}: index ${e.index}`);
    if (typeof e.timestamp !== 'string' || !ISO.test(e.timestamp)) problems.push(`entry ${i}: timestamp ${JSON.stringify(e.timestamp)} is not ISO 8601 UTC`);
    if (i > 0 && e.turn < entries[i - 1]!.turn) problems.push(`entry ${i}: turn goes back`);
    if (e.role === 'assistant' && typeof e.content === 'object' && 'toolCall' in e.content && e.content.toolCall !== undefined && e.content.result === undefined) {
      problems.push(`entry ${i}: a tool call without its result`);
    }
  });
  return problems;
}
