// The editor's path: an edit (a letter typed, a marker or an id typed, a
// block pasted, a cell deleted) gives a version made of the previous one's
// cells before the edit, the re-scanned cells, and the previous one's
// cells after it, which start later by the edit's length change; the
// file-wide facts are updated for the ids those cells add and remove, not
// recomputed. The previous version stays as it was: the new one shares its
// lists by chunk and its maps by bucket.

import { parseCell, type CellParse } from '../format/cell.js';
import { addAgents, countParse, factsOf } from '../tree/facts.js';
import { carriedFrom, isMdFile, MessageDocument, type ParseOptions, type TextEditHint } from '../tree/message-document.js';
import { COMMON_LANGUAGES } from '../tree/file-facts.js';
import { sameItems } from '../../base/lists.js';
import { PersistentMap } from '../../base/persistent-map.js';
import { ListMap, listWriter } from '../../base/list-map.js';
import { footnoteReferences } from '../tree/footnotes.js';
import { mayCloseAfter, mayCloseBefore } from './closers.js';
import { firstUnclosed, keepFirstUnclosed } from '../tree/unclosed.js';
import { linesOfIds } from '../tree/roots.js';
import { scan } from '../format/scan.js';
import { SegmentTable } from '../tree/segment-table.js';
import { Cell, type Segment } from '../tree/segment.js';

type Entry = MessageDocument['metadata'][number];

/**
 * An edit after the first cell's marker line of a `.msg.md` file, whose
 * cells are found again by re-scanning only the cells around it until the
 * scan meets a marker of the previous version (see `rescan`). Undefined when
 * that does not hold (the whole parse runs) or when the edit changes agents
 * or the set of code languages (the facts are then resolved again).
 */
