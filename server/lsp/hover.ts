// Hover: on an id, the cell it names (kind, type, attributes; a tool call's
// results and their status; whether it is in the LLM view and its estimated
// tokens); on an agent name, the agent's settings; on a `history` value, what
// the model will see; on a `role` value, what it makes of the message; on
// the `type` attribute of an argument element in a `<tool>`, what the type
// means; on any problem, the rule's summary and a link to its
// docs; anywhere else in a cell (its marker line, its body), the cell's kind
// and whether it is in the LLM view, with its estimated tokens.

import { MarkupKind, type Hover } from 'vscode-languageserver/node';
import { getRule } from '../linter.js';
import { HISTORY_MODES, historyMode } from '../llm-view/view.js';
import { cellTokens, thinkingTokens } from '../llm-view/tokens.js';
import type { Cell, CellKind, MessageDocument } from '../syntax/document.js';
import { agentFor, cellById, derivedCells, targetAt, type Span, type Target } from './analysis.js';
import { messageDocument, type ServerContext } from './context.js';
import { toOffset, toRange } from './convert.js';
import { guard } from './guard.js';
import { argumentTypeAt } from './argument-types.js';

const KIND_LABEL: Record<CellKind, string> = {
  message: 'Message cell',
  'agent-reply': 'Agent reply',
  'tool-call': 'Tool call',
  'tool-result': 'Tool result',
  'code-output': 'Code output',
  'unknown-output': 'Output cell of an unknown type',
  'untyped-output': 'Output cell without metadata',
};

/** What each known attribute means (spec section 5). */
export const ATTRIBUTE_DOCS: Record<string, string> = {
  history: 'Whether the LLM sees this cell: `include` (default), `exclude`, or `summary` (only its summary).',
  summary: 'The summary used with `history=summary`; without it the cell title is the summary.',
  time: 'ISO 8601 date-time with a UTC offset or `Z`, e.g. `2025-05-30T00:00:00+08:00`.',
  reasoning: 'Agent reply: `1`/`true` when the reply is a reasoning step that leads to tool calls.',
  name: "Tool call: the tool's name; equals the XML's `<tool_name>`.",
  status: 'Tool result or code output: `success` or `error`.',
  duration: 'Tool result or code output: a number and a unit, `ms`, `s` or `m` (`0.5s`, `120ms`).',
  mime_type: 'Code output: `type/subtype`, default `text/plain`; a binary type means the body is base64.',
  output_file: 'Code output: a relative path where large output is stored.',
  role: 'Message cell: `user` (default) or `system`, a system message at this place; before every other message it joins the system prompt.',
  call_id:
    "Tool call: the id the model or provider gave the call (any text without `\"`). Export sends it as the call's id, and its results', where the target accepts it (OpenAI: at most 40 characters; Anthropic: only `A-Z a-z 0-9 _ -`) and no other call has the same one; otherwise the id is made from the cell id.",
  models: 'Temporary agent: a comma-separated list of model names (default: the agent name).',
  default: 'Temporary agent: `default=1` makes it the default agent from this line on.',
  context_window: 'Agent: the context window in tokens (a positive integer).',
  max_output_tokens: 'Agent: the most tokens a reply may have (not above context_window).',
  temperature: 'Agent: sampling temperature, 0 to 2 (ignored when use_temperature is false).',
  use_temperature: 'Agent: whether the temperature is sent (default true).',
};

/** What each `role` value makes of a message cell (spec sections 5 and 9). */
export const ROLE_DOCS: Record<string, string> = {
  user: 'A user message (the default).',
  system:
    'A system message at this place of the conversation. Before every other message it joins the system prompt (after the agent\'s `system_prompt`); later, Anthropic gets it as a `<system>` text block of a user turn.',
};

