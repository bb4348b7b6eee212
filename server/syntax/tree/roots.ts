// The cells and metadata lines of each id root (an id's first
// dot-separated segment: `12` for `12`, `12.k7f3q`, `12.k7f3q.1`). A call,
// its results and the message it hangs on share a root; completion and the
// editor's path ask for one root's cells and lines without reading every
// cell. Derived per chunk of cells (ChunkedList.derived), so versions that
// share a chunk share its index and an edit makes again only the chunks it
// wrote: nothing is carried from one version's index to the next.

import type { MessageDocument } from './message-document.js';
import type { Cell } from './segment.js';

type Entry = MessageDocument['metadata'][number];

/** The cells and metadata lines of a root, in file order. */
interface Members {
  readonly cells: Cell[];
  readonly lines: Entry[];
}

/** An id's first dot-separated segment. */
export function rootOf(id: string): string {
  const dot = id.indexOf('.');
  return dot < 0 ? id : id.slice(0, dot);
}

/** The largest number that is the root of a cell's or metadata line's id (`12` of `12.k7f3q`); 0 when none is. */
export function largestNumericRoot(doc: MessageDocument): number {
  let max = 0;
  for (const m of leadingLines(doc)) max = Math.max(max, numericRoot(m.node.idText));
  const cells = doc.table.cells;
  for (let c = 0; c < cells.chunks.length; c++) max = Math.max(max, cells.derived(c, chunkLargest));
  return max;
}

/** The largest numeric root of a chunk's cells and their metadata lines. */
function chunkLargest(cells: readonly Cell[]): number {
  let max = 0;
  for (const c of cells) {
    if (c.id !== undefined) max = Math.max(max, numericRoot(c.id));
    for (const m of c.entries) max = Math.max(max, numericRoot(m.node.idText));
  }
  return max;
}

/** The number an id's root is, or -1 when the root is not digits. */
function numericRoot(id: string): number {
  let end = 0;
  while (end < id.length && id.charCodeAt(end) >= 48 && id.charCodeAt(end) <= 57) end++;
  if (end === 0 || (end < id.length && id.charCodeAt(end) !== 46)) return -1;
  return Number(id.slice(0, end));
}

/** The cells whose id has the root, in file order. */
export function cellsOfRoot(doc: MessageDocument, root: string): Cell[] {
  const out: Cell[] = [];
  const cells = doc.table.cells;
  for (let c = 0; c < cells.chunks.length; c++) for (const cell of cells.derived(c, chunkIndex).get(root)?.cells ?? []) out.push(cell);
  return out;
}

/** The metadata lines whose id has the root, in file order. */
export function linesOfRoot(doc: MessageDocument, root: string): Entry[] {
  const out = leadingLines(doc).filter((m) => rootOf(m.node.idText) === root);
  const cells = doc.table.cells;
  // A loop, not push(...lines): one cell may hold hundreds of thousands of lines, past what a call's arguments hold.
  for (let c = 0; c < cells.chunks.length; c++) for (const m of cells.derived(c, chunkIndex).get(root)?.lines ?? []) out.push(m);
  return out;
}

/** The metadata lines whose id is one of `ids`, in file order. */
export function linesOfIds(doc: MessageDocument, ids: ReadonlySet<string>): Entry[] {
  const roots = new Set<string>();
  for (const id of ids) roots.add(rootOf(id));
  const out: Entry[] = [];
  for (const root of roots) for (const m of linesOfRoot(doc, root)) if (ids.has(m.node.idText)) out.push(m);
  return out;
}

/** A chunk's cells and their metadata lines by root. */
function chunkIndex(cells: readonly Cell[]): ReadonlyMap<string, Members> {
  const index = new Map<string, Members>();
  for (const c of cells) {
    if (c.id !== undefined) members(index, c.id).cells.push(c);
    for (const m of c.entries) members(index, m.node.idText).lines.push(m);
  }
  return index;
}

function members(index: Map<string, Members>, id: string): Members {
  const root = rootOf(id);
  let m = index.get(root);
  if (!m) index.set(root, (m = { cells: [], lines: [] }));
  return m;
}

/** The metadata lines of the segments before the cells (a prologue's). */
function leadingLines(doc: MessageDocument): Entry[] {
  return doc.table.leading.flatMap((seg) => seg.entries);
}
