// The cells and metadata lines of each id root (an id's first
// dot-separated segment: `12` for `12`, `12.k7f3q`, `12.k7f3q.1`), per
// version. A call, its results and the message it hangs on share a root,
// and rules keyed by root (Rule.checkRoots) re-run over a few roots
// after an edit: finding their cells must not read every cell. A version
// that keeps the previous one's segments (DocumentEdit.replaced) takes the
// previous index, updated for the replaced segments.

import type { MessageDocument } from './message-document.js';
import { Memo } from '../../base/memo.js';
import { Cell } from './segment.js';

type Entry = MessageDocument['metadata'][number];

interface Members {
  cells: Set<Cell>;
  lines: Set<Entry>;
}

const indexes = new Memo<MessageDocument, Map<string, Members>>();

/** An id's first dot-separated segment. */
export function rootOf(id: string): string {
  const dot = id.indexOf('.');
  return dot < 0 ? id : id.slice(0, dot);
}

/** The roots of the ids of the cells and metadata lines, in no order. */
export function idRoots(doc: MessageDocument): string[] {
  const out: string[] = [];
  for (const [root, m] of indexOf(doc)) if (m.cells.size || m.lines.size) out.push(root);
  return out;
}

/** The cells whose id has the root, in file order. */
export function cellsOfRoot(doc: MessageDocument, root: string): Cell[] {
  const m = indexOf(doc).get(root);
  return m ? [...m.cells].sort((a, b) => doc.indexOf(a) - doc.indexOf(b)) : [];
}

/** The metadata lines whose id has the root, in file order. */
export function linesOfRoot(doc: MessageDocument, root: string): Entry[] {
  const m = indexOf(doc).get(root);
  return m ? [...m.lines].sort((a, b) => doc.offsetOf(a.segment) + a.node.span.start - (doc.offsetOf(b.segment) + b.node.span.start)) : [];
}

function indexOf(doc: MessageDocument): Map<string, Members> {
  let index = indexes.get(doc);
  if (index) return index;
  const edit = doc.edit;
  const before = edit?.replaced && edit.previous ? indexes.get(edit.previous) : undefined;
  if (before) index = updated(doc, before);
  else {
    index = new Map();
    for (const c of doc.cells) add(index, c);
    for (const m of doc.metadata) addLine(index, m);
  }
  indexes.set(doc, index);
  return index;
}

function members(index: Map<string, Members>, id: string): Members {
  const root = rootOf(id);
  let m = index.get(root);
  if (!m) index.set(root, (m = { cells: new Set(), lines: new Set() }));
  return m;
}

function add(index: Map<string, Members>, c: Cell): void {
  if (c.id !== undefined) members(index, c.id).cells.add(c);
}

function addLine(index: Map<string, Members>, m: Entry): void {
  members(index, m.node.id.id).lines.add(m);
}

/**
 * The previous version's index (changed in place: that version is spent)
 * without the cells and lines of the segments the edit replaced, with those
 * of the new ones. Kept segments keep their ids, and their lines' entries.
 */
function updated(doc: MessageDocument, index: Map<string, Members>): Map<string, Members> {
  const edit = doc.edit!;
  const r = edit.replaced!;
  for (const seg of r.gone) if (seg instanceof Cell && seg.id !== undefined) index.get(rootOf(seg.id))?.cells.delete(seg);
  for (const m of r.goneLines) index.get(rootOf(m.node.id.id))?.lines.delete(m);
  for (let i = r.at; i < r.at + r.added; i++) {
    const seg = doc.segments[i]!;
    if (seg instanceof Cell) add(index, seg);
  }
  for (const m of linesOf(doc, r.at, r.added)) addLine(index, m);
  return index;
}

/** The metadata entries of `count` segments from index `at` (FileFacts.metaStart: where each segment's lines start). */
function linesOf(doc: MessageDocument, at: number, count: number): Entry[] {
  const starts = doc.facts.metaStart;
  return doc.metadata.slice(starts[at]!, starts[at + count]!);
}

/**
 * The metadata entries whose id is one of `ids`, from a version's index
 * (in no order); undefined when the version has no index yet (rules make
 * it on first use).
 */
export function knownLinesOf(doc: MessageDocument, ids: Set<string>): Entry[] | undefined {
  const index = indexes.get(doc);
  if (!index) return undefined;
  const out: Entry[] = [];
  const roots = new Set<string>();
  for (const id of ids) roots.add(rootOf(id));
  for (const root of roots) for (const m of index.get(root)?.lines ?? []) if (ids.has(m.node.id.id)) out.push(m);
  return out;
}

/**
 * Made for a version an editor keeps: from the previous version's index
 * while it is at hand, or whole (a version the whole path made, or the
 * first), so that the next keystroke only updates it.
 */
export function keepRootIndex(doc: MessageDocument): void {
  indexOf(doc);
}
