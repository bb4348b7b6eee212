// toLLMView: a parsed message file as the conversation a program sends to a
// model (spec section 9), built on the cell-level view of ../llm-view/view.ts.
//
// Decisions where the spec is silent:
// - A tool call joins the assistant message right before it (the reply that
//   asked for it, or the calls before it) as long as nothing else came in
//   between; after a result, a user message or another reply it starts an
//   assistant message of its own (content null). So parallel calls (call,
//   call, result, result) share a message and sequential ones (call, result,
//   call, result) do not.
// - The results of a call follow its assistant message directly, as the
//   providers require, even when the file has other cells between the call
//   and a result (a user message written while a tool ran comes after the
//   results). Several results of one call (`.1`, `.2`) are joined into one
//   tool message, separated by a blank line; it is an error when any is.
// - A call without a result in the view (still running at the end of the
//   file, cut off by `until`, or split from its results) is left out, and a
//   result without its call in the view too: the exported conversation always
//   pairs every call with its result. Each one left out is listed in
//   `omitted`. Split pairs and orphans are errors of the file (the
//   `history-split-pair` and `tool-result-orphan` rules), so the CLI refuses
//   such a file unless --force.
// - The text around a `<tool>` element (the model's reasoning) is appended to
//   the assistant message's content; a call shown as a summary keeps its id
//   and tool name, its arguments become `{}` and its summary is that text.
// - A code cell is a user message holding its code block (fenced, with its
//   language); a code output is a user message holding the output in a
//   fence with the info string `output` (`output status=error` for a
//   failure). With codeAsTool the code cell is instead an assistant message
//   with a `code_execution` call (id: the cell id, input `{language, code}`,
//   the text outside the code block as its content) and its outputs are the
//   call's results.
// - An agent reply's content is its body as written, thinking paragraph
//   included (seed 000 sends it so); `source.thinking` and `source.text` hold
//   the two parts apart for the formats that have a field for reasoning.
// - Messages that end up empty (an empty cell) are left out: the providers
//   reject empty content.
// - The system prompt is that of --agent, else of the agent of the `until`
//   cell when it is an agent reply, else of the default agent at the end of
//   the view (where the next request would go).

import { agentInfoAt } from '../agents/agents.js';
import { bodyText, contentLines, historyMode, inView, llmView, summaryText, type ViewEntry } from '../llm-view/view.js';
import { parse, type Cell, type MessageDocument } from '../syntax/document.js';
import { toolCallsOf, type JsonValue } from '../tool-calls/index.js';
import {
  CODE_EXECUTION_TOOL,
  type InternalMessage,
  type InternalToolCall,
  type LLMView,
  type MessageSource,
  type Omission,
  type ViewProblem,
} from './model.js';

export interface ToLLMViewOptions {
  /** When a text is given: its file name (detection of `.md` files with a message section). */
  fileName?: string;
  /** The agent the view is for (its system prompt is used). */
  agent?: string;
  /** Stop after the cell with this id. */
  until?: string;
  /** CodeAct style: code cells become `code_execution` calls and their outputs the results. */
  codeAsTool?: boolean;
}

/** A wrong `agent` or `until`. */
export class ExportOptionError extends Error {
  override readonly name = 'ExportOptionError';
}

interface ResultPart {
  cell: Cell;
  text: string;
  isError: boolean;
  time?: string;
}

interface Block {
  message: InternalMessage;
  /** assistant blocks: the results of each call, by call id. */
  results: Map<string, ResultPart[]>;
  cell: Cell;
}

