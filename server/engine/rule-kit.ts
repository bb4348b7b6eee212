// Small helpers shared by the rule modules under rules/.

export { closest, editDistance } from '../base/closest.js';
import { docsUrl } from './docs.js';
import type { MessageDocument, Segment, Structure } from '../syntax/document.js';
import { Memo } from '../syntax/memo.js';
import type { Rule, RuleContext, RuleMeta } from './types.js';

export function defineRule(meta: Omit<RuleMeta, 'docs'>, check: (context: RuleContext) => void): Rule {
  return { meta: { ...meta, docs: docsUrl(meta.id) }, check };
}

/**
 * A rule whose findings are local to one segment (see Rule.checkSegment);
 * `check` may add findings that look across the file.
 */
export function defineSegmentRule(
  meta: Omit<RuleMeta, 'docs'>,
  checkSegment: (segment: Segment, context: RuleContext) => void,
  check?: (context: RuleContext) => void,
): Rule {
  return { meta: { ...meta, docs: docsUrl(meta.id) }, checkSegment, check };
}

/** An id segment: letters, digits, `_` and `-`. */
export const SEGMENT = /^[A-Za-z0-9_-]+$/;

/**
 * Per structure (the facts are the same for versions that share it): how
 * many output cells, and how many message cells, before each cell index have
 * an id that names nothing reliably.
 */
const doubtfulCounts = new Memo<Structure, { output: Int32Array; message: Int32Array }>();

function doubtfulBefore(doc: MessageDocument): { output: Int32Array; message: Int32Array } {
  let counts = doubtfulCounts.get(doc.structure);
  if (!counts) {
    const cells = doc.cells;
    counts = { output: new Int32Array(cells.length + 1), message: new Int32Array(cells.length + 1) };
    for (let i = 0; i < cells.length; i++) {
      const c = cells[i]!;
      const doubtful = !c.idFits || doc.cellsById.get(c.id!)!.length > 1;
      counts.output[i + 1] = counts.output[i]! + (doubtful && c.isOutput ? 1 : 0);
      counts.message[i + 1] = counts.message[i]! + (doubtful && !c.isOutput ? 1 : 0);
    }
    doubtfulCounts.set(doc.structure, counts);
  }
  return counts;
}

/**
 * Whether a cell strictly between two cell indices, an output cell or a
 * message cell as asked, has an id that names nothing reliably: no id, one
 * that does not fit (`Cell.idFits`), or one another cell has. A link to
 * an id that no cell has may be to that cell: the rule that would call the
 * link broken stays quiet, and cell-id-missing, cell-id-syntax or
 * duplicate-id reports the id (a root cause is reported once).
 */
export function doubtfulIdBetween(doc: MessageDocument, from: number, to: number, output: boolean): boolean {
  doubtListener?.(doc, from, to);
  const counts = output ? doubtfulBefore(doc).output : doubtfulBefore(doc).message;
  const lo = Math.max(0, from + 1);
  const hi = Math.min(to, doc.cells.length);
  return hi > lo && counts[hi]! - counts[lo]! > 0;
}

/**
 * Told of every doubtfulIdBetween question while the engine runs a rule
 * keyed by id root: after an edit that changes which ids are doubtful, the
 * rule runs again only for the roots whose questions span a changed cell
 * (movedQuestions in server/engine/relint.ts).
 */
let doubtListener: ((doc: MessageDocument, from: number, to: number) => void) | undefined;

/** Sets the listener (undefined: none) and returns the one it replaces. */
export function listenToDoubt(listener: typeof doubtListener): typeof doubtListener {
  const before = doubtListener;
  doubtListener = listener;
  return before;
}
