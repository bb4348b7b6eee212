// Small helpers shared by the rule modules under rules/.

export { closest, editDistance } from '../base/closest.js';
import { docsUrl } from './docs.js';
import type { Segment } from '../syntax/document.js';
import type { PerCell, Rule, RuleContext, RuleMeta } from './types.js';

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

/**
 * A rule whose `check` folds over values per cell (the LLM view up to a
 * reply, say): each function of `perCell` says what one cell contributes,
 * from that cell and the file-wide facts; the check asks for every cell's
 * value with `context.cellValues(f)`. The engine keeps the values per
 * version and makes again only the edited cells' (cell-values.ts). The
 * fold reads every cell, so the rule runs again after any edit, prose too.
 */
export function defineFoldRule(meta: Omit<RuleMeta, 'docs' | 'incremental'>, perCell: readonly PerCell<unknown>[], check: (context: RuleContext) => void): Rule {
  // readsProse: what the re-lint after a prose edit (relint.ts) asks; the shape says it.
  return { meta: { ...meta, docs: docsUrl(meta.id), incremental: { readsProse: true } }, perCell, check };
}

/** An id segment: letters, digits, `_` and `-`. */
export const SEGMENT = /^[A-Za-z0-9_-]+$/;
