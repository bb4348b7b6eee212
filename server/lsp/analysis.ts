// What is under the cursor (an id, an agent name, a type, an attribute) and
// where ids and agents are used: the common ground of hover, navigation,
// rename and completion. Whole-file indexes are built on the first request
// for a version and cached with it (DocumentState.derive).

import type { AttributeNode, MetadataNode } from '../syntax/format/metadata.js';
import type { FrontmatterAgent, YamlEntry } from '../syntax/format/frontmatter.js';
import { Cell, type AgentDefinition, type MessageDocument, type Segment } from '../syntax/document.js';

export type Span = [number, number];

/** One place an id is written: a marker's `[^id]` or a metadata line's `[^id]:`. */
export interface IdOccurrence {
  id: string;
  where: 'marker' | 'metadata';
  /** Absolute spans of the id's segments. */
  segments: Span[];
  /** The cell whose marker this is (marker occurrences). */
  cell?: Cell;
  /** The metadata line (metadata occurrences). */
  meta?: { segment: Segment; node: MetadataNode };
}

export type Target =
  /** A segment of an id; `prefix` is the id up to and including that segment. */
  | { kind: 'id'; occurrence: IdOccurrence; index: number; prefix: string; span: Span }
  /** An agent name: its definition (frontmatter key, temporary agent line) or a use (metadata type, default_agent). */
  | { kind: 'agent'; name: string; span: Span; role: 'frontmatter' | 'body' | 'use' | 'default' }
  /** A metadata type that names no agent (`markdown`, `tool`, `python`, an unknown name). */
  | { kind: 'type'; type: string; span: Span; meta: { segment: Segment; node: MetadataNode } }
  | { kind: 'attr-key' | 'attr-value'; attr: AttributeNode; span: Span; meta: { segment: Segment; node: MetadataNode } }
  /** A setting of a frontmatter agent (`temperature: 0.7`). */
  | { kind: 'agent-setting'; agent: FrontmatterAgent; entry: YamlEntry; span: Span };

function within(offset: number, span: Span): boolean {
  return offset >= span[0] && offset <= span[1];
}

/** A YAML scalar's span without its quotes. */
export function unquoted(text: string, start: number, end: number): Span {
  const c = text[start];
  if ((c === '"' || c === "'") && end - start >= 2 && text[end - 1] === c) return [start + 1, end - 1];
  return [start, end];
}

/** Every id occurrence, in file order (cached per version by the caller). */
export function idOccurrences(doc: MessageDocument): IdOccurrence[] {
  const out: IdOccurrence[] = [];
  for (const seg of doc.segments) {
    const p = seg.parse;
    if (!p || (seg.kind !== 'cell' && seg.kind !== 'prologue')) continue;
    const ref = seg instanceof Cell ? seg.marker.idRef : undefined;
    if (ref) out.push({ id: ref.id, where: 'marker', segments: ref.segments.map((s) => doc.abs(seg, s.span)), cell: seg as Cell });
    for (const node of p.metadata) {
      if (node.type === undefined) continue; // an ordinary footnote
      out.push({ id: node.idText, where: 'metadata', segments: node.id.segments.map((s) => doc.abs(seg, s.span)), meta: { segment: seg, node } });
    }
  }
  return out;
}

/** Occurrences of an id and of the ids derived from it (`2` → `2`, `2.k7f3q`, `2.k7f3q.1`). */
export function occurrencesOf(all: IdOccurrence[], prefix: string): IdOccurrence[] {
  const dotted = prefix + '.';
  return all.filter((o) => o.id === prefix || o.id.startsWith(dotted));
}

/** Whether an agent name is a temporary agent's definition line (`[^fast]: [agent]` that no cell uses). */
export function isAgentDeclaration(doc: MessageDocument, node: MetadataNode): boolean {
  return node.type === 'agent' && !doc.cellsById.has(node.idText);
}

/** The agent a name refers to at an offset (a body agent counts from its line on). */
export function agentFor(doc: MessageDocument, name: string, offset: number): AgentDefinition | undefined {
  return doc.agentAt(name, offset) ?? doc.agents.find((a) => a.name === name);
}

/** The metadata line at an offset, if the offset is on one. */
export function metadataAt(doc: MessageDocument, offset: number): { segment: Segment; node: MetadataNode } | undefined {
  const seg = doc.segmentAt(offset);
  const p = seg?.parse;
  if (!seg || !p || (seg.kind !== 'cell' && seg.kind !== 'prologue')) return undefined;
  const rel = offset - doc.offsetOf(seg);
  for (const node of p.metadata) {
    if (node.span.start > rel) break;
    if (rel <= node.span.end) return { segment: seg, node };
  }
  return undefined;
}

