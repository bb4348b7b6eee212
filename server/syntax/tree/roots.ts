// The cells and metadata lines of each id root (an id's first
// dot-separated segment: `12` for `12`, `12.k7f3q`, `12.k7f3q.1`), per
// version. A call, its results and the message it hangs on share a root,
// and rules keyed by root (Rule.checkRoots) re-run over a few roots
// after an edit: finding their cells must not read every cell. A version
// made by the editor's path (DocumentEdit.replaced) has the previous index
// updated for the replaced segments, as a copy that shares the roots the
// edit did not touch (PersistentMap).

import { replacedSegments, versionValue, type MessageDocument, type VersionMaker } from './message-document.js';
import { Memo } from '../../base/memo.js';
import { PersistentMap } from '../../base/persistent-map.js';
import type { Cell } from './segment.js';

type Entry = MessageDocument['metadata'][number];

/** The cells and metadata lines of a root, in no order. */
interface Members {
  readonly cells: readonly Cell[];
  readonly lines: readonly Entry[];
}

type RootIndex = ReadonlyMap<string, Members>;

const indexes = new Memo<MessageDocument, RootIndex>('document');
const rootIndex: VersionMaker<RootIndex> = { updated, whole };

/** An id's first dot-separated segment. */
export function rootOf(id: string): string {
  const dot = id.indexOf('.');
  return dot < 0 ? id : id.slice(0, dot);
}

/** The roots of the ids of the cells and metadata lines, in no order. */
export function idRoots(doc: MessageDocument): string[] {
  const out: string[] = [];
  for (const [root, m] of indexOf(doc)) if (m.cells.length || m.lines.length) out.push(root);
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

function indexOf(doc: MessageDocument): RootIndex {
  return versionValue(indexes, doc, rootIndex);
}

/** Made whole: a Map with lists of its own, filled in place before it is a value. */
function whole(doc: MessageDocument): RootIndex {
  const made = new Map<string, Members>();
  for (const c of doc.cells) if (c.id !== undefined) (members(made, c.id).cells as Cell[]).push(c);
  for (const m of doc.metadata) (members(made, m.node.id.id).lines as Entry[]).push(m);
  return made;
}

function members(index: Map<string, Members>, id: string): Members {
  const root = rootOf(id);
  let m = index.get(root);
  if (!m) index.set(root, (m = { cells: [], lines: [] }));
  return m;
}

/**
 * The previous version's index without the cells and lines of the segments
 * the edit replaced, with those of the new ones, as a copy: the roots it
 * does not touch are shared. Kept segments keep their ids, and their lines' entries.
 */
function updated(doc: MessageDocument, before: RootIndex): RootIndex {
  const { gone, come } = replacedSegments(doc);
  const index = PersistentMap.of(before).edit();
  const change = (id: string, f: (m: Members) => Members): void => {
    index.set(rootOf(id), f(index.get(rootOf(id)) ?? { cells: [], lines: [] }));
  };
  for (const cell of gone) if (cell.id !== undefined) change(cell.id, (m) => ({ cells: m.cells.filter((c) => c !== cell), lines: m.lines }));
  for (const line of gone.flatMap((c) => c.entries)) change(line.node.id.id, (m) => ({ cells: m.cells, lines: m.lines.filter((x) => x !== line) }));
  for (const cell of come) if (cell.id !== undefined) change(cell.id, (m) => ({ cells: [...m.cells, cell], lines: m.lines }));
  for (const line of come.flatMap((c) => c.entries)) change(line.node.id.id, (m) => ({ cells: m.cells, lines: [...m.lines, line] }));
  return index.done();
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
