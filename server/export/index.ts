// Export a message file's LLM view to provider formats (spec section 9):
// toLLMView builds the provider-neutral conversation, one formatter per
// target turns it into that target's shape, viewBlockers tells which
// problems of the file make the view invalid for a target (the CLI refuses
// to export then, unless --force), and exportNotes what an export changes
// or risks that its output does not show (the CLI says it on stderr).

import type { Diagnostic } from '../engine/types.js';
import type { MessageDocument } from '../syntax/document.js';
import { AnthropicFormatter, type AnthropicRequest } from './anthropic.js';
import { ConsoleFormatter } from './console.js';
import { ContextJsonFormatter, type ContextEntry } from './context-json.js';
import type { IMessageFormatter } from './formatter.js';
import { API_FORMATS, type ExportFormat, type LLMView } from './model.js';
import { TOOL_NAME_PATTERN, toolNameOf, toolNames } from './names.js';
import { OpenAIFormatter, type OpenAIMessage } from './openai.js';
import { VercelLegacyFormatter, type VercelLegacyMessage } from './vercel-legacy.js';
import { VercelFormatter, type VercelRequest } from './vercel.js';
import { applyThinking, type ThinkingMode } from './thinking.js';
import { batched, jsonChunks } from '../base/json-chunks.js';

export { toLLMView, ExportOptionError, normalizeTime, splitThinking } from './view.js';
export type { ToLLMViewOptions } from './view.js';
export { EXPORT_FORMATS, API_FORMATS, CODE_EXECUTION_TOOL } from './model.js';
export type { ExportFormat, InternalMessage, InternalToolCall, LLMView, MessageSource, Omission, ViewProblem } from './model.js';
export type { IMessageFormatter } from './formatter.js';
export { OpenAIFormatter, AnthropicFormatter, VercelFormatter, VercelLegacyFormatter, ContextJsonFormatter, ConsoleFormatter };
export { TOOL_NAME_PATTERN, SERVER_SEPARATOR, toolNames } from './names.js';
export type { NameChange, ToolNames } from './names.js';
export { toolCallIds } from './ids.js';
export { exportNotes } from './notes.js';
export { THINKING_MODES, applyThinking, thinkingFollowsMode } from './thinking.js';
export type { ThinkingMode } from './thinking.js';
export type { ExportNote } from './notes.js';
export type { OpenAIMessage, OpenAIToolCall } from './openai.js';
export type { AnthropicBlock, AnthropicMessage, AnthropicRequest } from './anthropic.js';
export type { VercelMessage, VercelRequest, VercelAssistantPart, VercelToolResultPart } from './vercel.js';
export type { VercelLegacyMessage } from './vercel-legacy.js';
export type { ContextEntry, ContextOptions, ContextUserContent, ContextAssistantContent } from './context-json.js';
export type { ConsoleOptions } from './console.js';
export { listAgents, agentsText } from './agents.js';
export type { AgentListing, AgentListingEntry } from './agents.js';

/** What each target's output is. */
export interface ExportOutput {
  openai: OpenAIMessage[];
  anthropic: AnthropicRequest;
  vercel: VercelRequest;
  'vercel-legacy': VercelLegacyMessage[];
  'context-json': ContextEntry[];
  /** The display's text, ending with a line break. */
  console: string;
}

export interface FormatOptions {
  /** console: ANSI colour. */
  color?: boolean;
  /** context-json: the timestamp of entries in a view without any `time` (ISO 8601); default: now. */
  time?: string;
  /** openai, anthropic, vercel-legacy: a reply's thinking paragraph left out (the default) or sent as text (thinking.ts). */
  thinking?: ThinkingMode;
}

/** The formatter of a target. */
export function createFormatter(to: ExportFormat, options: FormatOptions = {}): IMessageFormatter {
  switch (to) {
    case 'openai':
      return new OpenAIFormatter();
    case 'anthropic':
      return new AnthropicFormatter();
    case 'vercel':
      return new VercelFormatter();
    case 'vercel-legacy':
      return new VercelLegacyFormatter();
    case 'context-json':
      return new ContextJsonFormatter(options.time === undefined ? {} : { time: options.time });
    case 'console':
      return new ConsoleFormatter(options);
  }
}

/** The view in a target's shape: the messages (Anthropic, Vercel: `{system, messages}`; console: the text). */
export function formatLLMView<F extends ExportFormat>(view: LLMView, to: F, options: FormatOptions = {}): ExportOutput[F] {
  const out = formatted(view, to, options);
  return (to === 'console' ? consoleText(out as string[]) : out) as ExportOutput[F];
}