/** The LLM view of a parsed file, or of a file's text (parsed as `options.fileName`, default `message.msg.md`). */
export function toLLMView(source: MessageDocument | string, options: ToLLMViewOptions = {}): LLMView {
  const doc = typeof source === 'string' ? parse(source, { fileName: options.fileName ?? 'message.msg.md' }) : source;
  let entries: ViewEntry[] = llmView(doc);
  let untilCell: Cell | undefined;
  if (options.until !== undefined) {
    untilCell = doc.cellsById.get(options.until)?.[0];
    if (!untilCell) throw new ExportOptionError(`no cell has the id '${options.until}'`);
    const last = untilCell.index;
    entries = entries.filter((e) => e.cell.index <= last);
  }
  const endOffset = untilCell ? untilCell.offset : doc.text.length;

  let agent: string | undefined;
  if (options.agent !== undefined) {
    if (!doc.agentAt(options.agent, endOffset)) {
      const later = doc.agents.some((a) => a.name === options.agent);
      throw new ExportOptionError(
        later ? `the agent '${options.agent}' is declared after the end of the view` : `no agent '${options.agent}' in the file`,
      );
    }
    agent = options.agent;
  } else if (untilCell?.cellType === 'agent-reply' && untilCell.type !== undefined) {
    agent = untilCell.type;
  } else {
    agent = doc.defaultAgentAt(endOffset);
  }
  const prompt = agent !== undefined ? agentInfoAt(doc, agent, endOffset)?.settings.systemPrompt : undefined;

  const built = build(doc, entries, options.codeAsTool === true);
  const problems = options.codeAsTool ? codePairProblems(doc, untilCell?.index ?? Infinity) : [];
  const view: LLMView = {
    systemPrompt: prompt !== undefined && prompt.trim() !== '' ? prompt : null,
    messages: built.messages,
    omitted: built.omitted,
    problems,
  };
  if (agent !== undefined) view.agent = agent;
  const time = built.messages.find((m) => m.source.time !== undefined)?.source.time;
  if (time !== undefined) view.time = time;
  return view;
}

