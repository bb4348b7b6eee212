// The editor's path: an edit (a letter typed, a marker or an id typed, a
// block pasted, a cell deleted) gives a version made of the previous one's
// cells before the edit, the re-scanned cells, and the previous one's
// cells after it, which start later by the edit's length change; the
// file-wide facts are updated for the ids those cells add and remove, not
// recomputed.

import { parseCell, type CellParse } from '../format/cell.js';
import { addBodyAgent, addConfiguredAgents, classify, fenceLanguages, flagsOf } from '../tree/facts.js';
import { isMdFile, MessageDocument, type DoubtChange, type ParseOptions, type TextEditHint } from '../tree/message-document.js';
import { COMMON_LANGUAGES } from '../tree/file-facts.js';
import { addFrom, addWhereAtLeast, replaceRange, sameItems, spliceNumbers } from '../../base/lists.js';
import { MEMO } from '../../base/memo.js';
import { PersistentMap } from '../../base/persistent-map.js';
import { footnoteReferences, spliceFootnoteReferences } from '../tree/footnotes.js';
import { mayCloseAfter, mayCloseBefore } from './closers.js';
import { firstUnclosed, keepFirstUnclosed } from '../tree/unclosed.js';
import { knownLinesOf } from '../tree/roots.js';
import { scan } from '../format/scan.js';
import { Cell, CELL_KIND_CODE, type Segment } from '../tree/segment.js';

type Entry = MessageDocument['metadata'][number];

/**
 * An edit after the first cell's marker line of a `.msg.md` file, whose
 * cells are found again by re-scanning only the cells around it until the
 * scan meets a marker of the previous version (see `rescan`). Undefined when
 * that does not hold (the whole parse runs) or when the edit changes agents
 * or the set of code languages (the facts are then resolved again).
 */
export function parseAcross(text: string, options: ParseOptions, prev: MessageDocument, e: TextEditHint): MessageDocument | undefined {
  if (isMdFile(options.fileName) || !prev.facts || prev.cells.length === 0) return undefined;
  if (!sameItems(options.agents, prev.options.agents) || !sameItems(options.languages, prev.options.languages)) return undefined;
  // The prologue, frontmatter and the first marker line stay as they are.
  if (e.start < cellStart(prev, 0) + prev.cells[0]!.parse.lines[0]!.end) return undefined;
  const found = rescan(prev, e);
  if (!found) return undefined;
  const { removed } = found;
  const added = cellsWithKeys(prev, found);
  if (!added) return undefined;
  const changes = countChanges(removed, added);
  if (!keepsAgentsAndLanguages(prev, removed, added, changes)) return undefined;

  const range = { start: e.start, oldEnd: e.oldEnd, newEnd: e.start + e.text.length };
  const doc = new MessageDocument(text, options, prev.lines.replaced(e.start, e.oldEnd, e.text, text));
  doc.frontmatter = prev.frontmatter;
  // The first replaced segment, or where the added cells go when none is (before a kept cell, or at the end).
  const at = prev.segments.length - prev.cells.length + found.from;
  const facts: { refreshed: Segment[]; doubtChanged?: DoubtChange; goneLines?: Entry[] } = { refreshed: [] };
  spliceFacts(doc, prev, at, found.from, removed, added, found.added.map((x) => x.at), changes, range.newEnd - range.oldEnd, facts);
  keepFirstUnclosed(doc, prev, at, removed.length, added);
  doc.edit = {
    previous: prev,
    ...range,
    changed: added.map((_, i) => at + i),
    replaced: { at, removed: removed.length, added: added.length, cell: found.from, gone: removed, goneLines: facts.goneLines!, refreshed: facts.refreshed, doubtChanged: facts.doubtChanged },
  };
  return doc;
}

/**
 * The cells an edit replaces, found by re-scanning the new text of the
 * cells around it (the previous version's cell texts with the edit made in
 * them) from the cell before the edit until a marker line of the previous
 * version after it: the whole new text is not read (an editor may hold it
 * as a rope that reading would flatten). Undefined when something before
 * the edit is left unclosed and the edited lines could close it, or when
 * the scan does not meet the previous markers within a few hundred cells.
 * An added cell that leaves something unclosed (a fence just opened) makes
 * the scan read further, since a later line may close it and hide the
 * markers between, unless the scan reached the end of the file or no later
 * cell holds a line that could close it (closers.ts).
 */