/** formatLLMView, the console's messages not yet joined. */
function formatted(view: LLMView, to: ExportFormat, options: FormatOptions): unknown {
  const formatter = createFormatter(to, options);
  const messages = formatter.format(applyThinking(view, to, options.thinking).messages, view.systemPrompt);
  if (to === 'anthropic' || to === 'vercel') {
    const system = formatter.getSystemPrompt?.(view.systemPrompt);
    return system ? { system, messages } : { messages };
  }
  return messages;
}

/** The console's messages, each after a blank line, ending with a line break. */
function consoleText(messages: readonly string[]): string {
  return `${messages.join('\n\n')}\n`;
}

/** The view in a target's shape as the CLI writes it: JSON with two-space indentation, or the console text. */
export function exportText(view: LLMView, to: ExportFormat, options: FormatOptions = {}): string {
  return [...exportChunks(view, to, options)].join('');
}

/**
 * exportText in pieces of some 16,000 characters, for a writer: a long
 * conversation's export is never one string (base/json-chunks.ts). Each
 * iteration formats the view again from the start, so a write that starts
 * over (files.ts writeFileAtomic) writes it whole.
 */
export function exportChunks(view: LLMView, to: ExportFormat, options: FormatOptions = {}): Iterable<string> {
  return { [Symbol.iterator]: () => batched(pieces(view, to, options)) };
}

function* pieces(view: LLMView, to: ExportFormat, options: FormatOptions): Generator<string> {
  const out = formatted(view, to, options);
  if (to === 'console') {
    const messages = out as string[];
    for (let i = 0; i < messages.length; i++) yield i === 0 ? messages[i]! : `\n\n${messages[i]!}`;
    return yield '\n';
  }
  yield* jsonChunks(out);
  yield '\n';
}

/**
 * Rules whose errors make the LLM view invalid: a call split from its
 * results or a result without its call (provider APIs reject both), a call
 * whose tool name or arguments cannot be read, ids that make pairing
 * ambiguous, a `history` value whose meaning is unknown.
 */
export const VIEW_RULES: ReadonlySet<string> = new Set([
  'history-split-pair',
  'history-value',
  'tool-result-orphan',
  'tool-call-parent',
  'tool-name-mismatch',
  'tool-xml',
  'tool-xml-structure',
  'cdata-unterminated',
  'cdata-placeholder',
  'legacy-json-invalid',
  'duplicate-id',
  'nonce-reused',
  'cell-id-syntax',
  'code-output-parent',
]);

/**
 * The problems that make the view invalid: the errors of VIEW_RULES among a
 * file's diagnostics, and the view's own problems (code pairs split with
 * codeAsTool, reported as `history-split-pair`), in file order. With a
 * target whose API limits tool names (API_FORMATS), also each tool call
 * whose name does not match TOOL_NAME_PATTERN (`tool-name-syntax`, an error
 * here whatever the rule's setting: the API would reject the request).
 */
export function viewBlockers(doc: MessageDocument, view: LLMView, diagnostics: readonly Diagnostic[], to?: ExportFormat): Diagnostic[] {
  const out = diagnostics.filter((d) => d.severity === 2 && VIEW_RULES.has(d.ruleId));
  for (const p of view.problems) {
    out.push({ ruleId: 'history-split-pair', severity: 2, message: p.message, range: doc.range(p.offset, p.end) });
  }
  if (to !== undefined && API_FORMATS.has(to)) {
    const names = toolNames(view.messages, true);
    for (const m of view.messages) {
      for (const c of m.toolCalls ?? []) {
        if (TOOL_NAME_PATTERN.test(c.function.name)) continue;
        const cell = doc.cellsById.get(c.id)?.find((x) => doc.kindOf(x) === 'tool-call');
        const at = cell && toolNameOf(cell, doc.metadataOf(cell), (span, of) => doc.abs(of, span))?.at;
        if (!cell || !at) continue;
        out.push({
          ruleId: 'tool-name-syntax',
          severity: 2,
          message: `The tool name \`${c.function.name}\` does not match \`${TOOL_NAME_PATTERN.source}\`: --to ${to} cannot send it (with --force it is sent as \`${names.of(c)}\`).`,
          range: doc.range(at[0], at[1]),
        });
      }
    }
  }
  return out.sort((a, b) => a.range.start.offset - b.range.start.offset);
}
