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
//   tool message, separated by a blank line (no API takes two results for
//   one call; export notes say so); it is an error when any is. The
//   results of parallel calls come in the order of the file's result
//   cells (the order they came in), which need not be that of the calls.
// - A call without a result in the view (still running at the end of the
//   file, cut off by `until`, or split from its results) is left out, and a
//   result without its call in the view too: the exported conversation always
//   pairs every call with its result. Each one left out is listed in
//   `omitted`. Split pairs and orphans are errors of the file (the
//   `history-split-pair` and `tool-result-orphan` rules), so the CLI refuses
//   such a file unless --force. No target allows a call without a result,
//   so there is no option to send one.
// - The text around a `<tool>` element (the model's reasoning) is appended to
//   the assistant message's content, after the reply's body, and is left out
//   with its call; a call shown as a summary keeps its id and tool name, its
//   arguments become `{}` and its summary is that text.
// - A reply whose body holds the raw `<tool>` element that the model emitted,
//   and that also has the tool call cell of that call, is sent without the
//   element: the structured call wins and the call is never sent twice. The
//   k-th element of a server and tool name goes with the k-th call cell of
//   the reply with that server and name (whether that cell is in the view or
//   not); an element with no such cell stays text.
// - A code cell is a user message holding its code block (fenced, with its
//   language); a code output is a user message holding the output in a
//   fence with the info string `output` (`output status=error` for a
//   failure). With codeAsTool the code cell is instead an assistant message
//   with a `code_execution` call (id: the cell id, input `{language, code}`,
//   the text outside the code block as its content) and its outputs are the
//   call's results; a code cell with no output in the view is then left out
//   like any call without a result (text included).
// - An agent reply's content is its body as written, thinking paragraph
//   included (seed 000 sends it so); `source.thinking` and `source.text` hold
//   the two parts apart for the formats that have a field for reasoning.
// - Every assistant message names its agent: a reply's type; calls, that of
//   their PARENT reply; a code cell sent as a call or an output cell without
//   a type, the default agent at that point.
// - Messages that end up empty (an empty cell) are left out: the providers
//   reject empty content.
// - The system prompt is that of --agent, else of the agent of the `until`
//   cell when it is an agent reply, else of the default agent at the end of
//   the view (where the next request would go); the `role="system"` message
//   cells before every other message follow it (spec section 9, point 5),
//   each separated by a blank line. A later one is a `system` message at its
//   place (a code cell with `role="system"` too: its code block).
// - A tool call's `call_id` travels as `callId`; each target decides whether
//   it can send it (ids.ts).
// - An escaped line of a body (spec section 6) loses its one backslash
//   (llm-view's bodyText), and so does an escaped thinking paragraph of a
//   reply, once the thinking has been split off the text as written.

import { flat } from '../base/flat.js';
import { agentInfoAt } from '../agents/agents.js';
import { bodyText, historyMode, messageRole, summaryText } from '../llm-view/view.js';
import { parse, unescapeReplyStart, type Cell, type MessageDocument } from '../syntax/document.js';
import { readToolCalls, type JsonValue } from '../tool-calls/index.js';
import {
  CODE_EXECUTION_TOOL,
  type InternalMessage,
  type InternalToolCall,
  type LLMView,
  type MessageSource,
  type Omission,
} from './model.js';
import { codePairProblems } from './code-pairs.js';
import { parentAgent, recordedCalls, recordedElements, type RecordedCalls } from './replies.js';
import { codeText, fence, normalizeTime, splitThinking, textOutside } from './text.js';

export { normalizeTime, splitThinking } from './text.js';

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

/**
 * A reply, or tool calls, that calls may still join: settled once every
 * result is known. Other messages are final when made and have no block (a
 * block per message was much of the garbage a long file's view left).
 */
