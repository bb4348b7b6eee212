// File-wide facts of a parsed file: cells by id, which metadata line
// belongs to which cell, agents, code languages, cell types. Versions that
// differ only in prose share them by index (FileFacts).

import { idFits, outputKindKnown } from './ids.js';
import type { CellParse } from '../format/cell.js';
import type { MessageDocument } from './message-document.js';
import type { FileFacts } from './file-facts.js';
import { sameItems } from '../../base/lists.js';
import { PersistentMap } from '../../base/persistent-map.js';
import { MEMO } from '../../base/memo.js';
import { setFirstUnclosed } from './unclosed.js';
import { footnoteReferences } from './footnotes.js';
import type { MetadataNode } from '../format/metadata.js';
import { Cell, CELL_KIND_CODE, type CellKind, type Segment } from './segment.js';

/** `cellsById` as a view of cell indices: versions of the same structure share the index. */
class CellsById implements ReadonlyMap<string, readonly Cell[]> {
  private readonly made = new Map<string, Cell[]>();
  constructor(
    private readonly ids: Map<string, number[]>,
    private readonly cells: Cell[],
  ) {}
  get size(): number {
    return this.ids.size;
  }
  get(id: string): Cell[] | undefined {
    let list = this.made.get(id);
    if (list) return list;
    const indices = this.ids.get(id);
    if (!indices) return undefined;
    list = indices.map((i) => this.cells[i]!);
    this.made.set(id, list);
    return list;
  }
  has(id: string): boolean {
    return this.ids.has(id);
  }
  keys(): MapIterator<string> {
    return this.ids.keys();
  }
  *values(): MapIterator<readonly Cell[]> {
    for (const id of this.ids.keys()) yield this.get(id)!;
  }
  *entries(): MapIterator<[string, readonly Cell[]]> {
    for (const id of this.ids.keys()) yield [id, this.get(id)!];
  }
  [Symbol.iterator](): MapIterator<[string, readonly Cell[]]> {
    return this.entries();
  }
  forEach(fn: (value: readonly Cell[], key: string, map: ReadonlyMap<string, readonly Cell[]>) => void): void {
    for (const [id, cells] of this.entries()) fn(cells, id, this);
  }
}

