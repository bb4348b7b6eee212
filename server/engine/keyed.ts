// Keyed re-runs: after an edit, a cross-cell rule whose findings are per id
// root (Rule.checkRoots) runs again only over the cells and metadata
// lines of the roots the edit touched; its other findings are the previous
// version's, moved. See docs/architecture.md, "Keyed re-runs".

import { Cell, type DocumentEdit, type MessageDocument, type MetadataEntry, type Segment } from '../syntax/document.js';
import { countAtMost } from '../base/sorted.js';
import { cellsOfRoot, linesOfRoot, rootOf } from '../syntax/tree/roots.js';
import { cellsWithDoubtfulIds } from '../syntax/tree/segment-lists.js';
import type { Diagnostic } from './types.js';

/** What a keyed re-run checks: the touched roots' cells and metadata lines. */
export interface CheckScope {
  cells: readonly Cell[];
  metadata: readonly MetadataEntry[];
}

/**
 * The root a finding at `offset` is attributed to: the metadata line's
 * there, else the cell's; null where neither has an id.
 */
export function rootAt(doc: MessageDocument, offset: number): string | null {
  const seg = doc.segmentAt(offset);
  if (!seg) return null;
  const lines = seg.parse?.metadata;
  if (lines?.length) {
    // The last line starting at or before the offset, by binary search: a
    // cell may hold thousands of metadata lines, each with a finding.
    const rel = offset - doc.offsetOf(seg);
    const n = lines[countAtMost(lines.length, (k) => lines[k]!.span.start, rel) - 1];
    if (n && rel < n.span.end) return rootOf(n.id.id);
  }
  return seg instanceof Cell && seg.id !== undefined ? rootOf(seg.id) : null;
}

/**
 * A doubtfulIdBetween question a keyed rule asked: cell indices in the
 * version it was asked of (-1 and Infinity: open ends), and the root of the
 * cell it was asked about (the end, or the start when the end is open),
 * null when that cell has no id. A keyed rule's questions for a root ask
 * about the root's own cells (Rule.checkRoots).
 */
export interface DoubtQuery {
  root: string | null;
  from: number;
  to: number;
}

/** RuleContext.doubtfulIdBetween, answered for `doc`. */
export function doubtfulIdBetween(doc: MessageDocument, from: number, to: number, output: boolean): boolean {
  // Few cells have such ids: the list of them is kept per version, updated by an edit.
  const cells = cellsWithDoubtfulIds(doc);
  for (let i = countAtMost(cells.length, (k) => doc.indexOf(cells[k]!), from); i < cells.length && doc.indexOf(cells[i]!) < to; i++) if (cells[i]!.isOutput === output) return true;
  return false;
}

export function doubtQuery(doc: MessageDocument, from: number, to: number): DoubtQuery {
  const count = doc.cellCount;
  const about = to < count ? doc.cell(to) : doc.cell(from);
  return { root: about?.id !== undefined ? rootOf(about.id) : null, from: Math.max(from, -1), to: to >= count ? Infinity : to };
}

/** More edited segments than this: a whole run costs no more than the bookkeeping. */
const MAX_CHANGED = 2000;

/** The file-wide facts a keyed rule may read besides its roots (Rule.checkRoots). */
function sameFileFacts(doc: MessageDocument, prev: MessageDocument): boolean {
  if (doc.frontmatter !== prev.frontmatter || doc.section || prev.section || !doc.isMessageFile || !prev.isMessageFile) return false;
  if (doc.agents.length !== prev.agents.length) return false;
  for (let i = 0; i < doc.agents.length; i++) {
    const a = doc.agents[i]!;
    const b = prev.agents[i]!;
    if (a.name !== b.name || a.source !== b.source) return false;
  }
  return doc.languagesRead === prev.languagesRead;
}

/** Anything shaped like a footnote reference: the ids a segment's text names (a superset of its references). */
const REFERENCE = /\[\^([^\]\s[]+)\]/g;

/**
 * Adds the roots of an edited segment's cell id, metadata lines and footnote
 * references (which make a line no cell uses a footnote, not metadata);
 * false when a keyed re-run cannot follow it.
 */
