// The structural path: an editor's edit that changes cells (a marker or an
// id typed, a block pasted, a cell deleted) gives a version made of the
// previous one's cells before the edit, the re-scanned cells, and the
// previous one's cells after it moved in place; the file-wide facts are
// updated for the ids those cells add and remove, not recomputed.

import { parseCell } from './cell.js';
import { addBodyAgent, addConfiguredAgents, classify, fenceLanguages, setFacts, type Structure } from './facts.js';
import { isMdFile, MessageDocument, type ParseOptions, type TextEditHint } from './message-document.js';
import { MEMO } from './memo.js';
import { footnoteReferences, keepFootnoteReferences } from './metadata.js';
import { markersFromPrevious } from './reuse.js';
import { Cell, type Segment } from './segment.js';
import { sameList } from './typing.js';

type Entry = MessageDocument['metadata'][number];

/**
 * An edit after the first cell's marker of a `.msg.md` file, when the cells
 * after the re-scanned ones are the previous version's. Undefined when that
 * does not hold (the whole parse runs) or when the edit changes agents or
 * the set of code languages (the facts are then resolved again).
 */
export function parseAcross(text: string, options: ParseOptions, prev: MessageDocument, e: TextEditHint): MessageDocument | undefined {
  if (isMdFile(options.fileName) || !prev.structure || prev.cells.length === 0) return undefined;
  if (!sameList(options.agents, prev.options.agents) || !sameList(options.languages, prev.options.languages)) return undefined;
  const first = prev.cells[0]!;
  const firstAt = prev.segments.indexOf(first);
  // The prologue, frontmatter and the first marker line stay as they are.
  if (e.start < first.offset + first.parse!.lines[0]!.end || firstAt === -1) return undefined;
  const range = { start: e.start, oldEnd: e.oldEnd, newEnd: e.start + e.text.length };
  const found = markersFromPrevious(prev, text, prev.segments[firstAt - 1]?.kind === 'prologue' ? prev.segments[firstAt - 1]!.offset : first.offset, range);
  if (!found) return undefined;
  const { markers, oldCells } = found;
  const delta = range.newEnd - range.oldEnd;
  const n = markers.length;
  // Cells kept before the edit: the same objects, ending where they did, before the edit.
  let head = 0;
  while (head + 1 < n && oldCells[head] === prev.cells[head] && markers[head + 1] === prev.cells[head + 1]?.offset && markers[head + 1]! <= range.start) head++;
  // Cells taken over after it: the previous version's, moved by `delta`.
  let tail = 0;
  while (tail < n - head) {
    const old = oldCells[n - 1 - tail];
    if (!old || old.index !== prev.cells.length - 1 - tail || old.offset + delta !== markers[n - 1 - tail]) break;
    tail++;
  }
  const removed = prev.cells.slice(head, prev.cells.length - tail);
  const added: Cell[] = [];
  for (let i = head; i < n - tail; i++) {
    const start = markers[i]!;
    const end = i + 1 < n ? markers[i + 1]! : text.length;
    const cellText = text.slice(start, end);
    // The text of a cell the re-scan met again is often the same: its parse is reused.
    const same = removed.find((c) => c.text === cellText);
    const cell = new Cell(start, same ? same.text : cellText, same ? same.parse! : parseCell((' ' + cellText).slice(1), true));
    added.push(cell);
  }
  if (!keepsAgentsAndLanguages(prev, removed, added)) return undefined;

  prev.edit = undefined;
  const doc = new MessageDocument(text, options, prev.lines.edited(text, range.start, range.oldEnd, range.newEnd));
  doc.frontmatter = prev.frontmatter;
  const at = firstAt + head;
  spliceFacts(doc, prev, at, removed, added, delta);
  doc.edit = {
    previous: prev,
    ...range,
    sameStructure: false,
    changed: added.map((_, i) => at + i),
    replaced: { at, removed: removed.length, added: added.length },
  };
  return doc;
}

/**
 * Whether the cells an edit removes and adds leave the agents as they are
 * (no agent line among them, no id of theirs an agent's name) and every
 * code language still used or still unused.
 */
