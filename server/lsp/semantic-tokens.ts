// Semantic tokens for markers, ids, types, agent names, attribute keys and
// values and msglint directives, so that editors without a grammar for
// message files still highlight them. Computed on request: each cell's
// tokens are cached with its parse (so after an edit only the edited cell is
// tokenized again), full results are cached per version, and range requests
// assemble only the cells in the range.

import type { SemanticTokens, SemanticTokensLegend } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { CellParse } from '../syntax/format/cell.js';
import type { MessageDocument } from '../syntax/document.js';
import { unquoted } from './analysis.js';
import { messageDocument, type ServerContext } from './context.js';
import { lineAtOffset, lineStarts, toOffsets } from './convert.js';
import { guard } from './guard.js';
import { Memo } from '../base/memo.js';

const TYPES = ['keyword', 'variable', 'type', 'class', 'property', 'string', 'number', 'macro'] as const;
type TokenType = (typeof TYPES)[number];
const MODIFIERS = ['declaration'] as const;

export const SEMANTIC_TOKENS_LEGEND: SemanticTokensLegend = { tokenTypes: [...TYPES], tokenModifiers: [...MODIFIERS] };

/** A token of a segment, positioned relative to the segment's start (lines counted as the client counts them). */
interface SegmentToken {
  line: number;
  char: number;
  length: number;
  type: TokenType;
  declaration: boolean;
  /** A metadata type: a class when it names an agent, else a type. */
  typeName?: string;
  /** A metadata id: a class when it declares a temporary agent. */
  declares?: string;
}

/**
 * Tokens depend on a segment's text alone (agent names are resolved when
 * they are assembled), so they are cached by parse: a cell untouched by an
 * edit keeps its parse object and its tokens.
 */
const cache = new Memo<CellParse, SegmentToken[]>('parse');

function tokensOf(p: CellParse): SegmentToken[] {
  const cached = cache.get(p);
  if (cached) return cached;
  const raw: { start: number; end: number; type: TokenType; declaration: boolean; typeName?: string; declares?: string }[] = [];
  const add = (span: { start: number; end: number }, type: TokenType, extra: { declaration?: boolean; typeName?: string; declares?: string } = {}) => {
    if (span.end > span.start) raw.push({ start: span.start, end: span.end, type, declaration: extra.declaration ?? false, typeName: extra.typeName, declares: extra.declares });
  };
  const m = p.marker;
  if (m) {
    add({ start: m.hashes.start, end: m.percents.end }, 'keyword');
    const ref = m.idRef;
    if (ref) add(ref.span, 'variable');
  }
  for (const node of p.metadata) {
    if (node.type === undefined) continue;
    add(node.id.span, 'variable', { declaration: true, declares: node.type === 'agent' ? node.idText : undefined });
    if (node.typeSpan) add(node.typeSpan, 'type', { typeName: node.type });
    for (const a of node.attributes) {
      add(a.keySpan, 'property');
      add(a.valueSpan, !a.quoted && /^-?\d+(\.\d+)?$/.test(a.value) ? 'number' : 'string');
    }
  }
  for (const d of p.directives) add(d.span, 'macro');
  raw.sort((a, b) => a.start - b.start);
  const starts = lineStarts(p.text);
  const lineAt = (offset: number) => lineAtOffset(starts, offset);
  const tokens: SegmentToken[] = [];
  let lastEnd = -1;
  for (const t of raw) {
    const line = lineAt(t.start);
    if (t.start < lastEnd || lineAt(t.end - 1) !== line) continue; // no overlaps, single-line tokens only
    tokens.push({ line, char: t.start - starts[line]!, length: t.end - t.start, type: t.type, declaration: t.declaration, typeName: t.typeName, declares: t.declares });
    lastEnd = t.end;
  }
  cache.set(p, tokens);
  return tokens;
}

class Encoder {
  readonly data: number[] = [];
  private line = 0;
  private char = 0;

  push(line: number, char: number, length: number, type: TokenType, declaration: boolean): void {
    if (line < this.line || (line === this.line && char < this.char && this.data.length)) return;
    this.data.push(line - this.line, line === this.line ? char - this.char : char, length, TYPES.indexOf(type), declaration ? 1 : 0);
    this.line = line;
    this.char = char;
  }
}

function frontmatterTokens(doc: MessageDocument, text: TextDocument, out: Encoder): void {
  const fm = doc.frontmatter;
  if (!fm) return;
  // Agent names: declared under `agents:`, used by `default_agent:`.
  const spans: { at: [number, number]; declaration: boolean }[] = fm.agents.map((a) => ({ at: unquoted(doc.text, a.nameSpan.start, a.nameSpan.end), declaration: true }));
  const def = fm.defaultAgent;
  if (def && typeof def.value === 'string') spans.push({ at: unquoted(doc.text, def.valueSpan.start, def.valueSpan.end), declaration: false });
  spans.sort((a, b) => a.at[0] - b.at[0]);
  for (const { at: [start, end], declaration } of spans) {
    const a = text.positionAt(start);
    const b = text.positionAt(end);
    if (end > start && a.line === b.line) out.push(a.line, a.character, end - start, 'class', declaration);
  }
}

export function semanticTokens(doc: MessageDocument, text: TextDocument, range?: [number, number]): SemanticTokens {
  const out = new Encoder();
  if (!range || (doc.frontmatter && doc.frontmatter.start <= range[1] && doc.frontmatter.end >= range[0])) frontmatterTokens(doc, text, out);
  const agentNames = new Set(doc.agents.map((a) => a.name));
  let i = 0;
  if (range) {
    const first = doc.segmentAt(range[0]);
    i = first ? Math.max(0, doc.segments.indexOf(first)) : 0;
  }
  for (; i < doc.segments.length; i++) {
    const seg = doc.segments[i]!;
    const at = doc.offsetOf(seg);
    if (range && at > range[1]) break;
    const p = seg.parse;
    if (!p || (seg.kind !== 'cell' && seg.kind !== 'prologue')) continue;
    const base = text.positionAt(at);
    for (const t of tokensOf(p)) {
      let type = t.type;
      if (t.typeName !== undefined && t.typeName !== 'agent' && agentNames.has(t.typeName)) type = 'class';
      if (t.declares !== undefined && !doc.cellsById.has(t.declares)) type = 'class';
      out.push(base.line + t.line, t.line === 0 ? base.character + t.char : t.char, t.length, type, t.declaration);
    }
  }
  return { data: out.data };
}

export function registerSemanticTokens(ctx: ServerContext): void {
  const empty: SemanticTokens = { data: [] };
  ctx.connection.languages.semanticTokens.on(
    guard(ctx.log, 'textDocument/semanticTokens/full', empty, async (params) => {
      const open = await messageDocument(ctx, params.textDocument.uri);
      if (!open) return empty;
      const { state, ls } = open;
      return state.derive(ls, 'semantic-tokens', (doc) => semanticTokens(doc, state.text)) ?? empty;
    }),
  );
  ctx.connection.languages.semanticTokens.onRange(
    guard(ctx.log, 'textDocument/semanticTokens/range', empty, async (params) => {
      const open = await messageDocument(ctx, params.textDocument.uri);
      if (!open) return empty;
      return semanticTokens(open.doc, open.state.text, toOffsets(open.state.text, params.range));
    }),
  );
}
