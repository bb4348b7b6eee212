// File-wide facts of a parsed file, made whole: cells by id, which metadata
// line belongs to which cell, agents, code languages, cell kinds
// (FileFacts). The editor's path makes a version's from the previous
// one's (splice.ts).

import { idFits, outputKindKnown } from './ids.js';
import type { CellParse } from '../format/cell.js';
import type { MessageDocument } from './message-document.js';
import { setFirstUnclosed } from './unclosed.js';
import { Cell, CELL_KIND_CODE, type CellKind, type MetadataEntry } from './segment.js';
import { ChunkedList } from '../../base/chunked-list.js';
import { ListMap, type Packed } from '../../base/list-map.js';
import { ID_FITS, KIND_KNOWN } from './file-facts.js';

/** File-wide facts: ids, metadata ownership, agents, languages, cell types. */
export function resolve(doc: MessageDocument): void {
  // Indexed loops: this runs once per file, mostly in V8's interpreter, where for-of makes an iterator per loop.
  const cellList = doc.cells;
  const ids = new Map<string, Packed<Cell>>();
  let withId = 0;
  for (let i = 0; i < cellList.length; i++) {
    const cell = cellList[i]!;
    const id = cell.id;
    if (id === undefined) continue;
    withId++;
    const had = ids.get(id);
    if (had === undefined) ids.set(id, cell);
    else if (had instanceof Cell) ids.set(id, [had, cell]);
    else (had as Cell[]).push(cell);
  }
  const byId = new ListMap(ids);
  const languageCounts = new Map<string, number>();
  const typeCounts = new Map<string, number>();
  const segments = doc.segments;
  let unclosedAt = segments.length;
  for (let si = 0; si < segments.length; si++) {
    const seg = segments[si]!;
    if (unclosedAt === segments.length && seg.parse?.hasUnclosed) unclosedAt = si;
    if (seg.kind === 'cell' || seg.kind === 'prologue') countParse(seg.parse!, 1, languageCounts, typeCounts);
  }
  // Found here, in a loop over the segments that runs anyway: the first structural keystroke asks for it.
  setFirstUnclosed(doc, unclosedAt);
  const metadata = doc.metadata;
  const cellMeta = new Array<MetadataEntry | undefined>(cellList.length).fill(undefined);
  const unique = withId === ids.size;
  // Every cell of an id takes the first metadata line of that id: once an
  // id's cells have theirs, later lines of the id change nothing (a walk
  // over its cells per line would be quadratic in a repeated id).
  const described = new Set<string>();
  for (let k = 0; k < metadata.length; k++) {
    const m = metadata[k]!;
    const id = m.node.idText;
    // Usually a metadata line sits in the cell it describes, whose id no other cell has: no look-up.
    if (unique && m.segment instanceof Cell && m.segment.id === id) {
      const i = doc.indexOf(m.segment);
      cellMeta[i] ??= m;
      continue;
    }
    const cells = byId.get(id);
    if (!cells || described.has(id)) continue;
    described.add(id);
    for (let i = 0, list = cells; i < list.length; i++) cellMeta[doc.indexOf(list[i]!)] ??= m;
  }
  doc.cellsById = byId;

  const bodyAgents: MetadataEntry[] = [];
  for (let k = 0; k < metadata.length; k++) {
    const m = metadata[k]!;
    if (m.node.type === 'agent' && !ids.has(m.node.idText)) bodyAgents.push(m);
  }
  addAgents(doc, bodyAgents);

  // Set before the kinds are found: a cell's kind reads its metadata line through the version.
  doc.facts = {
    cellMeta: ChunkedList.of(cellMeta),
    cellFacts: NO_FACTS,
    bodyAgents,
    languageCounts,
    typeCounts,
  };
  const cellFacts: number[] = [];
  for (let i = 0; i < cellList.length; i++) cellFacts.push(factsOf(doc, cellList[i]!));
  doc.facts.cellFacts = ChunkedList.of(cellFacts);
}

const NO_FACTS = ChunkedList.of<number>([]);

/** A cell's FileFacts.cellFacts: its kind, and whether its id fits and its kind is known. */
export function factsOf(doc: MessageDocument, cell: Cell): number {
  const kind = classify(doc, cell);
  return CELL_KIND_CODE[kind] | flagsOf(doc, cell, kind);
}

