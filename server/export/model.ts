// The conversation a message file hands to a model (spec section 9), in a
// provider-neutral form: seed 004's InternalMessage, plus what the
// seed 001 formats need (times, thinking, the cells each message comes from).
// The formatters (one file per target) turn it into each provider's shape.

import type { JsonValue } from '../tool-calls/index.js';

export type ExportFormat = 'openai' | 'anthropic' | 'vercel' | 'vercel-legacy' | 'context-json' | 'console';
export const EXPORT_FORMATS: readonly ExportFormat[] = ['openai', 'anthropic', 'vercel', 'vercel-legacy', 'context-json', 'console'];

/** The targets whose output goes to a provider's API, which limits tool names (and ids). */
export const API_FORMATS: ReadonlySet<ExportFormat> = new Set(['openai', 'anthropic', 'vercel', 'vercel-legacy']);

/** The pseudo tool a code cell becomes with `codeAsTool` (seed 002's CodeAct agents). */
export const CODE_EXECUTION_TOOL = 'code_execution';

export interface InternalToolCall {
  /** The tool call cell's id (`PARENT.NONCE`), or the code cell's id for `code_execution`. */
  id: string;
  type: 'function';
  function: {
    name: string;
    /**
     * What OpenAI's `function.arguments` holds: the text of `<arguments
     * type="json">` unchanged (JSON or not), else `input` as a JSON string.
     */
    arguments: string;
  };
  /**
   * The arguments as an object (spec section 8), typed values included: for
   * `<arguments type="json">` the parsed text when it is a JSON object,
   * else `{}` (rawArguments has what the model wrote); `{}` for a call shown
   * as a summary.
   */
  input: Record<string, JsonValue>;
  /**
   * `<arguments type="json">`: its text, and its value when the text is JSON
   * (of any kind), with the numbers of the text, as written, that the value
   * does not hold exactly (a double holds neither `12345678901234567890` nor
   * `1e999`): a target that takes the value sends them changed. `tooDeep`:
   * no value because the text is nested deeper than msglint reads JSON.
   */
  rawArguments?: { text: string; value?: JsonValue; inexact?: string[]; tooDeep?: true };
  /** `local` or an MCP server's name. */
  server: string;
  /** The model's reasoning around the `<tool>` element (or the text around a code block), or the summary. */
  text?: string;
  /** `time` of the call cell, normalised to UTC. */
  time?: string;
  /**
   * The call cell's `call_id` (spec section 5): the id the model or provider
   * gave the call, sent instead of one made from `id` where the target
   * accepts it (ids.ts).
   */
  callId?: string;
}

export interface InternalMessage {
  /** `system`: a message cell with `role="system"` after the first other message (those before it join the system prompt). */
  role: 'system' | 'user' | 'assistant' | 'tool';
  /** null only for an assistant message that holds nothing but tool calls. */
  content: string | null;
  /** assistant: the calls it makes; each is answered by the `tool` messages right after it. */
  toolCalls?: InternalToolCall[];
  /** tool: the call this answers. */
  toolCallId?: string;
  /** tool: the tool's name. */
  name?: string;
  /** tool: a result with `status="error"` (any of them, when several results were joined). */
  isError?: boolean;
  /** Where the message comes from. */
  source: MessageSource;
}

export interface MessageSource {
  /** The ids of the cells the message was made from, in file order. */
  cells: string[];
  kind: 'message' | 'code' | 'code-output' | 'reply' | 'tool-calls' | 'tool-result';
  /** The first of the cells' `time`, normalised to UTC (`2025-05-30T01:00:00Z`). */
  time?: string;
  /**
   * assistant: the agent that wrote it: the reply's type; for calls without
   * their reply in the message, the type of their PARENT reply; for a code
   * cell sent as a call, or an output cell without a type, the default agent there.
   */
  agent?: string;
  /** user, system: the `userid` attribute of the cell, when it has one. */
  userid?: string;
  /**
   * The cell's `name` attribute: of a message cell or a reply, the
   * participant's name (OpenAI's `name`); of a result, the tool message's own
   * name (the first result's that has one). Only --to openai sends it as it is.
   */
  name?: string;
  /** tool: the result is one cell with `output=json` (an AI SDK JSON output): its text is JSON. */
  output?: 'json';
  /** assistant: the leading `[...]` paragraph of the reply (without the brackets). */
  thinking?: string;
  /** assistant: the reply without its thinking paragraph. */
  text?: string;
  /** assistant: the reply has `reasoning=1` (a step that leads to tool calls). */
  reasoning?: boolean;
  /** True when a `history=summary` cell contributed its summary. */
  summary?: boolean;
  /** user (code output): the `status` of the output. */
  status?: string;
}

/** Something in the file that the exported conversation leaves out, and why. */
export interface Omission {
  cell: string;
  /** Absolute offset of the cell. */
  offset: number;
  reason: 'no-result' | 'no-call' | 'duplicate-call' | 'empty' | 'no-tool-name';
  message: string;
}

/** A problem that makes the view invalid (with codeAsTool: a code pair that history settings split). */
export interface ViewProblem {
  cell: string;
  offset: number;
  end: number;
  message: string;
}

export interface LLMView {
  /** The agent the view is for: `--agent`, else the agent of the `until` reply, else the default agent. */
  agent?: string;
  /** The agent's `system_prompt`, then the `role="system"` cells before every other message, separated by a blank line. */
  systemPrompt: string | null;
  /** The `role="system"` cells that joined the system prompt, in file order. */
  systemCells?: string[];
  /** The time of the first message that has one (used for the system message of context-json). */
  time?: string;
  messages: InternalMessage[];
  omitted: Omission[];
  problems: ViewProblem[];
}