export function parseAcross(text: string, options: ParseOptions, prev: MessageDocument, e: TextEditHint): MessageDocument | undefined {
  if (isMdFile(options.fileName) || !prev.facts || prev.cellCount === 0) return undefined;
  if (!sameItems(options.agents, prev.options.agents) || !sameItems(options.languages, prev.options.languages)) return undefined;
  // The prologue, frontmatter and the first marker line stay as they are.
  if (e.start < prev.table.cellStart(0) + prev.cell(0)!.parse.lines[0]!.end) return undefined;
  const found = rescan(prev, e);
  if (!found) return undefined;
  const { removed } = found;
  const added = cellsWithKeys(prev, found);
  if (!added) return undefined;
  // Code languages and metadata types counted: the removed cells' out, the added cells' in.
  const languageCounts = new Map(prev.facts.languageCounts);
  const typeCounts = new Map(prev.facts.typeCounts);
  for (const c of removed) countParse(c.parse, -1, languageCounts, typeCounts);
  for (const c of added) countParse(c.parse, 1, languageCounts, typeCounts);
  if (!keepsAgentsAndLanguages(prev, removed, added, languageCounts, typeCounts)) return undefined;

  // The previous version's cells with the replaced ones spliced out: a copy that shares every chunk the edit does not touch.
  const cells = prev.table.cells.edit().splice(found.from, removed.length, added).done();
  const doc = new MessageDocument(text, options, prev.lines.replaced(e.start, e.oldEnd, e.text, text));
  doc.table = SegmentTable.withCells(prev.table, cells, text.length);
  doc.frontmatter = prev.frontmatter;
  // The first replaced segment, or where the added cells go when none is (before a kept cell, or at the end).
  const at = prev.segmentCount - prev.cellCount + found.from;
  const refreshed = spliceFacts(doc, prev, found.from, removed, added, languageCounts, typeCounts);
  keepFirstUnclosed(doc, prev, at, removed.length, added);
  doc.edit = {
    carried: carriedFrom(prev),
    start: e.start,
    oldEnd: e.oldEnd,
    newEnd: e.start + e.text.length,
    replaced: {
      at,
      removed: removed.length,
      added: added.length,
      cell: found.from,
      gone: removed,
      refreshed,
    },
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
  const count = prev.cellCount;
  let s = prev.table.cellIndexAt(Math.max(prev.table.cellStart(0), e.start - 1));
  // An edit on a marker line may join its cell to the one before.
  if (e.start < prev.table.cellStart(s) + prev.cell(s)!.parse.lines[0]!.end && s > 0) s--;
  // Something left open before the edit stays open unless the edited lines could close it.
  if (firstUnclosed(prev) < prev.segmentCount - count + s && mayCloseBefore(prev, e)) return undefined;
  const base = prev.table.cellStart(s);
  const delta = e.text.length - (e.oldEnd - e.start);
  const last = prev.table.cellIndexAt(Math.max(base, e.oldEnd - 1));
  // A fence opened by the edit may be closed cells later (hiding the markers between): up to 512 cells are read.
  for (let extra = 2; extra <= 512; extra *= 4) {
    const t = Math.min(count - 1, last + extra);
    let old = '';
    for (let i = s; i <= t; i++) old += prev.cell(i)!.text;
    if (base + old.length < e.oldEnd) return undefined;
    const region = (' ' + old.slice(0, e.start - base) + e.text + old.slice(e.oldEnd - base)).slice(1);
    let j = last + 1;
    let resume = -1;
    const result = scan(region, 0, region.length, {
      markers: true,
      blocks: false,
      leadingLine: false,
      stopAtMarker(lineStart) {
        const at = base + lineStart;
        if (at < e.start + e.text.length) return false;
        while (j <= t && prev.table.cellStart(j) + delta < at) j++;
        if (j <= t && prev.table.cellStart(j) + delta === at) {
          resume = j;
          return true;
        }
        return false;
      },
    });
    // Not back in step within these cells: more of them, unless the scan reached the end of the file.
    if (resume === -1 && t < count - 1) continue;
    // Something an added cell leaves unclosed may be closed after these cells, unless they reach the end of the file.
    const toEnd = t === count - 1;
    const end = resume === -1 ? region.length : result.stoppedAt!;
    const starts = result.markers.map((m) => m.line.start);
    // The cell the scan starts from keeps its marker (an edit on it starts the scan a cell earlier).
    if (starts[0] !== 0) return undefined;
    const removed = prev.table.cells.slice(s, resume === -1 ? count : resume);
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
    while (k < added.length && k < removed.length && added[k]!.text === removed[k]!.text && added[k]!.at === prev.table.cellStart(s + k)) k++;
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

/**
 * The added cells, with keys (Cell.key) that keep the cells in order: the
 * removed cells' keys for as many, then keys between the last of those (or
 * the cell before) and the cell after. Undefined when two keys would be
 * too close to tell apart (many cells added at one place, one after the
 * other): the whole path then numbers the cells again.
 */
function cellsWithKeys(prev: MessageDocument, found: Rescanned): Cell[] | undefined {
  const { from, removed } = found;
  const after = prev.cell(from + removed.length)?.key;
  let last = removed.length ? removed[removed.length - 1]!.key : from > 0 ? prev.cell(from - 1)!.key : (after ?? 0) - 1;
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
 * Whether the cells an edit removes and adds (giving the new version's
 * counts `languages` and `types`, FileFacts.languageCounts and typeCounts)
 * leave the agents as they are (no agent line among them, no id of theirs
 * an agent's name) and what
 * every metadata type means: a code language that starts or stops being
 * used (a fence's info string typed) changes nothing else unless a metadata
 * line names it as its type (isLanguage).
 */
function keepsAgentsAndLanguages(prev: MessageDocument, removed: Cell[], added: Cell[], languages: ReadonlyMap<string, number>, types: ReadonlyMap<string, number>): boolean {
  for (const cells of [removed, added]) {
    for (const cell of cells) {
      if (cell.id !== undefined && prev.hasAgent(cell.id)) return false;
      for (const node of cell.parse!.metadata) if (node.type === 'agent') return false;
    }
  }
  // The languages used before or after but not both (the common ones are languages either way).
  const before = prev.facts.languageCounts;
  const flipped = new Set<string>();
  for (const lang of languages.keys()) if (!before.has(lang) && !COMMON_LANGUAGES.has(lang)) flipped.add(lang);
  for (const lang of before.keys()) if (!languages.has(lang) && !COMMON_LANGUAGES.has(lang)) flipped.add(lang);
  if (flipped.size === 0) return true;
  // Kept only when no metadata line of the new version names such a language.
  for (const type of types.keys()) if (flipped.has(type.toLowerCase())) return false;
  return true;
}

/**
 * The facts of the new version: the previous version's with the removed
 * cells' part (from cell `firstIndex`) replaced by the added cells', and the
 * per-cell facts (metadata line, kind, idFits, kindKnown) made again for the
 * ids the edit touches. Every list and map is a copy that shares what the
 * edit does not change: the previous version stays as it was. Returns the
 * kept segments whose facts it made again (ReplacedCells.refreshed).
 */
function spliceFacts(
  doc: MessageDocument,
  prev: MessageDocument,
  firstIndex: number,
  removed: Cell[],
  added: Cell[],
  languageCounts: Map<string, number>,
  typeCounts: Map<string, number>,
): Segment[] {
  const shared = prev.facts;

  // The ids the edit touches: of the cells and metadata lines removed and added.
  const touched = new Set<string>();
  for (const c of [...removed, ...added]) {
    if (c.id !== undefined) touched.add(c.id);
    for (const node of c.parse.metadata) touched.add(node.idText);
  }
  // Footnote references added or removed change what isMetadataLine says of lines with those ids.
  const refsBefore = new Set<string>(removed.flatMap((c) => [...footnoteReferences(c.parse)]));
  const refsAfter = new Set<string>(added.flatMap((c) => [...footnoteReferences(c.parse)]));
  for (const id of refsBefore) if (!refsAfter.has(id)) touched.add(id);
  for (const id of refsAfter) if (!refsBefore.has(id)) touched.add(id);

  // Cells by id: the previous version's map with the removed cells out and the added in (in file order), as a copy.
  const packedEdit = PersistentMap.of(prev.cellsById.packed).edit();
  const byIdEdit = listWriter(packedEdit);
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
  const byId = new ListMap(packedEdit.done());
  doc.cellsById = byId;
  // The first metadata line of each touched id, and the segments that hold lines of those ids.
  const firstLine = new Map<string, Entry>();
  const holders = new Set<Segment>();
  for (const m of linesOfIds(doc, touched)) {
    holders.add(m.segment);
    if (!firstLine.has(m.node.idText)) firstLine.set(m.node.idText, m);
  }
  // No agent line is among the removed or added cells (keepsAgentsAndLanguages): the same body agents.
  addAgents(doc, shared.bodyAgents);

  // Per-cell facts, by index: the previous version's, moved, then made again for the cells of touched ids and the added cells.
  const again = new Set<Cell>();
  for (const id of touched) for (const c of byId.get(id) ?? []) again.add(c);
  for (const c of added) {
    again.delete(c);
    holders.delete(c);
  }
  for (const c of again) holders.add(c);
  // A cell's metadata line first: its kind reads it through the version.
  const lineOf = (c: Cell): Entry | undefined => (c.id !== undefined ? firstLine.get(c.id) : undefined);
  const cellMeta = shared.cellMeta.edit().splice(firstIndex, removed.length, added.map(lineOf));
  for (const c of again) cellMeta.set(doc.indexOf(c), lineOf(c));
  const cellFacts = shared.cellFacts.edit().splice(firstIndex, removed.length, added.map(() => 0));
  doc.facts = {
    cellMeta: cellMeta.done(),
    cellFacts: cellFacts.done(),
    bodyAgents: shared.bodyAgents,
    languageCounts,
    typeCounts,
  };
  for (const c of [...again, ...added]) cellFacts.set(doc.indexOf(c), factsOf(doc, c));
  doc.facts.cellFacts = cellFacts.done();
  return [...holders];
}

/** Where a cell of key `key` goes in a list of cells in file order (Cell.key orders them). */
function insertionPoint(list: readonly Cell[], key: number): number {
  let i = list.length;
  while (i > 0 && list[i - 1]!.key > key) i--;
  return i;
}