function rescan(prev: MessageDocument, e: TextEditHint): Rescanned | undefined {
  const cells = prev.cells;
  let s = cellIndexAt(prev, Math.max(cellStart(prev, 0), e.start - 1));
  // An edit on a marker line may join its cell to the one before.
  if (e.start < cellStart(prev, s) + cells[s]!.parse!.lines[0]!.end && s > 0) s--;
  // Something left open before the edit stays open unless the edited lines could close it.
  if (firstUnclosed(prev) < prev.segments.length - cells.length + s && mayCloseBefore(prev, e)) return undefined;
  const base = cellStart(prev, s);
  const delta = e.text.length - (e.oldEnd - e.start);
  const last = cellIndexAt(prev, Math.max(base, e.oldEnd - 1));
  // A fence opened by the edit may be closed cells later (hiding the markers between): up to 512 cells are read.
  for (let extra = 2; extra <= 512; extra *= 4) {
    const t = Math.min(cells.length - 1, last + extra);
    let old = '';
    for (let i = s; i <= t; i++) old += cells[i]!.text;
    if (base + old.length < e.oldEnd) return undefined;
    const region = (' ' + old.slice(0, e.start - base) + e.text + old.slice(e.oldEnd - base)).slice(1);
    let j = last + 1;
    let resume = -1;
    const result = scan(region, 0, region.length, {
      markers: true,
      keepLines: false,
      blocks: false,
      leading: undefined,
      stopAtMarker(lineStart) {
        const at = base + lineStart;
        if (at < e.start + e.text.length) return false;
        while (j <= t && cellStart(prev, j) + delta < at) j++;
        if (j <= t && cellStart(prev, j) + delta === at) {
          resume = j;
          return true;
        }
        return false;
      },
    });
    // Not back in step within these cells: more of them, unless the scan reached the end of the file.
    if (resume === -1 && t < cells.length - 1) continue;
    // Something an added cell leaves unclosed may be closed after these cells, unless they reach the end of the file.
    const toEnd = t === cells.length - 1;
    const end = resume === -1 ? region.length : result.stoppedAt!;
    const starts = result.markers.map((m) => m.line.start);
    // The cell the scan starts from keeps its marker (an edit on it starts the scan a cell earlier).
    if (starts[0] !== 0) return undefined;
    const removed = cells.slice(s, resume === -1 ? cells.length : resume);
    const added: Rescanned['added'] = [];
    let open = false;
    for (let i = 0; i < starts.length && !open; i++) {
      const text = region.slice(starts[i]!, i + 1 < starts.length ? starts[i + 1]! : end);
      // A cell the re-scan met again unchanged keeps its parse.
      const same = removed.find((c) => c.text === text);
      const parse = same ? same.parse! : parseCell((' ' + text).slice(1), true);
      open = parse.hasUnclosed && !toEnd && mayCloseAfter(parse, prev, t);
      added.push({ at: base + starts[i]!, text: same ? same.text : text, parse });
    }
    if (open) continue;
    // The cells before the edit that the scan found unchanged stay as they are.
    let k = 0;
    while (k < added.length && k < removed.length && added[k]!.text === removed[k]!.text && added[k]!.at === cellStart(prev, s + k)) k++;
    return { from: s + k, removed: removed.slice(k), added: added.slice(k) };
  }
  return undefined;
}

/** What a re-scan replaces: the previous version's cells from index `from`, by cells found in the new text (where each starts). */
interface Rescanned {
  from: number;
  removed: Cell[];
  added: { at: number; text: string; parse: CellParse }[];
}

/** Where the cell of index `i` starts (a `.msg.md` file's cells are its last segments). */
function cellStart(doc: MessageDocument, i: number): number {
  return doc.starts[doc.segments.length - doc.cells.length + i]!;
}