interface Block {
  message: InternalMessage;
  cell: Cell;
  /** The calls in file order (made with the first: most blocks have one or none). */
  calls: CallEntry[] | undefined;
  /** True for a block started by a reply, whose body comes before the calls' texts. */
  reply: boolean;
}

/** The messages in file order, some still waiting for their calls' results. */
type Pending = InternalMessage | Block;

/** A call in the view so far, with its cell and its result cells (none yet: undefined). */
interface CallEntry {
  call: InternalToolCall;
  cell: Cell;
  results: Cell[] | undefined;
}

/** The LLM view of a parsed file, or of a file's text (parsed as `options.fileName`, default `message.msg.md`). */
export function toLLMView(source: MessageDocument | string, options: ToLLMViewOptions = {}): LLMView {
  const doc = typeof source === 'string' ? parse(source, { fileName: options.fileName ?? 'message.msg.md' }) : source;
  let untilCell: Cell | undefined;
  if (options.until !== undefined) {
    untilCell = doc.cellsById.get(options.until)?.[0];
    if (!untilCell) throw new ExportOptionError(`no cell has the id '${options.until}'`);
  }
  const endOffset = untilCell ? doc.offsetOf(untilCell) : doc.text.length;
  const untilAgent = untilCell && doc.kindOf(untilCell) === 'agent-reply' ? doc.typeOf(untilCell) : undefined;

  let agent: string | undefined;
  if (options.agent !== undefined) {
    if (!doc.agentAt(options.agent, endOffset)) {
      const later = doc.agents.some((a) => a.name === options.agent);
      throw new ExportOptionError(
        later ? `the agent '${options.agent}' is declared after the end of the view` : `no agent '${options.agent}' in the file`,
      );
    }
    agent = options.agent;
  } else if (untilAgent !== undefined) {
    agent = untilAgent;
  } else {
    agent = doc.defaultAgentAt(endOffset);
  }
  const prompt = agent !== undefined ? agentInfoAt(doc, agent, endOffset)?.settings.systemPrompt : undefined;

  const built = build(doc, untilCell ? doc.indexOf(untilCell) : Infinity, options.codeAsTool === true);
  flattenStrings(built.messages);
  const problems = options.codeAsTool ? codePairProblems(doc, untilCell ? doc.indexOf(untilCell) : Infinity) : [];
  // System messages before every other message join the system prompt (spec section 9, point 5).
  const system: string[] = prompt !== undefined && prompt.trim() !== '' ? [prompt] : [];
  const systemCells: string[] = [];
  while (built.messages[0]?.role === 'system') {
    const m = built.messages.shift()!;
    system.push(m.content ?? '');
    systemCells.push(...m.source.cells);
  }
  const view: LLMView = {
    systemPrompt: system.length ? system.join('\n\n') : null,
    messages: built.messages,
    omitted: built.omitted,
    problems,
  };
  if (agent !== undefined) view.agent = agent;
  if (systemCells.length) view.systemCells = systemCells;
  const time = built.messages.find((m) => m.source.time !== undefined)?.source.time;
  if (time !== undefined) view.time = time;
  return view;
}

/** The view's strings in one piece each: they are built piece by piece, and a view lives as long as its export (base/flat.ts). */
function flattenStrings(messages: InternalMessage[]): void {
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.content !== null) m.content = flat(m.content);
    if (m.source.time !== undefined) m.source.time = flat(m.source.time);
    for (const call of m.toolCalls ?? []) {
      if (call.text !== undefined) call.text = flat(call.text);
      if (call.time !== undefined) call.time = flat(call.time);
    }
  }
}

