// A tool call's name as the file gives it, and the pattern the providers'
// APIs require of names (the tool-name-syntax rule and the export both use it).

import type { Cell, MetadataEntry, Segment } from '../syntax/document.js';
import type { Span } from '../base/text.js';
import type { ToolCallInfo } from './facts.js';
import { toolCallsOf } from './read.js';

/** The function names OpenAI's and Anthropic's APIs take. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * The name a tool call cell is sent with and where the file says it
 * (absolute offsets): the `<tool_name>` (or legacy `tool_name`) of its one
 * readable call, else its metadata `name`.
 */
export function toolNameOf(cell: Cell, m: MetadataEntry | undefined, abs: (span: Span, of: Segment) => [number, number]): { name: string; at: [number, number] } | undefined {
  const tools = toolCallsOf(cell);
  const info = tools.length === 1 ? tools[0]! : undefined;
  if (info?.toolName !== undefined) return { name: info.toolName, at: abs(xmlNameSpan(info), cell) };
  const attr = m?.node.attributes.find((a) => a.key === 'name');
  if (!m || !attr || attr.value.trim() === '') return undefined;
  return { name: attr.value, at: abs(attr.valueSpan, m.segment) };
}

/** Cell-relative span of a call's tool name: the text of `<tool_name>`, or the legacy `tool_name` string without its quotes. */
function xmlNameSpan(info: ToolCallInfo): { start: number; end: number } {
  if (info.toolNameText) return info.toolNameText;
  const node = info.legacy?.node;
  const entry = node?.kind === 'object' ? node.entries.find((e) => e.key === 'tool_name') : undefined;
  if (entry) return { start: entry.value.start + 1, end: entry.value.end - 1 };
  return { start: info.element.start, end: info.element.openTagEnd };
}
