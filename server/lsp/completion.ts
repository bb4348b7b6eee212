// Completion:
// - cell marker snippets (`# %%` message, `# %%%` reply, tool call with a
//   fresh nonce, tool result and code output with the next N), each with the
//   next free id and its metadata line;
// - types after `[^id]: [`, attribute keys for the cell's kind, values of
//   history / status / reasoning / mime_type / name;
// - frontmatter keys, agent keys and values;
// - tool names already used in the file inside `<tool_name>`;
// - inside a `<tool>` element, the `type` attribute of an argument element
//   and its values (`number`, `boolean`, `null`, `array`, `object`; `json`
//   on `<arguments>`).
// Work per request is local to the line; file-wide facts (next id, tool
// names) are computed once per version, from the indexes a version takes
// over from the previous one where there is one (completion often follows
// a keystroke: nothing there reads every cell).

import {
  CompletionItemKind,
  InsertTextFormat,
  type CompletionItem,
  type CompletionList,
  type Range,
} from 'vscode-languageserver/node';
import { Cell, MESSAGE_TYPES, type MessageDocument } from '../syntax/document.js';
import { cellsOfRoot, largestNumericRoot, rootOf } from '../syntax/tree/roots.js';
import { toolGraph } from '../tool-calls/graph.js';
import { cellById, isAgentDeclaration, metadataAt, opaqueAt } from './analysis.js';
import { messageDocument, type OpenMessageDocument, type ServerContext } from './context.js';
import { toOffset, toRange } from './convert.js';
import { guard } from './guard.js';
import { attributeValueAtEnd, toolNameIn } from './line-scan.js';
import { ATTRIBUTE_DOCS, ROLE_DOCS } from './hover.js';
import { argumentTypeItems } from './argument-types.js';

export const TRIGGER_CHARACTERS = ['#', '%', '[', '=', '"', '<', ' '];

const COMMON_KEYS = ['history', 'summary', 'time'];
const KEYS_BY_KIND: Record<string, string[]> = {
  message: [...COMMON_KEYS, 'role'],
  'agent-reply': [...COMMON_KEYS, 'reasoning'],
  'tool-call': [...COMMON_KEYS, 'name', 'call_id'],
  'tool-result': [...COMMON_KEYS, 'status', 'duration'],
  'code-output': [...COMMON_KEYS, 'status', 'duration', 'mime_type', 'output_file'],
  agent: ['models', 'context_window', 'max_output_tokens', 'reasoning', 'use_temperature', 'temperature', 'default'],
};
const VALUES: Record<string, string[]> = {
  history: ['include', 'exclude', 'summary'],
  status: ['success', 'error'],
  role: ['user', 'system'],
  reasoning: ['1', '0', 'true', 'false'],
  use_temperature: ['true', 'false'],
  default: ['1'],
  mime_type: ['text/plain', 'text/markdown', 'text/html', 'application/json', 'image/png', 'image/jpeg', 'image/svg+xml'],
};
const AGENT_YAML_KEYS = ['models', 'context_window', 'max_output_tokens', 'reasoning', 'use_temperature', 'temperature', 'system_prompt'];
const TOP_YAML_KEYS = ['agents', 'default_agent', 'message_section', 'title'];

/** One more than the largest numeric id root of a cell or metadata line. */
function nextId(doc: MessageDocument): number {
  return largestNumericRoot(doc) + 1;
}

/** The tool names used in the file, sorted. */
function toolNames(doc: MessageDocument): string[] {
  const toolNames = new Set<string>();
  for (const cell of doc.cells) {
    if (doc.kindOf(cell) !== 'tool-call') continue;
    const name = doc.attrOf(cell, 'name');
    if (name) toolNames.add(name);
    for (const t of cell.parse.tools) {
      const name = toolNameIn(cell.text.slice(t.start, t.end));
      if (name !== undefined) toolNames.add(name);
    }
  }
  return [...toolNames].sort();
}