function addRootsOf(seg: Segment, roots: Set<string>): boolean {
  // Text outside cells (the prologue, outside the section) has no root.
  if (!(seg instanceof Cell)) return false;
  // A doubtful id (none, one that does not fit, one another cell has) is read
  // across roots: the edit says which changed (ReplacedCells.doubtChanged). A
  // cell without an id has no root of its own, and keyed rules find nothing
  // in it but on its metadata lines.
  if (seg.id !== undefined) roots.add(rootOf(seg.id));
  const lines = seg.parse!.metadata;
  for (let i = 0; i < lines.length; i++) {
    const n = lines[i]!;
    // A body agent's line: the agents change.
    if (n.type === 'agent') return false;
    roots.add(rootOf(n.id.id));
  }
  const text = seg.text;
  REFERENCE.lastIndex = 0;
  for (let m = REFERENCE.exec(text); m; m = REFERENCE.exec(text)) roots.add(rootOf(m[1]!));
  return true;
}

/**
 * The touched roots of an edit on the editor's path: those of the cells it
 * replaced, in the previous version and this one, and of the cells on
 * either side (a cell's end meets its neighbour's first line). Undefined
 * when a keyed re-run does not apply: see Rule.checkRoots for when.
 */
export function touchedRoots(doc: MessageDocument, prev: MessageDocument, edit: DocumentEdit): Set<string> | undefined {
  if (!sameFileFacts(doc, prev)) return undefined;
  const r = edit.replaced;
  const lo = r.at;
  const newHi = r.at + r.added;
  if (r.removed + r.added > MAX_CHANGED) return undefined;
  const roots = new Set<string>();
  for (const seg of r.gone) if (!addRootsOf(seg, roots)) return undefined;
  for (let i = lo; i < newHi; i++) if (!addRootsOf(doc.segment(i)!, roots)) return undefined;
  for (const s of [doc.segment(lo - 1), doc.segment(newHi)]) if (s instanceof Cell && s.id !== undefined) roots.add(rootOf(s.id));
  return roots;
}

/**
 * The cells and metadata lines of `roots`, with the roots grown until every
 * cell that holds one of their lines, and every line in one of their cells,
 * is in (a finding on a line of one root in a cell of another must be made
 * again when either is touched). Undefined when a line of them lies outside
 * the cells.
 */
export function scopeOf(doc: MessageDocument, roots: Set<string>): CheckScope | undefined {
  for (let round = 0; round < 4; round++) {
    // Pushed, not concatenated: an edit can touch tens of thousands of roots (one cell's metadata lines).
    const cells: Cell[] = [];
    const metadata: MetadataEntry[] = [];
    for (const root of roots) {
      for (const c of cellsOfRoot(doc, root)) cells.push(c);
      for (const m of linesOfRoot(doc, root)) metadata.push(m);
    }
    const before = roots.size;
    for (const m of metadata) {
      const holder = m.segment;
      if (!(holder instanceof Cell)) return undefined;
      // A cell without an id: keyed rules find nothing in it but on its lines (see addRootsOf).
      if (holder.id !== undefined) roots.add(rootOf(holder.id));
    }
    for (const c of cells) for (const n of c.parse!.metadata) roots.add(rootOf(n.id.id));
    if (roots.size === before) {
      // In file order, as a whole lint gives them.
      cells.sort((a, b) => doc.indexOf(a) - doc.indexOf(b));
      metadata.sort((a, b) => doc.offsetOf(a.segment) + a.node.span.start - (doc.offsetOf(b.segment) + b.node.span.start));
      return { cells, metadata };
    }
  }
  return undefined;
}

/**
 * A keyed rule's findings, each with the id root it was attributed to when
 * made (rootAt), null where it lies in nothing with an id, and the
 * doubtfulIdBetween questions they rest on (undefined: not known).
 */
export interface KeyedFindings {
  found: Diagnostic[];
  roots: (string | null)[];
  doubt: DoubtQuery[] | undefined;
}

/** A keyed rule's previous findings that still hold after an edit, moved, and the touched roots' cells and lines to run it over. */
export interface Moved extends KeyedFindings {
  scope: CheckScope;
}