/** File-wide facts: ids, metadata ownership, agents, languages, cell types. */
export function resolve(doc: MessageDocument): void {
  // Indexed loops: this runs once per file, mostly in V8's interpreter, where for-of makes an iterator per loop.
  const made = PersistentMap.empty<string, readonly Cell[]>().edit();
  let withId = 0;
  for (let i = 0, items = doc.cells; i < items.length; i++) {
    const cell = items[i]!;
    const id = cell.id;
    if (id === undefined) continue;
    withId++;
    const list = made.get(id) as Cell[] | undefined;
    if (list) list.push(cell);
    else made.set(id, [cell]);
  }
  const ids = made.done();
  const codeLanguages = new Set<string>();
  const languageCounts = new Map<string, number>();
  const metaStart = new Int32Array(doc.segments.length + 1);
  const metaSegment: number[] = [];
  const metaNodes: MetadataNode[] = [];
  const typeCounts = new Map<string, number>();
  let unclosedAt = doc.segments.length;
  for (let si = 0; si < doc.segments.length; si++) {
    const seg = doc.segments[si]!;
    metaStart[si] = doc.metadata.length;
    if (unclosedAt === doc.segments.length && seg.parse?.hasUnclosed) unclosedAt = si;
    if (seg.kind !== 'cell' && seg.kind !== 'prologue') continue;
    const p = seg.parse!;
    for (let i = 0, list = p.metadata; i < list.length; i++) {
      const node = list[i]!;
      doc.metadata.push({ segment: seg, node });
      metaSegment.push(si);
      metaNodes.push(node);
      if (node.type !== undefined) typeCounts.set(node.type, (typeCounts.get(node.type) ?? 0) + 1);
    }
    for (let i = 0, list = p.fences; i < list.length; i++) {
      const f = list[i]!;
      const info = p.text.slice(f.info.start, f.info.end).trim();
      const lang = /^[^\s{]+/.exec(info)?.[0];
      if (lang) {
        const l = lang.toLowerCase();
        codeLanguages.add(l);
        languageCounts.set(l, (languageCounts.get(l) ?? 0) + 1);
      }
    }
  }
  metaStart[doc.segments.length] = doc.metadata.length;
  // Found here, in a loop over the segments that runs anyway: the first structural keystroke asks for it.
  setFirstUnclosed(doc, unclosedAt);
  const cellMeta = new Int32Array(doc.cells.length).fill(-1);
  const unique = withId === ids.size;
  // Every cell of an id takes the first metadata line of that id: once an
  // id's cells have theirs, later lines of the id change nothing (a walk
  // over its cells per line would be quadratic in a repeated id).
  const described = new Set<string>();
  for (let k = 0; k < doc.metadata.length; k++) {
    const m = doc.metadata[k]!;
    const id = m.node.id.id;
    // Usually a metadata line sits in the cell it describes, whose id no other cell has: no look-up.
    if (unique && m.segment instanceof Cell && m.segment.id === id) {
      const c = m.segment;
      const i = doc.indexOf(c);
      if (cellMeta[i] === -1) cellMeta[i] = k;
      continue;
    }
    const cells = ids.get(id);
    if (!cells || described.has(id)) continue;
    described.add(id);
    for (let i = 0, list = cells; i < list.length; i++) {
      const at = doc.indexOf(list[i]!);
      if (cellMeta[at] === -1) cellMeta[at] = k;
    }
  }
  doc.cellsById = ids;
  doc.codeLanguages = codeLanguages;

  addConfiguredAgents(doc);
  const bodyAgents: number[] = [];
  for (let k = 0; k < doc.metadata.length; k++) {
    const m = doc.metadata[k]!;
    if (m.node.type !== 'agent' || ids.has(m.node.id.id)) continue;
    bodyAgents.push(k);
    addBodyAgent(doc, m);
  }

  const cellKinds = new Uint8Array(doc.cells.length);
  const cellFlags = new Uint8Array(doc.cells.length);
  // Set before the kinds are filled in: a cell's kind reads its metadata line (cellMeta) through the version.
  doc.facts = {
    byId: ids,
    cellMeta,
    cellKinds,
    cellFlags,
    bodyAgents,
    codeLanguages,
    languageCounts,
    typeCounts,
    metaStart,
    metaSegment: Int32Array.from(metaSegment),
    // Made now, so that the versions that share this structure share it.
    [MEMO]: [],
    ...ownFacts(doc, metaNodes),
  };
  for (let i = 0, list = doc.cells; i < list.length; i++) {
    const cell = list[i]!;
    cellKinds[i] = CELL_KIND_CODE[classify(doc, cell)];
    cellFlags[i] = flagsOf(doc, cell);
  }
}

/** Whether a cell's id fits and its kind is known (MessageDocument.idFits, kindKnown), from its kind, as FileFacts.cellFlags bits. */
export function flagsOf(doc: MessageDocument, cell: Cell): number {
  const kind = doc.kindOf(cell);
  const fits = idFits(kind, cell.id);
  const known = !cell.isOutput || (!borrowsMetadata(doc, cell) && outputKindKnown(kind, doc.typeOf(cell), fits, doc));
  return (fits ? 1 : 0) | (known ? 2 : 0);
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

function ownFacts(_doc: MessageDocument, metaNodes: MetadataNode[]): Pick<FileFacts, 'metaNodes'> {
  return { metaNodes };
}

export function addConfiguredAgents(doc: MessageDocument): void {
  for (const name of doc.options.agents ?? []) doc.agents.push({ name, source: 'config', at: [0, 0], from: 0 });
  for (const a of doc.frontmatter?.agents ?? []) {
    doc.agents.push({ name: a.name, source: 'frontmatter', at: [a.nameSpan.start, a.nameSpan.end], from: 0 });
  }
}

export function addBodyAgent(doc: MessageDocument, m: { segment: Segment; node: MetadataNode }): void {
  const at = doc.abs(m.segment, m.node.id.span);
  doc.agents.push({ name: m.node.id.id, source: 'body', at, metadata: m, from: doc.offsetOf(m.segment) + m.node.span.start });
}

/**
 * The file-wide facts of a version whose facts are those of the version
 * `shared` was made for (DocumentEdit.sameFacts, see keepsFacts): the same
 * by index, so only the metadata list is made again (its segments moved,
 * the edited cells' lines replaced).
 */
export function resolveLike(doc: MessageDocument, prev: MessageDocument, changed: number[]): void {
  const shared = prev.facts;
  // Metadata nodes by index: the previous version's, with those of the
  // edited segments replaced (the same number of lines, by keepsFacts).
  const nodes = shared.metaNodes.slice();
  for (const si of changed) {
    const p = doc.segments[si]!.parse;
    if (!p) continue;
    let k = shared.metaStart[si]!;
    for (const node of p.metadata) nodes[k++] = node;
  }
  const segments = doc.segments;
  const metaSegment = shared.metaSegment;
  const metadata = doc.metadata;
  for (let k = 0; k < nodes.length; k++) metadata.push({ segment: segments[metaSegment[k]!]!, node: nodes[k]! });
  const indexById = shared.indexById ?? indicesById(prev, shared.byId!);
  doc.cellsById = new CellsById(indexById, doc.cells);
  doc.codeLanguages = shared.codeLanguages;
  addConfiguredAgents(doc);
  for (const k of shared.bodyAgents) addBodyAgent(doc, metadata[k]!);
  doc.facts = { ...shared, byId: undefined, indexById, ...ownFacts(doc, nodes) };
}

/**
 * Whether a cell's new parse keeps the file-wide facts of its old one (see
 * DocumentEdit.sameFacts): the same id (or none) and marker kind, an id no
 * other cell has, metadata lines of its own id with the same types (none an
 * agent's), code blocks of the same languages and references to the same
 * footnotes (isMetadataLine reads them).
 */
export function keepsCellFacts(prev: MessageDocument, old: Cell, parse: CellParse): boolean {
  const marker = parse.marker;
  if (!marker || marker.idRef?.id !== old.id || (marker.kind === 'output') !== old.isOutput) return false;
  // A cell without an id has no metadata line of its own (the loop below finds any other).
  if (old.id !== undefined && prev.cellsById.get(old.id)?.length !== 1) return false;
  const a = parse.metadata;
  const b = old.parse.metadata;
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) {
    if (a[k]!.id.id !== old.id || a[k]!.type !== b[k]!.type || b[k]!.id.id !== old.id || a[k]!.type === 'agent') return false;
  }
  return sameItems(fenceLanguages(parse), fenceLanguages(old.parse)) && sameSet(footnoteReferences(parse), footnoteReferences(old.parse));
}

/** `byId` of the version that made it (FileFacts.byId) as cell indices. */
function indicesById(made: MessageDocument, byId: ReadonlyMap<string, readonly Cell[]>): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const [id, cells] of byId) out.set(id, cells.map((c) => made.indexOf(c)));
  return out;
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
 * Whether a version not yet resolved has the file-wide facts of `prev`,
 * whose segments it shares but for the edited cells `changed` (aligned with
 * prev's), each of which keeps them (keepsCellFacts): then `resolveLike`
 * gives its facts (see DocumentEdit.sameFacts).
 */
export function keepsFacts(doc: MessageDocument, prev: MessageDocument, changed: number[]): boolean {
  if (!prev.facts || doc.cells.length !== prev.cells.length) return false;
  for (const i of changed) if (!keepsCellFacts(prev, prev.segments[i] as Cell, (doc.segments[i] as Cell).parse)) return false;
  return true;
}

export function fenceLanguages(p: CellParse): string[] {
  const out: string[] = [];
  for (const f of p.fences) {
    const lang = /^[^\s{]+/.exec(p.text.slice(f.info.start, f.info.end).trim())?.[0];
    if (lang) out.push(lang.toLowerCase());
  }
  return out;
}

function sameSet<T>(a: ReadonlySet<T>, b: ReadonlySet<T>): boolean {
  if (a.size !== b.size) return false;
  for (const x of a) if (!b.has(x)) return false;
  return true;
}