function nextIdOf(open: OpenMessageDocument): number {
  return open.state.derive(open.ls, 'completion-next-id', nextId)!;
}

function toolNamesOf(open: OpenMessageDocument): string[] {
  return open.state.derive(open.ls, 'completion-tool-names', toolNames)!;
}

/** A random integer below `n` (Web Crypto: a global under Node as in browsers). */
function randomInt(n: number): number {
  return globalThis.crypto.getRandomValues(new Uint32Array(1))[0]! % n;
}

/** A random nonce no tool call has (nonce-reused: one per call). */
function newNonce(taken: ReadonlyMap<string, unknown>): string {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const chars = letters + '0123456789';
  for (;;) {
    let n = letters[randomInt(letters.length)]!;
    for (let i = 0; i < 4; i++) n += chars[randomInt(chars.length)]!;
    if (!taken.has(n)) return n;
  }
}

/** Removes snippet syntax for clients without snippet support: `${1:x}` → x, `${1|a,b|}` → a, `$0` → ''. */
function plain(snippet: string): string {
  return snippet
    .replace(/\$\{\d+\|([^,|]*)[^|]*\|\}/g, '$1')
    .replace(/\$\{\d+:([^}]*)\}/g, '$1')
    .replace(/\$\d+/g, '');
}

function choice(values: string[]): string {
  return values.length ? `|${values.map((v) => v.replace(/[,|$}\\]/g, '')).join(',')}|` : ':name';
}

export function registerCompletion(ctx: ServerContext): void {
  ctx.connection.onCompletion(
    guard(ctx.log, 'textDocument/completion', null, async (params): Promise<CompletionList | null> => {
      const open = await messageDocument(ctx, params.textDocument.uri);
      if (!open) return null;
      const items = complete(ctx, open, toOffset(open.state.text, params.position));
      return { isIncomplete: false, items };
    }),
  );
}