function build(doc: MessageDocument, last: number, codeAsTool: boolean): { messages: InternalMessage[]; omitted: Omission[] } {
  const pending: Pending[] = [];
  const omitted: Omission[] = [];
  // Every call so far, by id.
  const calls = new Map<string, CallEntry>();
  // Made when the first reply with a `<tool>` element needs it.
  let recorded: RecordedCalls | undefined;
  let open: Block | undefined;
  const omit = (cell: Cell, reason: Omission['reason'], message: string) =>
    omitted.push({ cell: cell.id ?? `#${doc.indexOf(cell) + 1}`, offset: doc.offsetOf(cell), reason, message });

  /** A message no call can join: final now, left out when empty (the providers reject empty content). */
  const settled = (cell: Cell, message: InternalMessage) => {
    if (message.content === null || message.content.trim() === '') omit(cell, 'empty', `the cell ${message.source.cells[0]} is empty`);
    else pending.push(message);
  };
  const startBlock = (cell: Cell, message: InternalMessage, reply = false): Block => {
    const block: Block = { message, cell, calls: undefined, reply };
    pending.push(block);
    return block;
  };
  const addCall = (cell: Cell, call: InternalToolCall, source: Partial<MessageSource>) => {
    if (!open) {
      const agent = source.kind === 'code' ? doc.defaultAgentAt(doc.offsetOf(cell)) : parentAgent(doc, call.id);
      open = startBlock(cell, {
        role: 'assistant',
        content: null,
        toolCalls: [],
        source: { cells: [], kind: 'tool-calls', ...(agent !== undefined ? { agent } : {}), ...source },
      });
    }
    const entry: CallEntry = { call, cell, results: undefined };
    if (open.calls) open.calls.push(entry);
    else open.calls = [entry];
    calls.set(call.id, entry);
  };

  let index = -1;
  for (const cell of doc.cells) {
    if (++index > last) break;
    const mode = historyMode(doc, cell);
    if (mode === 'exclude') continue;
    const summary = mode === 'summary';
    const time = normalizeTime(doc.attrOf(cell, 'time'));
    const id = cell.id ?? '';
    const type = doc.typeOf(cell);
    switch (doc.kindOf(cell)) {
      case 'message': {
        if (codeAsTool && type === 'code') {
          const block = cell.codeBlock;
          const text = summary ? summaryText(doc, cell) : textOutside(cell, block ? [[block.fence.open.start, (block.fence.close ?? block.fence.open).end]] : []);
          const input: Record<string, JsonValue> = {};
          if (!summary) {
            if (block?.language) input.language = block.language;
            input.code = bodyText(doc, cell);
          }
          open = undefined;
          addCall(cell, makeCall(id || `code_${doc.indexOf(cell) + 1}`, CODE_EXECUTION_TOOL, 'local', input, text || undefined, time), { kind: 'code' });
          break;
        }
        open = undefined;
        const content = summary ? summaryText(doc, cell) : type === 'code' ? codeText(doc, cell) : bodyText(doc, cell);
        const source: MessageSource = { cells: [id], kind: type === 'code' ? 'code' : 'message', ...withTime(time), ...named(doc, cell) };
        const userid = doc.attrOf(cell, 'userid');
        if (userid !== undefined) source.userid = userid;
        if (summary) source.summary = true;
        settled(cell, { role: messageRole(doc, cell), content, source });
        break;
      }
      case 'agent-reply':
      case 'unknown-output':
      case 'untyped-output': {
        // `<tool>` elements that the reply's own tool call cells record are sent as those calls, not as text.
        const raw = summary || !cell.parse?.tools.length ? [] : recordedElements(cell, (recorded ??= recordedCalls(doc)));
        const written = summary ? summaryText(doc, cell) : raw.length ? textOutside(cell, raw) : bodyText(doc, cell);
        let content = written;
        const source: MessageSource = { cells: [id], kind: 'reply', ...withTime(time), ...named(doc, cell) };
        const agent = type ?? doc.defaultAgentAt(doc.offsetOf(cell));
        if (agent !== undefined) source.agent = agent;
        const reasoning = doc.attrOf(cell, 'reasoning');
        if (reasoning === '1' || reasoning === 'true') source.reasoning = true;
        if (summary) {
          source.summary = true;
          source.text = content;
        } else {
          // Split as written: an escaped `\\[…]` (spec section 6) is not thinking, and loses its backslash after.
          const parts = splitThinking(written);
          if (parts.thinking !== undefined) {
            source.thinking = parts.thinking;
            source.text = parts.text;
          } else source.text = content = unescapeReplyStart(written);
        }
        open = startBlock(cell, { role: 'assistant', content, source }, true);
        break;
      }
      case 'tool-call': {
        // Read, not kept: the view asks once per cell (tool-calls/read.ts).
        const infos = readToolCalls(cell);
        const info = infos[0];
        const name = info?.toolName ?? doc.attrOf(cell, 'name');
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
          ? summaryText(doc, cell)
          : textOutside(cell, infos.map((t): [number, number] => [t.element.start, t.element.end]));
        const input = summary ? {} : { ...(info?.arguments ?? {}) };
        const raw = summary ? undefined : info?.rawArguments;
        const call = makeCall(id || `call_${doc.indexOf(cell) + 1}`, name, info?.server ?? 'local', input, text || undefined, time, raw);
        const callId = doc.attrOf(cell, 'call_id');
        if (callId !== undefined && callId !== '') call.callId = callId;
        addCall(cell, call, {});
        break;
      }
      case 'tool-result': {
        open = undefined;
        addResult(cell, id.slice(0, id.lastIndexOf('.')), calls, omit);
        break;
      }
      case 'code-output': {
        open = undefined;
        if (codeAsTool) {
          addResult(cell, id.split('.')[0] ?? '', calls, omit);
          break;
        }
        const status = doc.attrOf(cell, 'status');
        const content = summary ? summaryText(doc, cell) : fence(bodyText(doc, cell), status === 'error' ? 'output status=error' : 'output');
        const source: MessageSource = { cells: [id], kind: 'code-output', ...withTime(time) };
        if (status !== undefined) source.status = status;
        if (summary) source.summary = true;
        settled(cell, { role: 'user', content, source });
        break;
      }
    }
  }

  const messages: InternalMessage[] = [];
  for (const p of pending) {
    if ('role' in p) {
      messages.push(p);
      continue;
    }
    const m = p.message;
    const answered = p.calls ? settleCalls(doc, p, p.calls, omit) : [];
    if (!m.toolCalls && (m.content === null || m.content.trim() === '')) {
      if (p.reply || !p.calls) omit(p.cell, 'empty', `the cell ${m.source.cells[0]} is empty`);
      continue;
    }
    messages.push(m);
    // The results in the order they came (their first cells' order), not the calls'.
    answered.sort((a, b) => doc.indexOf(a.results![0]!) - doc.indexOf(b.results![0]!));
    for (const { call, results } of answered) messages.push(resultMessage(doc, call, results!));
  }
  omitted.sort((a, b) => a.offset - b.offset);
  return { messages, omitted };
}

