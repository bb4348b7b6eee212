// Small helpers shared by the rule modules under rules/.

export { closest, editDistance } from '../base/closest.js';
import { docsUrl } from './docs.js';
import type { MessageDocument, Segment } from '../syntax/document.js';
import { cellsWithDoubtfulIds } from '../syntax/tree/segment-lists.js';
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
 * Whether a cell strictly between two cell indices, an output cell or a
 * message cell as asked, has an id that names nothing reliably: no id, one
 * that does not fit (`Cell.idFits`), or one another cell has. A link to
 * an id that no cell has may be to that cell: the rule that would call the
 * link broken stays quiet, and cell-id-missing, cell-id-syntax or
 * duplicate-id reports the id (a root cause is reported once).
 */
export function doubtfulIdBetween(doc: MessageDocument, from: number, to: number, output: boolean): boolean {
  doubtListener?.(doc, from, to);
  // Few cells have such ids: the list of them is kept per version, updated by an edit.
  const cells = cellsWithDoubtfulIds(doc);
  let lo = 0;
  let hi = cells.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cells[mid]!.index <= from) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo; i < cells.length && cells[i]!.index < to; i++) if (cells[i]!.isOutput === output) return true;
  return false;
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