/** What the model sees of a cell for each `history` value (spec section 9). */
export function historyMeaning(doc: MessageDocument, value: string, cell: Cell | undefined): string {
  switch (value) {
    case 'include':
    case '1':
    case 'true':
      return 'The model sees this cell in full (the default).';
    case 'exclude':
    case 'none':
    case '0':
    case 'false':
      return 'The model does not see this cell at all.';
    case 'summary': {
      const summary = cell && doc.attrOf(cell, 'summary');
      if (summary !== undefined) return `The model sees only the summary: "${summary}".`;
      if (cell?.marker.titleText) return `The model sees only the cell title as a summary: "${cell.marker.titleText}".`;
      return 'The model should see only a summary, but this cell has neither a `summary` attribute nor a title.';
    }
    default:
      return `\`${value}\` is not a history value: use include, exclude or summary.`;
  }
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}

/**
 * Whether a cell is in the LLM view (spec section 9) and what it costs:
 * included, only its summary, or left out and why (its `history` value),
 * with the estimate of the context-window rule (cellTokens: a reply's
 * thinking paragraph is not sent, as the openai and anthropic exports leave it out).
 */
export function viewLine(doc: MessageDocument, cell: Cell): string {
  const history = doc.attrOf(cell, 'history');
  const written = history !== undefined ? `\`history=${history}\`` : '';
  switch (historyMode(doc, cell)) {
    case 'exclude':
      return `In the LLM view: no, left out by ${written} (about ${count(cellTokens(doc, cell, 'sent'))} tokens if included)`;
    case 'summary':
      return `In the LLM view: only its summary, by ${written} (about ${count(cellTokens(doc, cell, 'summary'))} tokens)`;
    default: {
      const thinking = thinkingTokens(doc, cell);
      const tokens = `about ${count(cellTokens(doc, cell, 'sent'))} tokens${thinking > 0 ? `, its thinking paragraph of about ${count(thinking)} left out as export leaves it` : ''}`;
      if (history !== undefined && !Object.hasOwn(HISTORY_MODES, history)) {
        return `In the LLM view: yes (${tokens}; ${written} is not a history value, so it counts as \`include\`)`;
      }
      return `In the LLM view: yes (${tokens})`;
    }
  }
}

function lineOf(doc: MessageDocument, offset: number): number {
  return doc.lines.lineOf(offset) + 1;
}

function attributesLine(doc: MessageDocument, cell: Cell): string | undefined {
  const attrs = doc.metadataOf(cell)?.node.attributes ?? [];
  if (!attrs.length) return undefined;
  return attrs.map((a) => `\`${a.key}=${a.quoted ? JSON.stringify(a.value) : a.value}\``).join(' ');
}

/** A tool result in its call's hover: `` `2.k7f3q.1` success (0.5s) ``. */
function resultLine(doc: MessageDocument, r: Cell): string {
  const duration = doc.attrOf(r, 'duration');
  return `\`${r.id}\` ${doc.attrOf(r, 'status') ?? 'no status'}${duration ? ` (${duration})` : ''}`;
}

/** A tool call in its reply's hover: `` `2.k7f3q` read_file ``. */
function callLine(doc: MessageDocument, c: Cell): string {
  const name = doc.attrOf(c, 'name');
  return `\`${c.id}\`${name ? ` ${name}` : ''}`;
}