function build(doc: MessageDocument, entries: ViewEntry[], codeAsTool: boolean): { messages: InternalMessage[]; omitted: Omission[] } {
  const blocks: Block[] = [];
  const omitted: Omission[] = [];
  const calls = new Map<string, Block>();
  let open: Block | undefined;
  const omit = (cell: Cell, reason: Omission['reason'], message: string) =>
    omitted.push({ cell: cell.id ?? `#${cell.index + 1}`, offset: cell.offset, reason, message });

  const startBlock = (cell: Cell, message: InternalMessage): Block => {
    const block: Block = { message, results: new Map(), cell };
    blocks.push(block);
    return block;
  };
  const addCall = (cell: Cell, call: InternalToolCall, text: string | undefined, source: Partial<MessageSource>) => {
    if (open) {
      open.message.toolCalls = [...(open.message.toolCalls ?? []), call];
      if (text) open.message.content = open.message.content ? `${open.message.content}\n\n${text}` : text;
      open.message.source.cells.push(cell.id ?? '');
      open.message.source.time ??= call.time;
    } else {
      open = startBlock(cell, {
        role: 'assistant',
        content: text ?? null,
        toolCalls: [call],
        source: { cells: [cell.id ?? ''], kind: 'tool-calls', ...withTime(call.time), ...source },
      });
    }
    open.results.set(call.id, []);
    calls.set(call.id, open);
  };

  for (const entry of entries) {
    const cell = entry.cell;
    const summary = entry.contributes === 'summary';
    const time = normalizeTime(cell.attr('time'));
    const id = cell.id ?? '';
    switch (cell.cellType) {
      case 'message': {
        if (codeAsTool && cell.type === 'code') {
          const block = cell.codeBlock;
          const text = summary ? summaryText(cell) : textOutside(cell, block ? [[block.fence.open.start, (block.fence.close ?? block.fence.open).end]] : []);
          const input: Record<string, JsonValue> = {};
          if (!summary) {
            if (block?.language) input.language = block.language;
            input.code = bodyText(cell);
          }
          open = undefined;
          addCall(cell, makeCall(id || `code_${cell.index + 1}`, CODE_EXECUTION_TOOL, 'local', input, text || undefined, time), text || undefined, { kind: 'code' });
          break;
        }
        open = undefined;
        const content = summary ? summaryText(cell) : cell.type === 'code' ? codeText(cell) : bodyText(cell);
        const source: MessageSource = { cells: [id], kind: cell.type === 'code' ? 'code' : 'message', ...withTime(time) };
        const userid = cell.attr('userid');
        if (userid !== undefined) source.userid = userid;
        if (summary) source.summary = true;
        startBlock(cell, { role: 'user', content, source });
        break;
      }
      case 'agent-reply':
      case 'unknown-output':
      case 'untyped-output': {
        const content = summary ? summaryText(cell) : bodyText(cell);
        const source: MessageSource = { cells: [id], kind: 'reply', ...withTime(time) };
        if (cell.type !== undefined) source.agent = cell.type;
        const reasoning = cell.attr('reasoning');
        if (reasoning === '1' || reasoning === 'true') source.reasoning = true;
        if (summary) {
          source.summary = true;
          source.text = content;
        } else {
          const parts = splitThinking(content);
          if (parts.thinking !== undefined) source.thinking = parts.thinking;
          source.text = parts.text;
        }
        open = startBlock(cell, { role: 'assistant', content, source });
        break;
      }
      case 'tool-call': {
        const info = toolCallsOf(cell)[0];
        const name = info?.toolName ?? cell.attr('name');
        if (name === undefined || name.trim() === '') {
          omit(cell, 'no-tool-name', `the tool call ${id} has no readable tool name`);
          open = undefined;
          break;
        }
        if (id !== '' && calls.has(id)) {
          omit(cell, 'duplicate-call', `a second tool call with the id ${id}`);
          break;
        }
        const text = summary
          ? summaryText(cell)
          : textOutside(cell, toolCallsOf(cell).map((t): [number, number] => [t.element.start, t.element.end]));
        const input = summary ? {} : { ...(info?.arguments ?? {}) };
        addCall(cell, makeCall(id || `call_${cell.index + 1}`, name, info?.server ?? 'local', input, text || undefined, time), text || undefined, {});
        break;
      }
      case 'tool-result': {
        open = undefined;
        const callId = id.slice(0, id.lastIndexOf('.'));
        addResult(cell, callId, summary, time, calls, omit);
        break;
      }
      case 'code-output': {
        open = undefined;
        if (codeAsTool) {
          const parent = id.split('.')[0] ?? '';
          addResult(cell, parent, summary, time, calls, omit);
          break;
        }
        const status = cell.attr('status');
        const content = summary ? summaryText(cell) : fence(bodyText(cell), status === 'error' ? 'output status=error' : 'output');
        const source: MessageSource = { cells: [id], kind: 'code-output', ...withTime(time) };
        if (status !== undefined) source.status = status;
        if (summary) source.summary = true;
        startBlock(cell, { role: 'user', content, source });
        break;
      }
    }
  }

  const messages: InternalMessage[] = [];
  for (const block of blocks) {
    const m = block.message;
    const answered: InternalToolCall[] = [];
    for (const call of m.toolCalls ?? []) {
      if (block.results.get(call.id)!.length) answered.push(call);
      else {
        const cell = doc.cellsById.get(call.id)?.[0] ?? block.cell;
        omit(cell, 'no-result', `the tool call ${call.id} has no result in the view`);
      }
    }
    if (m.toolCalls) {
      if (answered.length) m.toolCalls = answered;
      else delete m.toolCalls;
    }
    if (!m.toolCalls && (m.content === null || m.content.trim() === '')) {
      if (m.source.kind !== 'tool-calls' && m.source.kind !== 'code') omit(block.cell, 'empty', `the cell ${m.source.cells[0]} is empty`);
      continue;
    }
    messages.push(m);
    for (const call of m.toolCalls ?? []) {
      const parts = block.results.get(call.id)!;
      const result: InternalMessage = {
        role: 'tool',
        content: parts.map((p) => p.text).join('\n\n'),
        toolCallId: call.id,
        name: call.function.name,
        source: { cells: parts.map((p) => p.cell.id ?? ''), kind: 'tool-result', ...withTime(parts.find((p) => p.time)?.time) },
      };
      if (parts.some((p) => p.isError)) result.isError = true;
      if (parts.some((p) => historyMode(p.cell) === 'summary')) result.source.summary = true;
      messages.push(result);
    }
  }
  omitted.sort((a, b) => a.offset - b.offset);
  return { messages, omitted };
}

function addResult(
  cell: Cell,
  callId: string,
  summary: boolean,
  time: string | undefined,
  calls: Map<string, Block>,
  omit: (cell: Cell, reason: Omission['reason'], message: string) => void,
): void {
  const block = calls.get(callId);
  if (!block) {
    omit(cell, 'no-call', `the result ${cell.id ?? ''} has no tool call ${callId} before it in the view`);
    return;
  }
  const part: ResultPart = { cell, text: summary ? summaryText(cell) : bodyText(cell), isError: cell.attr('status') === 'error' };
  if (time !== undefined) part.time = time;
  block.results.get(callId)!.push(part);
}

function makeCall(id: string, name: string, server: string, input: Record<string, JsonValue>, text: string | undefined, time: string | undefined): InternalToolCall {
  const call: InternalToolCall = { id, type: 'function', function: { name, arguments: JSON.stringify(input) }, input, server };
  if (text !== undefined) call.text = text;
  if (time !== undefined) call.time = time;
  return call;
}