function keepsAgentsAndLanguages(prev: MessageDocument, removed: Cell[], added: Cell[]): boolean {
  const counts = new Map<string, number>();
  for (const [cells, sign] of [[removed, -1], [added, 1]] as const) {
    for (const cell of cells) {
      if (cell.id !== undefined && prev.agents.some((a) => a.name === cell.id)) return false;
      for (const node of cell.parse!.metadata) if (node.type === 'agent') return false;
      for (const lang of fenceLanguages(cell.parse!)) counts.set(lang, (counts.get(lang) ?? 0) + sign);
    }
  }
  for (const [lang, d] of counts) {
    const before = prev.structure.languageCounts.get(lang) ?? 0;
    if (d !== 0 && (before === 0 || before + d === 0)) return false;
  }
  return true;
}

/**
 * The facts of the new version: the previous version's lists with the
 * removed cells' part replaced by the added cells', the cells after them
 * moved in place, and the per-cell facts (metadata line, kind, idFits,
 * kindKnown) made again for the ids the edit touches.
 */
function spliceFacts(doc: MessageDocument, prev: MessageDocument, at: number, removed: Cell[], added: Cell[], delta: number): void {
  const shared = prev.structure;
  const shift = added.length - removed.length;
  const firstIndex = (prev.segments[at] as Cell | undefined)?.index ?? prev.cells.length;
  const oldAfter = at + removed.length;

  // Segments and cells: those after the edit moved and renumbered.
  const segments: Segment[] = prev.segments.slice(0, at);
  for (const c of added) segments.push(c);
  for (let i = oldAfter; i < prev.segments.length; i++) {
    const seg = prev.segments[i]!;
    seg.offset += delta;
    if (seg instanceof Cell) seg.index += shift;
    segments.push(seg);
  }
  const cells = prev.cells.slice(0, firstIndex);
  for (const c of added) {
    c.index = cells.length;
    cells.push(c);
  }
  for (let i = firstIndex + removed.length; i < prev.cells.length; i++) cells.push(prev.cells[i]!);

  // Metadata entries, their nodes and segments, by index.
  const m0 = shared.metaStart[at]!;
  const m1 = shared.metaStart[oldAfter]!;
  const entries: Entry[] = [];
  for (let s = 0; s < added.length; s++) for (const node of added[s]!.parse!.metadata) entries.push({ segment: added[s]!, node, isMetadata: undefined });
  const metaShift = entries.length - (m1 - m0);
  const metadata = prev.metadata.slice(0, m0).concat(entries, prev.metadata.slice(m1));
  const metaNodes = shared.metaNodes.slice(0, m0).concat(entries.map((x) => x.node), shared.metaNodes.slice(m1));
  const metaStart = new Int32Array(segments.length + 1);
  metaStart.set(shared.metaStart.subarray(0, at));
  for (let s = 0, k = m0; s < added.length; k += added[s]!.parse!.metadata.length, s++) metaStart[at + s] = k;
  for (let i = oldAfter; i <= prev.segments.length; i++) metaStart[i + shift] = shared.metaStart[i]! + metaShift;
  const metaSegment = new Int32Array(metadata.length);
  metaSegment.set(shared.metaSegment.subarray(0, m0));
  for (let k = m0; k < m0 + entries.length; k++) metaSegment[k] = at + added.indexOf(entries[k - m0]!.segment as Cell);
  for (let k = m1; k < shared.metaSegment.length; k++) metaSegment[k + metaShift] = shared.metaSegment[k]! + shift;
  doc.takeOver(segments, cells, metadata);

  // The ids the edit touches: of the cells and metadata lines removed and added.
  const touched = new Set<string>();
  for (const c of [...removed, ...added]) {
    if (c.id !== undefined) touched.add(c.id);
    for (const node of c.parse!.metadata) touched.add(node.id.id);
  }
  // Footnote references added or removed change what isMetadataLine says of lines with those ids.
  const refsBefore = new Set<string>();
  const refsAfter = new Set<string>();
  for (const c of removed) for (const id of footnoteReferences(c.parse!)) refsBefore.add(id);
  for (const c of added) for (const id of footnoteReferences(c.parse!)) refsAfter.add(id);
  const sameRefs = refsBefore.size === refsAfter.size && [...refsBefore].every((id) => refsAfter.has(id));
  if (sameRefs) keepFootnoteReferences(doc, prev);
  for (const id of refsBefore) if (!refsAfter.has(id)) touched.add(id);
  for (const id of refsAfter) if (!refsBefore.has(id)) touched.add(id);

  // Cells by id: the previous version's map, the removed cells out, the added in (in file order).
  const byId = prev.cellsById instanceof Map ? (prev.cellsById as Map<string, Cell[]>) : new Map(prev.cellsById);
  for (const c of removed) {
    if (c.id === undefined) continue;
    const list = byId.get(c.id)!;
    list.splice(list.indexOf(c), 1);
    if (list.length === 0) byId.delete(c.id);
  }
  for (const c of added) {
    if (c.id === undefined) continue;
    const list = byId.get(c.id);
    if (!list) byId.set(c.id, [c]);
    else list.splice(insertionPoint(list, c.index), 0, c);
  }
  doc.cellsById = byId;
  doc.codeLanguages = shared.codeLanguages;
  const languageCounts = new Map(shared.languageCounts);
  for (const [cells, sign] of [[removed, -1], [added, 1]] as const) {
    for (const c of cells) for (const lang of fenceLanguages(c.parse!)) languageCounts.set(lang, (languageCounts.get(lang) ?? 0) + sign);
  }

  // The first metadata line of each touched id, and what isMetadataLine said of the others stays.
  const firstLine = new Map<string, number>();
  for (let k = 0; k < metadata.length; k++) {
    const id = metadata[k]!.node.id.id;
    if (!touched.has(id)) continue;
    metadata[k]!.isMetadata = undefined;
    if (!firstLine.has(id)) firstLine.set(id, k);
  }
  addConfiguredAgents(doc);
  const bodyAgents = shared.bodyAgents.map((k) => (k >= m1 ? k + metaShift : k));
  for (const k of bodyAgents) addBodyAgent(doc, metadata[k]!);

  // Per-cell facts, by index, for the cells of touched ids and the added cells.
  const cellTypes = shared.cellTypes.slice(0, firstIndex).concat(added.map(() => 'message' as const), shared.cellTypes.slice(firstIndex + removed.length));
  const cellFacts = new Uint8Array(cells.length);
  cellFacts.set(shared.cellFacts.subarray(0, firstIndex));
  cellFacts.set(shared.cellFacts.subarray(firstIndex + removed.length), firstIndex + added.length);
  const cellMeta = new Int32Array(cells.length);
  for (let i = 0; i < cells.length; i++) {
    const old = i < firstIndex ? shared.cellMeta[i]! : i >= firstIndex + added.length ? shared.cellMeta[i - shift]! : -1;
    cellMeta[i] = old >= m1 ? old + metaShift : old;
  }
  const again = new Set<Cell>(added);
  for (const id of touched) for (const c of byId.get(id) ?? []) again.add(c);
  for (const c of again) {
    const k = c.id !== undefined ? firstLine.get(c.id) : undefined;
    c.metadata = k === undefined ? undefined : metadata[k];
    cellMeta[c.index] = k ?? -1;
    cellTypes[c.index] = c.cellType = classify(doc, c);
    cellFacts[c.index] = setFacts(doc, c);
  }
  const structure: Structure = {
    byId,
    cellMeta,
    cellTypes,
    cellFacts,
    bodyAgents,
    codeLanguages: shared.codeLanguages,
    languageCounts,
    metaStart,
    metaSegment,
    metaNodes,
    [MEMO]: [],
  };
  doc.structure = structure;
}

/** Where a cell of index `index` goes in a list of cells in file order. */
function insertionPoint(list: Cell[], index: number): number {
  let i = list.length;
  while (i > 0 && list[i - 1]!.index > index) i--;
  return i;
}