/**
 * An assistant block once every result is known: the calls without a result
 * are left out with their text (a code cell with no output too: a
 * `code_execution` call needs a result like any other), and the content is
 * the reply's body followed by the answered calls' texts.
 */
function settleCalls(
  doc: MessageDocument,
  block: Block,
  calls: readonly CallEntry[],
  omit: (cell: Cell, reason: Omission['reason'], message: string) => void,
): CallEntry[] {
  const m = block.message;
  const answered = calls.filter((c) => c.results !== undefined);
  for (const { call, cell, results } of calls) {
    if (results) continue;
    const why =
      call.function.name === CODE_EXECUTION_TOOL && doc.kindOf(cell) === 'message'
        ? `the code cell ${call.id} has no output in the view, and as a code_execution call it needs one`
        : `the tool call ${call.id} has no result in the view`;
    omit(cell, 'no-result', why);
  }
  const texts = answered.map(({ call }) => call.text).filter((t): t is string => t !== undefined && t !== '');
  const head = block.reply && m.content !== null && m.content !== '' ? [m.content] : [];
  m.content = head.length || texts.length ? [...head, ...texts].join('\n\n') : null;
  // Mapped and concatenated, not spread: a list at its size (spread, it kept room for 17 ids).
  const cells = answered.map(({ cell }) => cell.id ?? '');
  m.source.cells = block.reply ? [block.cell.id ?? ''].concat(cells) : cells;
  if (!block.reply) {
    const time = answered.find(({ call }) => call.time !== undefined)?.call.time;
    if (time !== undefined) m.source.time = time;
    else delete m.source.time;
  }
  if (answered.length) m.toolCalls = answered.map(({ call }) => call);
  else delete m.toolCalls;
  return answered;
}