function complete(ctx: ServerContext, open: OpenMessageDocument, offset: number): CompletionItem[] {
  const { state, doc } = open;
  // The line is read from the client's text: doc.text may be a rope that any read flattens (a copy of the whole file).
  const pos = state.text.positionAt(offset);
  const line = state.text.getLineRange(pos.line);
  const prefix = state.text.getText({ start: line.start, end: pos });
  const suffix = state.text.getText({ start: pos, end: line.end });
  const range = (start: number, end = offset): Range => toRange(state.text, start, end);

  const fm = doc.frontmatter;
  if (fm && offset >= fm.contentStart && offset <= fm.contentEnd) return frontmatterItems(doc, offset, prefix, range);
  const seg = doc.segmentAt(offset);
  if (!seg?.parse || seg.kind === 'frontmatter') return [];
  const opaque = opaqueAt(doc, seg, offset) !== undefined;

  // Inside <tool_name>…
  const toolName = /<tool_name>\s*([\w.:-]*)$/.exec(prefix);
  if (toolName) {
    // The name being typed is in the file too: not a suggestion.
    return toolNamesOf(open).filter((name) => name !== toolName[1]).map((name) => ({ label: name, kind: CompletionItemKind.Function, textEdit: { range: range(offset - toolName[1]!.length), newText: name } }));
  }
  const typed = argumentTypeItems(doc, seg, offset, prefix, suffix, range);
  if (typed) return typed;
  if (opaque) return [];

  if (prefix.startsWith('[^')) return metadataItems(open, offset, prefix, suffix, range);
  if (/^(#{1,5}( %{0,3})?)?$/.test(prefix) && suffix.trim() === '') return markerItems(ctx, open, offset, prefix, range(offset - pos.character));
  return [];
}

/** How many cells start before `offset`. */
function cellsBefore(doc: MessageDocument, offset: number): number {
  let lo = 0;
  let hi = doc.cells.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (doc.offsetOf(doc.cells[mid]!) < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The line break of the line at `offset` (of the line before, on the last line). */
function lineBreakAt(open: OpenMessageDocument, offset: number): string {
  const text = open.state.text;
  const line = text.positionAt(offset).line;
  return (text.getEOLCharacters(line) || text.getEOLCharacters(line - 1)) === '\r\n' ? '\r\n' : '\n';
}

function markerItems(ctx: ServerContext, open: OpenMessageDocument, offset: number, typed: string, range: Range): CompletionItem[] {
  const { doc } = open;
  const eol = lineBreakAt(open, offset);
  const id = String(nextIdOf(open));
  const before = cellsBefore(doc, offset);
  const lastOf = (pred: (c: Cell) => boolean) => {
    for (let i = before - 1; i >= 0; i--) if (pred(doc.cells[i]!)) return doc.cells[i];
    return undefined;
  };
  // `parent.N` has the root of `parent`: the cells of that root hold every such id.
  const nextN = (parent: string) => {
    let n = 0;
    const dotted = parent + '.';
    for (const c of cellsOfRoot(doc, rootOf(parent))) {
      if (!c.id!.startsWith(dotted)) continue;
      const rest = c.id!.slice(dotted.length);
      if (/^\d+$/.test(rest)) n = Math.max(n, Number(rest));
    }
    return n + 1;
  };
  const agents = [...new Set(doc.agents.filter((a) => a.from <= offset).map((a) => a.name))];
  const defaultAgent = doc.defaultAgentAt(offset);
  const agentChoice = defaultAgent ? [defaultAgent, ...agents.filter((a) => a !== defaultAgent)] : agents;

  const snippets: { label: string; detail: string; body: string[] }[] = [
    { label: '# %% message cell', detail: `message cell [^${id}]`, body: [`# %% \${1:Title}[^${id}]`, '', `[^${id}]: [\${2|markdown,code,raw|}]`, '', '$0'] },
    { label: '# %%% agent reply', detail: `agent reply [^${id}]`, body: [`# %%% \${1:Reply}[^${id}]`, '', `[^${id}]: [\${2${choice(agentChoice)}}]`, '', '$0'] },
  ];
  const reply = lastOf((c) => doc.kindOf(c) === 'agent-reply' && c.id !== undefined);
  if (reply) {
    const callId = `${reply.id}.${newNonce(toolGraph(doc).callsByNonce)}`;
    snippets.push({
      label: '## %%% tool call',
      detail: `tool call [^${callId}] of reply ${reply.id}`,
      body: [`## %%% \${1:Tool call}[^${callId}]`, '', `[^${callId}]: [tool] name="\${2:tool_name}"`, '', '<tool>', '<tool_name>$2</tool_name>', '<arguments>', '  $0', '</arguments>', '</tool>', ''],
    });
  }
  const call = lastOf((c) => doc.kindOf(c) === 'tool-call' && c.id !== undefined && c.id.split('.').length === 2);
  if (call) {
    const resultId = `${call.id}.${nextN(call.id!)}`;
    snippets.push({
      label: '## %%% tool result',
      detail: `result [^${resultId}] of ${doc.attrOf(call, 'name') ?? call.id}`,
      body: [`## %%% \${1:Tool result}[^${resultId}]`, '', `[^${resultId}]: [tool] status="\${2|success,error|}"`, '', '$0'],
    });
  }
  const code = lastOf((c) => doc.kindOf(c) === 'message' && doc.typeOf(c) === 'code' && c.id !== undefined && !c.id.includes('.'));
  if (code) {
    const outId = `${code.id}.${nextN(code.id!)}`;
    const lang = code.codeBlock?.language || 'text';
    snippets.push({
      label: '# %%% code output',
      detail: `output [^${outId}] of code cell ${code.id}`,
      body: [`# %%% [^${outId}]`, '', `[^${outId}]: [${lang}] status="\${1|success,error|}"`, '', 'stdout> $0'],
    });
  }
  return snippets.map((s, i) => {
    const body = s.body.join(eol);
    return {
      label: s.label,
      detail: s.detail,
      kind: CompletionItemKind.Snippet,
      sortText: String(i),
      filterText: typed + s.label,
      insertTextFormat: ctx.client.snippets ? InsertTextFormat.Snippet : InsertTextFormat.PlainText,
      textEdit: { range, newText: ctx.client.snippets ? body : plain(body) },
    };
  });
}

function metadataItems(open: OpenMessageDocument, offset: number, prefix: string, suffix: string, range: (start: number, end?: number) => Range): CompletionItem[] {
  const { doc } = open;
  const typeMatch = /^\[\^([^\]]*)\]:\s*\[([^\]\s]*)$/.exec(prefix);
  if (typeMatch) {
    const id = typeMatch[1]!;
    const typed = typeMatch[2]!;
    const close = suffix.startsWith(']') ? '' : ']';
    return typeNames(doc, id, offset).map((t, i) => ({
      label: t.name,
      detail: t.detail,
      kind: t.kind,
      sortText: String(i).padStart(4, '0'),
      textEdit: { range: range(offset - typed.length), newText: t.name + close },
    }));
  }
  const meta = metadataAt(doc, offset);
  if (!meta || !/^\[\^[^\]]*\]:\s*\[[^\]]+\]\s/.test(prefix)) return [];
  const node = meta.node;
  // Inside a quoted value? Count the unescaped quotes before the cursor.
  const quotes = (prefix.replace(/\\./g, '').match(/"/g) ?? []).length;
  const valueMatch = attributeValueAtEnd(prefix);
  if (valueMatch && (quotes % 2 === 1) === (valueMatch[1] === '"')) {
    const key = valueMatch[0];
    const quoted = valueMatch[1] === '"';
    const cell = cellById(doc, node.idText);
    let values = VALUES[key] ?? [];
    if (key === 'name' && (node.type === 'tool' || (cell !== undefined && doc.kindOf(cell) === 'tool-call'))) values = toolNamesOf(open).filter((v) => v !== valueMatch[2]);
    if (key === 'reasoning' && node.type === 'agent') values = ['true', 'false'];
    const closeQuote = quoted && !suffix.startsWith('"') ? '"' : '';
    return values.map((v) => {
      const needsQuotes = !quoted && /[\s"'[\]]/.test(v);
      return {
        label: v,
        kind: CompletionItemKind.Value,
        detail: key === 'history' ? undefined : key,
        ...(key === 'role' && ROLE_DOCS[v] ? { documentation: ROLE_DOCS[v] } : {}),
        textEdit: { range: range(offset - valueMatch[2].length), newText: needsQuotes ? `"${v}"` : v + closeQuote },
      };
    });
  }
  if (quotes % 2 === 1) return [];
  const keyMatch = /(?:^|\s)([A-Za-z][\w-]*)?$/.exec(prefix);
  if (!keyMatch) return [];
  const typedKey = keyMatch[1] ?? '';
  const named = cellById(doc, node.idText);
  const kind = isAgentDeclaration(doc, node) ? 'agent' : named ? doc.kindOf(named) : guessKind(node.idText, node.type);
  const present = new Set(node.attributes.map((a) => a.key));
  return (KEYS_BY_KIND[kind] ?? COMMON_KEYS)
    .filter((k) => !present.has(k) || k === typedKey)
    .map((k) => ({
      label: k,
      kind: CompletionItemKind.Property,
      documentation: ATTRIBUTE_DOCS[k],
      textEdit: { range: range(offset - typedKey.length), newText: `${k}=` },
    }));
}

function guessKind(id: string, type: string | undefined): string {
  if (type !== undefined && MESSAGE_TYPES.has(type)) return 'message';
  const n = id.split('.').length;
  if (type === 'tool') return n === 3 ? 'tool-result' : 'tool-call';
  if (n === 2 && /^\d+$/.test(id.split('.')[1]!)) return 'code-output';
  return 'agent-reply';
}

function typeNames(doc: MessageDocument, id: string, offset: number): { name: string; detail: string; kind: CompletionItemKind }[] {
  const cell = cellById(doc, id);
  const message = [...MESSAGE_TYPES].map((name) => ({ name, detail: 'message cell', kind: CompletionItemKind.EnumMember }));
  if (cell && !cell.isOutput) return message;
  const out: { name: string; detail: string; kind: CompletionItemKind }[] = [];
  const parts = id.split('.');
  // A code output: its code cell's language first.
  if (parts.length === 2 && /^\d+$/.test(parts[1]!)) {
    const lang = cellById(doc, parts[0]!)?.codeBlock?.language;
    if (lang) out.push({ name: lang, detail: 'language of the code cell', kind: CompletionItemKind.EnumMember });
  }
  if (parts.length >= 2) out.push({ name: 'tool', detail: parts.length === 3 ? 'tool result' : 'tool call', kind: CompletionItemKind.Keyword });
  const seen = new Set(out.map((o) => o.name));
  for (const a of doc.agents) {
    if (a.from > offset || seen.has(a.name)) continue;
    seen.add(a.name);
    out.push({ name: a.name, detail: `agent (${a.source})`, kind: CompletionItemKind.Class });
  }
  if (!cell && !seen.has('tool')) out.push({ name: 'tool', detail: 'tool call or result', kind: CompletionItemKind.Keyword });
  for (const lang of [...doc.codeLanguages].sort()) {
    if (!seen.has(lang)) out.push({ name: lang, detail: 'code output language', kind: CompletionItemKind.EnumMember });
    seen.add(lang);
  }
  if (!cell) {
    out.push(...message.filter((m) => !seen.has(m.name)));
    out.push({ name: 'agent', detail: 'declares a temporary agent', kind: CompletionItemKind.Keyword });
  }
  return out;
}

function frontmatterItems(doc: MessageDocument, offset: number, prefix: string, range: (start: number, end?: number) => Range): CompletionItem[] {
  const fm = doc.frontmatter!;
  const value = /^(\s*)([\w-]+):\s+(\S*)$/.exec(prefix);
  if (value) {
    const key = value[2]!;
    const typed = value[3]!;
    const indent = value[1]!.length;
    let values: string[] = [];
    if (indent === 0 && key === 'default_agent') values = fm.agents.map((a) => a.name);
    else if (indent === 0 && key === 'message_section') values = ['true', 'Discussion'];
    else if (indent > 0 && (key === 'reasoning' || key === 'use_temperature')) values = ['true', 'false'];
    return values.map((v) => ({ label: v, kind: CompletionItemKind.Value, textEdit: { range: range(offset - typed.length), newText: v } }));
  }
  const key = /^(\s*)([\w-]*)$/.exec(prefix);
  if (!key) return [];
  const indent = key[1]!.length;
  const typed = key[2]!;
  const present = new Set<string>();
  let keys: string[];
  if (indent === 0) {
    keys = TOP_YAML_KEYS;
    for (const e of fm.entries) present.add(e.key);
  } else {
    // Under an agent: the agent whose name comes last before the cursor, indented less.
    const agent = [...fm.agents].reverse().find((a) => a.nameSpan.start < offset);
    const agentIndent = agent ? doc.lines.position(agent.nameSpan.start).character : -1;
    if (!agent || indent <= agentIndent) return [];
    keys = AGENT_YAML_KEYS;
    for (const s of agent.settings) present.add(s.key);
  }
  return keys
    .filter((k) => !present.has(k) || k === typed)
    .map((k) => ({ label: k, kind: CompletionItemKind.Property, documentation: ATTRIBUTE_DOCS[k], textEdit: { range: range(offset - typed.length), newText: `${k}: ` } }));
}