export function describeCell(doc: MessageDocument, cell: Cell): string {
  const id = cell.id ?? '';
  const out: string[] = [];
  const cellType = doc.typeOf(cell);
  const type = cellType !== undefined ? ` · type \`${cellType}\`` : '';
  const kind = doc.kindOf(cell);
  out.push(`**${KIND_LABEL[kind]}** \`[^${id}]\`${type} · line ${lineOf(doc, doc.offsetOf(cell))}`);
  if (cell.marker.titleText) out.push(`Title: ${cell.marker.titleText}`);
  const attrs = attributesLine(doc, cell);
  if (attrs) out.push(`Attributes: ${attrs}`);
  if (!doc.metadataOf(cell)) out.push('No metadata line for this id.');
  const parent = id.includes('.') ? cellById(doc, id.slice(0, id.lastIndexOf('.'))) : undefined;
  switch (kind) {
    case 'tool-call': {
      const results = derivedCells(doc, id);
      if (parent) out.push(`Called by \`[^${parent.id}]\` (${doc.typeOf(parent) ?? 'no type'})`);
      const callId = doc.attrOf(cell, 'call_id');
      if (callId !== undefined) out.push(`Call id: \`${callId}\`, sent as the call's id where the target accepts it`);
      if (results.length === 0) out.push('No result yet.');
      else out.push('Results: ' + results.map((r) => resultLine(doc, r)).join(', '));
      break;
    }
    case 'tool-result':
      if (parent) {
        const name = doc.attrOf(parent, 'name');
        out.push(`Result of \`[^${parent.id}]\`${name ? ` (\`${name}\`)` : ''}`);
      }
      break;
    case 'code-output':
      if (parent) out.push(`Output of code cell \`[^${parent.id}]\`${parent.codeBlock?.language ? ` (${parent.codeBlock.language})` : ''}`);
      break;
    case 'agent-reply': {
      const calls = derivedCells(doc, id).filter((c) => doc.kindOf(c) === 'tool-call');
      if (calls.length) out.push('Tool calls: ' + calls.map((c) => callLine(doc, c)).join(', '));
      break;
    }
    case 'message': {
      if (doc.attrOf(cell, 'role') === 'system') out.push(`Role: ${ROLE_DOCS.system}`);
      const outputs = derivedCells(doc, id).filter((c) => doc.kindOf(c) === 'code-output');
      if (outputs.length) out.push('Outputs: ' + outputs.map((c) => `\`${c.id}\` ${doc.attrOf(c, 'status') ?? ''}`.trim()).join(', '));
      break;
    }
  }
  const history = doc.attrOf(cell, 'history');
  if (history !== undefined) out.push(`History: ${historyMeaning(doc, history, cell)}`);
  out.push(viewLine(doc, cell));
  return out.join('\n\n');
}

/** The short hover of a cell, where nothing more specific applies (its marker line, its body). */
function describeCellBriefly(doc: MessageDocument, cell: Cell): string {
  const id = cell.id !== undefined ? ` \`[^${cell.id}]\`` : '';
  const cellType = doc.typeOf(cell);
  const type = cellType !== undefined ? ` · type \`${cellType}\`` : '';
  return `**${KIND_LABEL[doc.kindOf(cell)]}**${id}${type} · line ${lineOf(doc, doc.offsetOf(cell))}\n\n${viewLine(doc, cell)}`;
}

function describeAgent(doc: MessageDocument, name: string, offset: number): string {
  const def = agentFor(doc, name, offset);
  const isDefault = doc.defaultAgentAt(offset) === name;
  const head = `**Agent** \`${name}\`${isDefault ? ' (default agent here)' : ''}`;
  if (!def) return `${head}\n\nNo agent of this name is defined.`;
  const out = [head];
  if (def.source === 'config') {
    out.push('Defined in the msglint configuration (`agents`).');
  } else if (def.source === 'frontmatter') {
    out.push(`Defined in the frontmatter, line ${lineOf(doc, def.at[0])}.`);
    const agent = doc.frontmatter?.agents.find((a) => a.name === name);
    for (const s of agent?.settings ?? []) {
      if (s.key === 'system_prompt') continue;
      const v = Array.isArray(s.value) ? s.value.join(', ') : String(s.value);
      out.push(`- ${s.key}: \`${v}\``);
    }
    const prompt = agent?.settings.find((s) => s.key === 'system_prompt')?.value;
    if (typeof prompt === 'string') out.push(`System prompt: ${prompt.length > 200 ? prompt.slice(0, 200) + '…' : prompt}`);
  } else {
    out.push(`Temporary agent declared on line ${lineOf(doc, def.at[0])}.`);
    for (const a of def.metadata?.node.attributes ?? []) out.push(`- ${a.key}: \`${a.value}\``);
  }
  return out.join('\n\n');
}

function describeTarget(doc: MessageDocument, t: Target, offset: number): string | undefined {
  switch (t.kind) {
    case 'id': {
      const cell = cellById(doc, t.prefix);
      if (cell) return describeCell(doc, cell);
      return `\`[^${t.prefix}]\`: no cell uses this id.`;
    }
    case 'agent':
      return describeAgent(doc, t.name, offset);
    case 'type': {
      const cell = cellById(doc, t.meta.node.idText);
      if (t.type === 'tool') return '**Type** `tool`: a tool call (id `PARENT.NONCE`) or a tool result (id `PARENT.NONCE.N`).';
      if (t.type === 'agent') return '**Type** `agent`: declares a temporary agent named by this id.';
      if (['markdown', 'code', 'raw'].includes(t.type)) return `**Type** \`${t.type}\`: a message cell.`;
      if ((cell !== undefined && doc.kindOf(cell) === 'code-output') || doc.isLanguage(t.type)) return `**Type** \`${t.type}\`: the language of a code output.`;
      return `**Type** \`${t.type}\`: not a known agent, \`tool\` or language.`;
    }
    case 'attr-key': {
      const docs = ATTRIBUTE_DOCS[t.attr.key];
      return docs ? `**${t.attr.key}**: ${docs}` : `**${t.attr.key}**: an attribute msglint does not interpret.`;
    }
    case 'attr-value': {
      if (t.attr.key === 'role') {
        const meaning = Object.hasOwn(ROLE_DOCS, t.attr.value) ? ROLE_DOCS[t.attr.value] : `\`${t.attr.value}\` is not a role: use user or system.`;
        return `**role=${t.attr.value}**: ${meaning}`;
      }
      if (t.attr.key !== 'history') return undefined;
      const cell = cellById(doc, t.meta.node.idText);
      const meaning = `**history=${t.attr.value}**: ${historyMeaning(doc, t.attr.value, cell)}`;
      return cell ? `${meaning}\n\n${viewLine(doc, cell)}` : meaning;
    }
    case 'agent-setting': {
      const docs = ATTRIBUTE_DOCS[t.entry.key];
      return docs ? `**${t.entry.key}**: ${docs}` : undefined;
    }
  }
}

export function registerHover(ctx: ServerContext): void {
  ctx.connection.onHover(
    guard(ctx.log, 'textDocument/hover', null, async (params): Promise<Hover | null> => {
      const open = await messageDocument(ctx, params.textDocument.uri);
      if (!open) return null;
      const { state, ls, doc } = open;
      const offset = toOffset(state.text, params.position);
      const parts: string[] = [];
      let span: Span | undefined;
      const target = targetAt(doc, offset);
      if (target) {
        const text = describeTarget(doc, target, offset);
        if (text) {
          parts.push(text);
          span = target.span;
        }
      }
      const typed = parts.length ? undefined : argumentTypeAt(doc, offset);
      if (typed) {
        parts.push(typed.text);
        span = typed.span;
      }
      // Elsewhere in a cell: the cell and its place in the LLM view, after any problem here.
      const cell = parts.length ? undefined : doc.cellAt(offset);
      for (const d of state.lint(ls)) {
        if (d.range.start.offset > offset) break;
        if (offset > d.range.end.offset) continue;
        const rule = getRule(d.ruleId);
        parts.push(`**msglint** \`${d.ruleId}\`: ${rule?.meta.description ?? d.message}${rule ? ` ([docs](${rule.meta.docs}))` : ''}`);
        span ??= [d.range.start.offset, d.range.end.offset];
      }
      if (cell) {
        parts.push(describeCellBriefly(doc, cell));
        if (!span) {
          // On the marker line, the hover is about that line; in the body, the editor picks the word.
          const marker = cell.parse.lines[0]!;
          const at = doc.offsetOf(cell);
          if (offset <= at + marker.contentEnd) span = [at, at + marker.contentEnd];
        }
      }
      if (!parts.length) return null;
      return {
        contents: { kind: ctx.client.markdown ? MarkupKind.Markdown : MarkupKind.PlainText, value: parts.join('\n\n---\n\n') },
        range: span ? toRange(state.text, span[0], span[1]) : undefined,
      };
    }),
  );
}
