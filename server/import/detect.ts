// Which source a parsed JSON value comes from, told by the keys and types
// only each source uses. When nothing tells them apart (plain user and
// assistant strings) every reader gives the same conversation, and the
// answer is `openai` (a bare array) or `anthropic` (`{system, messages}`).

import { isObject, type ImportFormat } from './model.js';

const ANTHROPIC_BLOCKS = new Set(['tool_use', 'tool_result', 'thinking', 'redacted_thinking', 'server_tool_use', 'web_search_tool_result', 'document']);
const VERCEL_PARTS = new Set(['tool-call', 'tool-result', 'reasoning', 'file', 'tool-approval-request', 'tool-approval-response']);

export function detectFormat(data: unknown): ImportFormat | undefined {
  const messages = Array.isArray(data) ? data : isObject(data) && Array.isArray(data.messages) ? data.messages : undefined;
  if (!messages) return undefined;
  const items = messages.filter(isObject);
  if (items.length !== messages.length) return undefined;
  if (Array.isArray(data) && items.length && items.every((e) => 'index' in e && 'turn' in e && 'timestamp' in e)) return 'context-json';
  const has = (f: (m: Record<string, unknown>) => boolean) => items.some(f);
  const parts = items.flatMap((m) => (Array.isArray(m.content) ? m.content.filter(isObject) : []));
  if (has((m) => 'toolCalls' in m || 'toolCallId' in m || typeof m.timestamp === 'number' || 'assistantOutput' in m)) return 'dexto';
  if (parts.some((p) => ANTHROPIC_BLOCKS.has(String(p.type)) || (p.type === 'image' && isObject(p.source)))) return 'anthropic';
  if (isObject(data) && Array.isArray(data.system)) return 'anthropic';
  if (parts.some((p) => VERCEL_PARTS.has(String(p.type)) || (p.type === 'image' && 'image' in p))) return 'vercel';
  if (has((m) => 'tool_calls' in m || 'tool_call_id' in m || m.role === 'developer')) return 'openai';
  if (has((m) => 'function_call' in m || m.role === 'function')) return has((m) => 'id' in m || 'createdAt' in m || m.role === 'data') ? 'vercel-legacy' : 'openai';
  if (has((m) => m.role === 'tool')) return has((m) => typeof m.content === 'string' && m.content.includes('<tool>')) || items.every((m) => Object.keys(m).every((k) => k === 'role' || k === 'content')) ? 'forge' : 'openai';
  if (has((m) => m.role === 'assistant' && typeof m.content === 'string' && /<tool>[\s\S]*<tool_name>/.test(m.content))) return 'forge';
  if (has((m) => m.role === 'system') && isObject(data) && 'system' in data) return 'vercel';
  if (isObject(data)) return 'anthropic';
  return 'openai';
}