/** The index of the cell holding an offset (the first cell for offsets before it). */
function cellIndexAt(doc: MessageDocument, offset: number): number {
  let lo = 0;
  let hi = doc.cells.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (cellStart(doc, mid) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * The added cells, with keys (Cell.key) that keep the cells in order: the
 * removed cells' keys for as many, then keys between the last of those (or
 * the cell before) and the cell after. Undefined when two keys would be
 * too close to tell apart (many cells added at one place, one after the
 * other): the whole path then numbers the cells again.
 */
function cellsWithKeys(prev: MessageDocument, found: Rescanned): Cell[] | undefined {
  const { from, removed } = found;
  const cells = prev.cells;
  const after = cells[from + removed.length]?.key;
  let last = removed.length ? removed[removed.length - 1]!.key : from > 0 ? cells[from - 1]!.key : (after ?? 0) - 1;
  const extra = found.added.length - removed.length;
  const step = after === undefined ? 1 : (after - last) / (extra + 1);
  const out: Cell[] = [];
  for (let i = 0; i < found.added.length; i++) {
    const a = found.added[i]!;
    let key: number;
    if (i < removed.length) key = removed[i]!.key;
    else {
      key = last + step;
      if (!(key > last) || (after !== undefined && !(key < after))) return undefined;
      last = key;
    }
    out.push(new Cell(key, a.text, a.parse));
  }
  return out;
}

/**
 * Whether the cells an edit removes and adds leave the agents as they are
 * (no agent line among them, no id of theirs an agent's name) and what
 * every metadata type means: a code language that starts or stops being
 * used (a fence's info string typed) changes nothing else unless a metadata
 * line names it as its type (isLanguage).
 */
function keepsAgentsAndLanguages(prev: MessageDocument, removed: Cell[], added: Cell[], counted: CountChanges): boolean {
  for (const cells of [removed, added]) {
    for (const cell of cells) {
      if (cell.id !== undefined && prev.hasAgent(cell.id)) return false;
      for (const node of cell.parse!.metadata) if (node.type === 'agent') return false;
    }
  }
  const flipped = new Set<string>();
  for (const [lang, d] of counted.languages) {
    const before = prev.facts.languageCounts.get(lang) ?? 0;
    if (d !== 0 && (before === 0 || before + d === 0) && !COMMON_LANGUAGES.has(lang)) flipped.add(lang);
  }
  if (flipped.size === 0) return true;
  // Kept only when no metadata line of the new version names such a language: those before, less the removed, and the added.
  const types = counted.types;
  for (const [type, n] of prev.facts.typeCounts) if (n > 0 && flipped.has(type.toLowerCase()) && n + (types.get(type) ?? 0) > 0) return false;
  for (const [type, d] of types) if (d > 0 && flipped.has(type.toLowerCase())) return false;
  return true;
}

/** How many more code blocks name each language, and metadata lines have each type, in the added cells than in the removed ones. */
interface CountChanges {
  languages: Map<string, number>;
  types: Map<string, number>;
}

function countChanges(removed: Cell[], added: Cell[]): CountChanges {
  const languages = new Map<string, number>();
  const types = new Map<string, number>();
  for (const [cells, sign] of [[removed, -1], [added, 1]] as const) {
    for (const cell of cells) {
      for (const node of cell.parse!.metadata) if (node.type !== undefined) types.set(node.type, (types.get(node.type) ?? 0) + sign);
      for (const lang of fenceLanguages(cell.parse!)) languages.set(lang, (languages.get(lang) ?? 0) + sign);
    }
  }
  return { languages, types };
}

/** `counts` changed by `changes`, as a new map without zeros. */
function counted(counts: ReadonlyMap<string, number>, changes: ReadonlyMap<string, number>): Map<string, number> {
  const out = new Map(counts);
  for (const [key, d] of changes) {
    const n = (out.get(key) ?? 0) + d;
    if (n === 0) out.delete(key);
    else out.set(key, n);
  }
  return out;
}

/**
 * The facts of the new version: the previous version's lists with the
 * removed cells' part (from segment `at`, cell `firstIndex`) replaced by
 * the added cells' (starting at `addedAt`), the segments after them
 * starting `delta` later, and the per-cell facts (metadata line, kind,
 * idFits, kindKnown) made again for the ids the edit touches.
 */
function spliceFacts(
  doc: MessageDocument,
  prev: MessageDocument,
  at: number,
  firstIndex: number,
  removed: Cell[],
  added: Cell[],
  addedAt: number[],
  changes: CountChanges,
  delta: number,
  out: { refreshed: Segment[]; doubtChanged?: DoubtChange; goneLines?: Entry[] },
): void {
  const shared = prev.facts;
  const shift = added.length - removed.length;
  const oldAfter = at + removed.length;
  // Read before the by-index facts move (in their buffers, below): whether a removed cell's id fitted.
  const removedFits = removed.map((c) => prev.idFits(c));

  // Segments and cells: the previous version's lists changed in place (it
  // is spent; a copy of a list of 25,000 objects lands in V8's
  // large-object space, about 1 ms), the starts after the edit moved.
  const segments = prev.segments;
  const starts = prev.starts;
  const cells = prev.cells;
  // Cells by id, made before the lists change when they are a view of them (CellsById).
  const byIdBefore = prev.cellsById instanceof PersistentMap ? (prev.cellsById as PersistentMap<string, readonly Cell[]>) : PersistentMap.from(prev.cellsById);
  replaceRange(segments, at, removed.length, added);
  replaceRange(starts, at, removed.length, addedAt);
  moveStarts(starts, at + added.length, delta);
  replaceRange(cells, firstIndex, removed.length, added);

  // Metadata entries, their nodes and segments, by index.
  const m0 = shared.metaStart[at]!;
  const m1 = shared.metaStart[oldAfter]!;
  const entries: Entry[] = [];
  for (let s = 0; s < added.length; s++) for (const node of added[s]!.parse!.metadata) entries.push({ segment: added[s]!, node });
  const metaShift = entries.length - (m1 - m0);
  const metadata = prev.metadata;
  const goneLines = metadata.slice(m0, m1);
  replaceRange(metadata, m0, m1 - m0, entries);
  const metaNodes = shared.metaNodes;
  replaceRange(
    metaNodes,
    m0,
    m1 - m0,
    entries.map((x) => x.node),
  );
  // The by-index facts are the previous version's arrays too, moved in their own buffers.
  const metaStart = spliceNumbers(shared.metaStart, at, removed.length, added.length);
  for (let s = 0, k = m0; s < added.length; k += added[s]!.parse!.metadata.length, s++) metaStart[at + s] = k;
  if (metaShift !== 0) addFrom(metaStart, at + added.length, metaShift);
  const metaSegment = spliceNumbers(shared.metaSegment, m0, m1 - m0, entries.length);
  for (let k = m0; k < m0 + entries.length; k++) metaSegment[k] = at + added.indexOf(entries[k - m0]!.segment as Cell);
  if (shift !== 0) addFrom(metaSegment, m0 + entries.length, shift);
  doc.takeOver(segments, starts, cells, metadata);
  out.goneLines = goneLines;

  // The ids the edit touches: of the cells and metadata lines removed and added.
  const touched = new Set<string>();
  for (const c of [...removed, ...added]) {
    if (c.id !== undefined) touched.add(c.id);
    for (const node of c.parse!.metadata) touched.add(node.id.id);
  }
  // Footnote references added or removed change what isMetadataLine says of lines with those ids.
  const removedRefs = removed.map((c) => footnoteReferences(c.parse!));
  const addedRefs = added.map((c) => footnoteReferences(c.parse!));
  const refsBefore = new Set<string>(removedRefs.flatMap((ids) => [...ids]));
  const refsAfter = new Set<string>(addedRefs.flatMap((ids) => [...ids]));
  spliceFootnoteReferences(doc, prev, removedRefs, addedRefs);
  for (const id of refsBefore) if (!refsAfter.has(id)) touched.add(id);
  for (const id of refsAfter) if (!refsBefore.has(id)) touched.add(id);

  // Cells by id: the previous version's map with the removed cells out and the added in (in file order), as a copy.
  // How many cells had each touched id: whether a kept cell's id was used twice (see below).
  const usedBefore = new Map<string, number>();
  for (const id of touched) usedBefore.set(id, byIdBefore.get(id)?.length ?? 0);
  const byIdEdit = byIdBefore.edit();
  for (const c of removed) {
    if (c.id === undefined) continue;
    const list = byIdEdit.get(c.id)!.filter((x) => x !== c);
    if (list.length === 0) byIdEdit.delete(c.id);
    else byIdEdit.set(c.id, list);
  }
  for (const c of added) {
    if (c.id === undefined) continue;
    const list = byIdEdit.get(c.id);
    if (!list) byIdEdit.set(c.id, [c]);
    else byIdEdit.set(c.id, list.toSpliced(insertionPoint(list, c.key), 0, c));
  }
  const byId = byIdEdit.done();
  doc.cellsById = byId;
  // Code languages and metadata types counted: the removed cells' out, the added cells' in.
  const languageCounts = counted(shared.languageCounts, changes.languages);
  const typeCounts = counted(shared.typeCounts, changes.types);
  let codeLanguages = shared.codeLanguages;
  for (const lang of changes.languages.keys()) {
    if (languageCounts.has(lang) === codeLanguages.has(lang)) continue;
    if (codeLanguages === shared.codeLanguages) codeLanguages = new Set(codeLanguages);
    if (languageCounts.has(lang)) codeLanguages.add(lang);
    else codeLanguages.delete(lang);
  }
  doc.codeLanguages = codeLanguages;

  // The first metadata line of each touched id, and the segments that hold lines of those ids.
  const firstLine = new Map<string, number>();
  const holders = new Set<Segment>();
  const visit = (k: number): void => {
    const m = metadata[k]!;
    const id = m.node.id.id;
    holders.add(m.segment);
    const first = firstLine.get(id);
    if (first === undefined || k < first) firstLine.set(id, k);
  };
  // The previous version's lines of those ids, from its root index when it
  // has one (a walk over every metadata line costs a few ms on a large file).
  const known = knownLinesOf(prev, touched);
  if (known) {
    const gone = new Set<Segment>(removed);
    for (const m of known) {
      if (gone.has(m.segment)) continue;
      const seg = m.segment;
      visit(metaStart[doc.segmentIndexOf(seg)]! + seg.parse!.metadata.indexOf(m.node));
    }
    for (let k = m0; k < m0 + entries.length; k++) if (touched.has(metadata[k]!.node.id.id)) visit(k);
  } else {
    for (let k = 0; k < metadata.length; k++) if (touched.has(metadata[k]!.node.id.id)) visit(k);
  }
  addConfiguredAgents(doc);
  const bodyAgents = shared.bodyAgents.map((k) => (k >= m1 ? k + metaShift : k));
  for (const k of bodyAgents) addBodyAgent(doc, metadata[k]!);

  // Per-cell facts, by index, for the cells of touched ids and the added cells.
  const cellKinds = spliceNumbers(shared.cellKinds, firstIndex, removed.length, added.length);
  const cellFlags = spliceNumbers(shared.cellFlags, firstIndex, removed.length, added.length);
  const cellMeta = spliceNumbers(shared.cellMeta, firstIndex, removed.length, added.length);
  cellMeta.fill(-1, firstIndex, firstIndex + added.length);
  if (metaShift !== 0) addWhereAtLeast(cellMeta, m1, metaShift);
  const again = new Set<Cell>(added);
  for (const id of touched) for (const c of byId.get(id) ?? []) again.add(c);
  for (const c of added) {
    again.delete(c);
    holders.delete(c);
  }
  for (const c of again) holders.add(c);
  out.refreshed.push(...holders);
  // Which cells' ids became or stopped being doubtful (not fitting, or used
  // by another cell): rules read them across ids (doubtfulIdBetween). A
  // removed or added cell whose id is doubtful changes them too.
  // The facts are set before the cells' are made again: a cell's kind reads its metadata line through the version.
  doc.facts = {
    byId,
    cellMeta,
    cellKinds,
    cellFlags,
    bodyAgents,
    codeLanguages,
    languageCounts,
    typeCounts,
    metaStart,
    metaSegment,
    metaNodes,
    [MEMO]: [],
  };
  const doubtfulNow = (c: Cell): boolean => !doc.idFits(c) || (c.id !== undefined && byId.get(c.id)!.length > 1);
  const flipped: Cell[] = [];
  let replacedDoubtful = removed.some((c, i) => !removedFits[i] || (c.id !== undefined && usedBefore.get(c.id)! > 1));
  for (const c of again) {
    // The kept cell's flags, as the previous version had them (moved with it).
    const before = !doc.idFits(c) || (c.id !== undefined && usedBefore.get(c.id)! > 1);
    setCellFacts(c);
    if (before !== doubtfulNow(c)) flipped.push(c);
  }
  for (const c of added) {
    setCellFacts(c);
    if (doubtfulNow(c)) replacedDoubtful = true;
  }
  function setCellFacts(c: Cell): void {
    const k = c.id !== undefined ? firstLine.get(c.id) : undefined;
    const i = doc.indexOf(c);
    cellMeta[i] = k ?? -1;
    cellKinds[i] = CELL_KIND_CODE[classify(doc, c)];
    cellFlags[i] = flagsOf(doc, c);
  }
  if (flipped.length || replacedDoubtful) out.doubtChanged = { flipped, replaced: replacedDoubtful };
}

/** Moves `starts[from…]` by `delta` characters (a small function: see lists.ts). */
function moveStarts(starts: number[], from: number, delta: number): void {
  if (delta !== 0) for (let i = from; i < starts.length; i++) starts[i] += delta;
}

/** Where a cell of key `key` goes in a list of cells in file order (Cell.key orders them). */
function insertionPoint(list: readonly Cell[], key: number): number {
  let i = list.length;
  while (i > 0 && list[i - 1]!.key > key) i--;
  return i;
}