/** Whether a cell's id fits and its kind is known (MessageDocument.idFits, kindKnown), from its kind, as FileFacts.cellFacts bits. */
function flagsOf(doc: MessageDocument, cell: Cell, kind: CellKind): number {
  const fits = idFits(kind, cell.id);
  const known = !cell.isOutput || (!borrowsMetadata(doc, cell) && outputKindKnown(kind, doc.typeOf(cell), fits, doc));
  return (fits ? ID_FITS : 0) | (known ? KIND_KNOWN : 0);
}

/**
 * Whether the metadata line that counts for a cell lies in another cell
 * with the same id: the id is used twice (duplicate-id), and the line is
 * that cell's. What it says (the type, the attributes) is then not known to
 * be about this cell.
 */
export function borrowsMetadata(doc: MessageDocument, cell: Cell): boolean {
  const m = doc.metadataOf(cell);
  return m !== undefined && m.segment !== cell && m.segment instanceof Cell && m.segment.id === cell.id;
}

/** A version's agents: the configured ones, the frontmatter's, then those of the metadata lines `body` (FileFacts.bodyAgents). */
export function addAgents(doc: MessageDocument, body: readonly MetadataEntry[]): void {
  for (const name of doc.options.agents ?? []) doc.agents.push({ name, source: 'config', at: [0, 0], from: 0 });
  for (const a of doc.frontmatter?.agents ?? []) {
    doc.agents.push({ name: a.name, source: 'frontmatter', at: [a.nameSpan.start, a.nameSpan.end], from: 0 });
  }
  for (const m of body) {
    const at = doc.abs(m.segment, m.node.id.span);
    doc.agents.push({ name: m.node.idText, source: 'body', at, metadata: m, from: doc.offsetOf(m.segment) + m.node.span.start });
  }
}

export function classify(doc: MessageDocument, cell: Cell): CellKind {
  if (!cell.isOutput) return 'message';
  const type = doc.typeOf(cell);
  // The id's shape from its text (the segments are made only when asked for).
  const { count, second } = idShape(cell.id);
  if (type === undefined) {
    // Without metadata, the id's shape is all there is to go on.
    if (count === 2 && /^\d+$/.test(second)) return 'code-output';
    if (count === 2) return 'tool-call';
    if (count === 3) return 'tool-result';
    return 'untyped-output';
  }
  if (type === 'tool') {
    if (count === 3) return 'tool-result';
    return 'tool-call';
  }
  if (doc.agentAt(type, doc.offsetOf(cell))) return 'agent-reply';
  if ((count === 2 && /^\d+$/.test(second)) || doc.isLanguage(type)) return 'code-output';
  return 'unknown-output';
}

/** How many dot-separated segments an id has (0 without an id; 4 stands for four or more), and its second one. */
function idShape(id: string | undefined): { count: number; second: string } {
  if (id === undefined) return { count: 0, second: '' };
  const d1 = id.indexOf('.');
  if (d1 === -1) return { count: 1, second: '' };
  const d2 = id.indexOf('.', d1 + 1);
  const second = id.slice(d1 + 1, d2 === -1 ? id.length : d2);
  if (d2 === -1) return { count: 2, second };
  return { count: id.indexOf('.', d2 + 1) === -1 ? 3 : 4, second };
}

/**
 * Adds `sign` to the counts of the code languages (a fence's info string's
 * first word, lower case) and the metadata types (as written) of a cell's or
 * the prologue's parse: FileFacts.languageCounts and typeCounts. A count
 * that reaches zero is deleted.
 */
export function countParse(p: CellParse, sign: 1 | -1, languages: Map<string, number>, types: Map<string, number>): void {
  for (let i = 0, list = p.metadata; i < list.length; i++) {
    const type = list[i]!.type;
    if (type !== undefined) count(types, type, sign);
  }
  for (let i = 0, list = p.fences; i < list.length; i++) {
    const f = list[i]!;
    const lang = /^[^\s{]+/.exec(p.text.slice(f.info.start, f.info.end).trim())?.[0];
    if (lang) count(languages, lang.toLowerCase(), sign);
  }
}

function count(counts: Map<string, number>, key: string, sign: number): void {
  const n = (counts.get(key) ?? 0) + sign;
  if (n === 0) counts.delete(key);
  else counts.set(key, n);
}
