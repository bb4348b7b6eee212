// Document symbols as a tree: message cell > replies > tool calls > results
// (a code output under its code cell), with the frontmatter's agents first.
// Computed on request and cached per version.

import { SymbolKind, type DocumentSymbol, type SymbolInformation } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Cell, CellKind, MessageDocument } from '../syntax/document.js';
import { unquoted } from './analysis.js';
import { messageDocument, type ServerContext } from './context.js';
import { toRange } from './convert.js';
import { guard } from './guard.js';

const KIND: Record<CellKind, SymbolKind> = {
  message: SymbolKind.Module,
  'agent-reply': SymbolKind.Class,
  'tool-call': SymbolKind.Method,
  'tool-result': SymbolKind.Event,
  'code-output': SymbolKind.Field,
  'unknown-output': SymbolKind.Object,
  'untyped-output': SymbolKind.Object,
};

const KIND_NAME: Record<CellKind, string> = {
  message: 'message',
  'agent-reply': 'reply',
  'tool-call': 'tool call',
  'tool-result': 'tool result',
  'code-output': 'code output',
  'unknown-output': 'output',
  'untyped-output': 'output',
};

/** The end of a cell without its trailing blank lines. */
export function contentEnd(doc: MessageDocument, cell: Cell): number {
  let end = cell.text.length;
  while (end > 0 && /\s/.test(cell.text[end - 1]!)) end--;
  return doc.offsetOf(cell) + Math.max(end, 1);
}

interface Node {
  symbol: DocumentSymbol;
  end: number;
}

export function documentSymbols(doc: MessageDocument, text: TextDocument): DocumentSymbol[] {
  const top: Node[] = [];
  const fm = doc.frontmatter;
  if (fm?.agents.length) {
    const agents: DocumentSymbol[] = fm.agents.map((a) => {
      const name = unquoted(doc.text, a.nameSpan.start, a.nameSpan.end);
      return {
        name: a.name || '(agent)',
        detail: 'agent',
        kind: SymbolKind.Interface,
        range: toRange(text, a.span.start, Math.max(a.span.end, name[1])),
        selectionRange: toRange(text, name[0], name[1]),
      };
    });
    top.push({ symbol: { name: 'agents', detail: 'frontmatter', kind: SymbolKind.Namespace, range: toRange(text, fm.start, fm.end), selectionRange: toRange(text, fm.start, fm.start + 3), children: agents }, end: fm.end });
  }
  const byId = new Map<string, Node>();
  let currentMessage: Node | undefined;
  const nodes: Node[] = [];
  const parentOf = new Map<Node, Node | undefined>();
  for (const cell of doc.cells) {
    const id = cell.id;
    const title = cell.marker.titleText.trim();
    const ref = cell.marker.idRef;
    const selection = doc.abs(cell, ref ? ref.refSpan : cell.marker.span);
    const end = contentEnd(doc, cell);
    const kind = doc.kindOf(cell);
    const symbol: DocumentSymbol = {
      name: title && id !== undefined ? `${title} [^${id}]` : title || (id !== undefined ? `[^${id}]` : '(cell without id)'),
      detail: [KIND_NAME[kind], doc.typeOf(cell)].filter(Boolean).join(' · '),
      kind: KIND[kind],
      range: toRange(text, doc.offsetOf(cell), end),
      selectionRange: toRange(text, selection[0], Math.max(selection[0], selection[1])),
    };
    const node: Node = { symbol, end };
    nodes.push(node);
    let parent: Node | undefined;
    const parts = id?.split('.') ?? [];
    if (kind === 'message') {
      currentMessage = node;
    } else if (kind === 'tool-call' || kind === 'code-output') {
      parent = byId.get(parts.slice(0, -1).join('.')) ?? currentMessage;
    } else if (kind === 'tool-result') {
      parent = byId.get(parts.slice(0, 2).join('.')) ?? byId.get(parts[0] ?? '') ?? currentMessage;
    } else {
      parent = currentMessage;
    }
    if (id !== undefined && !byId.has(id)) byId.set(id, node);
    parentOf.set(node, parent);
    if (parent) (parent.symbol.children ??= []).push(symbol);
    else top.push(node);
  }
  // A parent's range covers its children (deepest first: cells come in file order).
  for (let i = nodes.length - 1; i >= 0; i--) {
    const node = nodes[i]!;
    const parent = parentOf.get(node);
    if (parent && node.end > parent.end) {
      parent.end = node.end;
      parent.symbol.range = { start: parent.symbol.range.start, end: text.positionAt(node.end) };
    }
  }
  return top.map((n) => n.symbol);
}

function flatten(symbols: DocumentSymbol[], uri: string, container: string | undefined, out: SymbolInformation[]): SymbolInformation[] {
  for (const s of symbols) {
    out.push({ name: s.name, kind: s.kind, location: { uri, range: s.range }, ...(container ? { containerName: container } : {}) });
    if (s.children) flatten(s.children, uri, s.name, out);
  }
  return out;
}

export function registerSymbols(ctx: ServerContext): void {
  ctx.connection.onDocumentSymbol(
    guard(ctx.log, 'textDocument/documentSymbol', null, async (params): Promise<DocumentSymbol[] | SymbolInformation[] | null> => {
      const open = await messageDocument(ctx, params.textDocument.uri);
      if (!open) return null;
      const { state, ls } = open;
      const symbols = state.derive(ls, 'symbols', (doc) => documentSymbols(doc, state.text)) ?? [];
      return ctx.client.hierarchicalSymbols ? symbols : flatten(symbols, state.uri, undefined, []);
    }),
  );
}