/** A result cell of a call made before it in the view, else left out (`no-call`). */
function addResult(cell: Cell, callId: string, calls: ReadonlyMap<string, CallEntry>, omit: (cell: Cell, reason: Omission['reason'], message: string) => void): void {
  const entry = calls.get(callId);
  if (!entry) {
    omit(cell, 'no-call', `the result ${cell.id ?? ''} has no tool call ${callId} before it in the view`);
    return;
  }
  if (entry.results) entry.results.push(cell);
  else entry.results = [cell];
}

/** The tool message of a call: its result cells' texts, one after another, separated by a blank line. */
function resultMessage(doc: MessageDocument, call: InternalToolCall, cells: readonly Cell[]): InternalMessage {
  const summary = cells.map((c) => historyMode(doc, c) === 'summary');
  const texts = cells.map((c, i) => (summary[i] ? summaryText(doc, c) : bodyText(doc, c)));
  const time = cells.map((c) => normalizeTime(doc.attrOf(c, 'time'))).find((t) => t !== undefined);
  const result: InternalMessage = {
    role: 'tool',
    content: texts.join('\n\n'),
    toolCallId: call.id,
    name: call.function.name,
    source: { cells: cells.map((c) => c.id ?? ''), kind: 'tool-result', ...withTime(time) },
  };
  const name = cells.map((c) => doc.attrOf(c, 'name')).find((n) => n !== undefined);
  if (name !== undefined) result.source.name = name;
  // A summary is text, whatever the output was.
  if (cells.length === 1 && !summary[0] && doc.attrOf(cells[0]!, 'output') === 'json') result.source.output = 'json';
  if (cells.some((c) => doc.attrOf(c, 'status') === 'error')) result.isError = true;
  if (summary.includes(true)) result.source.summary = true;
  return result;
}

function makeCall(
  id: string,
  name: string,
  server: string,
  input: Record<string, JsonValue>,
  text: string | undefined,
  time: string | undefined,
  raw?: { text: string; value?: JsonValue; inexact?: string[]; tooDeep?: true },
): InternalToolCall {
  // The arguments as the model wrote them go on unchanged where a string is taken (spec section 8).
  // Flat at once, not with the view's other strings: JSON.stringify's pieces, kept until the view's end, were most of the garbage it left.
  const call: InternalToolCall = { id, type: 'function', function: { name, arguments: flat(raw ? raw.text : JSON.stringify(input)) }, input, server };
  if (raw) call.rawArguments = raw.value === undefined ? { text: raw.text, ...(raw.tooDeep ? { tooDeep: true } : {}) } : { text: raw.text, value: raw.value, ...(raw.inexact ? { inexact: raw.inexact } : {}) };
  if (text !== undefined) call.text = text;
  if (time !== undefined) call.time = time;
  return call;
}

function withTime(time: string | undefined): { time?: string } {
  return time === undefined ? {} : { time };
}

/** A message cell's or reply's `name` (a participant's name), when it has one. */
function named(doc: MessageDocument, cell: Cell): { name?: string } {
  const name = doc.attrOf(cell, 'name');
  return name === undefined ? {} : { name };
}