function withTime(time: string | undefined): { time?: string } {
  return time === undefined ? {} : { time };
}

/** With codeAsTool: code cells and outputs that history settings split (as history-split-pair does for tool calls). */
function codePairProblems(doc: MessageDocument, lastIndex: number): ViewProblem[] {
  const problems: ViewProblem[] = [];
  for (const cell of doc.cells) {
    if (cell.index > lastIndex) break;
    if (cell.cellType !== 'code-output' || !cell.id) continue;
    const segs = cell.id.split('.');
    if (segs.length !== 2) continue;
    const code = doc.cellsById.get(segs[0]!)?.find((c) => c.index < cell.index && !c.isOutput && c.type === 'code');
    if (!code || inView(code) === inView(cell)) continue;
    const attr = (inView(cell) ? code : cell).metadata;
    const a = attr?.node.attributes.find((x) => x.key === 'history');
    const target = inView(cell) ? code : cell;
    const [start, end] = a && attr ? attr.segment.abs(a.span) : target.abs(target.marker.idRef!.span);
    problems.push({
      cell: target.id!,
      offset: start,
      end,
      message: `With code as tool calls, the code cell \`${code.id}\` is ${inView(code) ? 'in' : 'left out of'} the LLM view but its output \`${cell.id}\` is ${inView(cell) ? 'in it' : 'left out'}: a call and its results are included or left out together.`,
    });
  }
  return problems;
}

// ---- text helpers ----

/** An ISO 8601 date-time with an offset, as UTC without milliseconds when they are zero; undefined when not valid. */
export function normalizeTime(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (!/^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:[Zz]|[+-]\d{2}:?\d{2})$/.test(v)) return undefined;
  const ms = Date.parse(v.replace(' ', 'T').replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  if (Number.isNaN(ms)) return undefined;
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

/** A fenced code block holding `text`, with a fence longer than any backtick run inside. */
export function fence(text: string, info: string): string {
  let longest = 0;
  for (const m of text.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  const f = '`'.repeat(Math.max(3, longest + 1));
  return `${f}${info}\n${text}\n${f}`;
}

/** A code cell as a user message: its code block, fenced with its language. */
function codeText(cell: Cell): string {
  const block = cell.codeBlock;
  if (!block || !block.fence.close) return bodyText(cell);
  return fence(bodyText(cell), block.language);
}

/** A leading `[...]` paragraph (the agent's thinking, spec section 6) apart from the rest. */
export function splitThinking(text: string): { thinking?: string; text: string } {
  const m = /\n[ \t]*\n/.exec(text);
  const first = (m ? text.slice(0, m.index) : text).trim();
  if (first.length >= 2 && first.startsWith('[') && first.endsWith(']') && !first.startsWith('[^')) {
    const rest = m ? text.slice(m.index + m[0].length).trim() : '';
    return { thinking: first.slice(1, -1).trim(), text: rest };
  }
  return { text };
}

/**
 * The content of a cell outside the given ranges (cell-relative): the
 * reasoning around a `<tool>` element or a code block. Lines left blank by
 * the cut are dropped and runs of blank lines become one.
 */
function textOutside(cell: Cell, ranges: [number, number][]): string {
  const text = cell.text;
  const out: string[] = [];
  // In document order, with a cursor past the ranges that end before the
  // current line: linear in lines + ranges (a cell of 20,000 `<tool>`
  // elements took seconds when every line looked at every range).
  const sorted = [...ranges].sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  let first = 0;
  for (const line of contentLines(cell)) {
    let s = line.start;
    const pieces: string[] = [];
    let cut = false;
    while (first < sorted.length && sorted[first]![1] <= line.start) first++;
    for (let i = first; i < sorted.length; i++) {
      const [a, b] = sorted[i]!;
      if (a >= line.contentEnd) break;
      if (b <= line.start) continue;
      cut = true;
      if (a > s) pieces.push(text.slice(s, a));
      s = Math.max(s, b);
    }
    if (s < line.contentEnd) pieces.push(text.slice(s, line.contentEnd));
    if (!cut) {
      out.push(pieces.join(''));
      continue;
    }
    const kept = pieces.map((p) => p.trim()).filter((p) => p !== '').join(' ');
    if (kept !== '') out.push(kept);
  }
  return out
    .join('\n')
    .replace(/\n[ \t]*(?:\n[ \t]*)+\n/g, '\n\n')
    .trim();
}