/** What the cursor is on. */
export function targetAt(doc: MessageDocument, offset: number): Target | undefined {
  const seg = doc.segmentAt(offset);
  if (!seg) return undefined;
  if (seg.kind === 'frontmatter') return frontmatterTarget(doc, offset);
  if (seg instanceof Cell) {
    const ref = seg.marker.idRef;
    if (ref && within(offset, doc.abs(seg, ref.span))) {
      const occurrence: IdOccurrence = { id: ref.id, where: 'marker', segments: ref.segments.map((s) => doc.abs(seg, s.span)), cell: seg };
      return idTarget(occurrence, offset);
    }
  }
  const meta = metadataAt(doc, offset);
  if (!meta) return undefined;
  const { node, segment } = meta;
  const idSpan = doc.abs(segment, node.id.span);
  if (within(offset, idSpan)) {
    if (isAgentDeclaration(doc, node)) return { kind: 'agent', name: node.idText, span: idSpan, role: 'body' };
    const occurrence: IdOccurrence = { id: node.idText, where: 'metadata', segments: node.id.segments.map((s) => doc.abs(segment, s.span)), meta };
    return idTarget(occurrence, offset);
  }
  const typeSpan = node.typeSpan && doc.abs(segment, node.typeSpan);
  if (node.type !== undefined && typeSpan && within(offset, typeSpan)) {
    const span = typeSpan;
    if (node.type !== 'agent' && agentFor(doc, node.type, span[0])) return { kind: 'agent', name: node.type, span, role: 'use' };
    return { kind: 'type', type: node.type, span, meta };
  }
  for (const attr of node.attributes) {
    const key = doc.abs(segment, attr.keySpan);
    if (within(offset, key)) return { kind: 'attr-key', attr, span: key, meta };
    const value = doc.abs(segment, attr.valueSpan);
    if (within(offset, value)) return { kind: 'attr-value', attr, span: value, meta };
  }
  return undefined;
}

function idTarget(occurrence: IdOccurrence, offset: number): Target | undefined {
  const index = occurrence.segments.findIndex((s) => within(offset, s));
  if (index === -1) return undefined;
  const prefix = occurrence.id.split('.').slice(0, index + 1).join('.');
  return { kind: 'id', occurrence, index, prefix, span: occurrence.segments[index]! };
}

function frontmatterTarget(doc: MessageDocument, offset: number): Target | undefined {
  const fm = doc.frontmatter;
  if (!fm) return undefined;
  for (const agent of fm.agents) {
    const name = unquoted(doc.text, agent.nameSpan.start, agent.nameSpan.end);
    if (within(offset, name)) return { kind: 'agent', name: agent.name, span: name, role: 'frontmatter' };
    for (const entry of agent.settings) {
      if (within(offset, [entry.keySpan.start, entry.keySpan.end]) || within(offset, [entry.valueSpan.start, entry.valueSpan.end])) {
        return { kind: 'agent-setting', agent, entry, span: [entry.keySpan.start, entry.valueSpan.end] };
      }
    }
  }
  const def = fm.defaultAgent;
  if (def && typeof def.value === 'string' && within(offset, [def.valueSpan.start, def.valueSpan.end])) {
    return { kind: 'agent', name: def.value, span: unquoted(doc.text, def.valueSpan.start, def.valueSpan.end), role: 'default' };
  }
  return undefined;
}

/**
 * The opaque region (spec section 2: a closed fence, comment or CDATA
 * section) or <tool> element of a segment that contains an offset, as
 * absolute offsets; undefined outside them. Inside one, a marker-like or
 * comment line is content.
 */
export function opaqueAt(doc: MessageDocument, seg: Segment, offset: number): Span | undefined {
  const p = seg.parse;
  if (!p) return undefined;
  const rel = offset - doc.offsetOf(seg);
  for (const f of p.fences) {
    if (f.close && rel >= f.open.start && rel <= f.close.contentEnd) return doc.abs(seg, { start: f.open.start, end: f.close.contentEnd });
  }
  for (const t of p.tools) {
    if (t.closed && rel >= t.start && rel < t.end) return doc.abs(seg, t);
  }
  for (const c of p.comments) {
    if (c.closed && rel >= c.start && rel < c.end) return doc.abs(seg, c);
  }
  return undefined;
}

/** Every place an agent name is written: definitions, metadata types, default_agent. */
export function agentOccurrences(doc: MessageDocument, name: string): { span: Span; role: 'frontmatter' | 'body' | 'use' | 'default' }[] {
  const out: { span: Span; role: 'frontmatter' | 'body' | 'use' | 'default' }[] = [];
  const fm = doc.frontmatter;
  for (const a of fm?.agents ?? []) {
    if (a.name === name) out.push({ span: unquoted(doc.text, a.nameSpan.start, a.nameSpan.end), role: 'frontmatter' });
  }
  const def = fm?.defaultAgent;
  if (def && def.value === name) out.push({ span: unquoted(doc.text, def.valueSpan.start, def.valueSpan.end), role: 'default' });
  for (const m of doc.metadata) {
    const node = m.node;
    if (node.idText === name && isAgentDeclaration(doc, node)) out.push({ span: doc.abs(m.segment, node.id.span), role: 'body' });
    else if (node.type === name && node.typeSpan) out.push({ span: doc.abs(m.segment, node.typeSpan), role: 'use' });
  }
  out.sort((a, b) => a.span[0] - b.span[0]);
  return out;
}

/** The cells whose id starts with `id.` (its tool calls, results, code outputs), in file order. */
export function derivedCells(doc: MessageDocument, id: string): Cell[] {
  const dotted = id + '.';
  return doc.cells.filter((c) => c.id !== undefined && c.id.startsWith(dotted));
}

/** The cell an id names (the first one, when the id is used twice). */
export function cellById(doc: MessageDocument, id: string): Cell | undefined {
  return doc.cellsById.get(id)?.[0];
}
