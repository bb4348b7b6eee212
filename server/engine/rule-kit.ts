// Small helpers shared by the rule modules under rules/.

export { closest, editDistance } from '../base/closest.js';
import { docsUrl } from './docs.js';
import type { Cell, MessageDocument, Segment } from '../syntax/document.js';
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

/**
 * A rule whose `check` folds over a value per cell (the LLM view up to a
 * reply, say): `perCell` says what one cell contributes, from that cell and
 * the file-wide facts; `check` gets every cell's value by cell index. The
 * engine keeps the values per version and makes again only the edited
 * cells' (server/engine/cell-values.ts). The fold reads every cell, so
 * the rule runs again after any edit, prose too.
 */
export function defineFoldRule<V>(
  meta: Omit<RuleMeta, 'docs' | 'incremental'>,
  perCell: (cell: Cell, doc: MessageDocument) => V,
  check: (context: RuleContext, values: () => readonly V[]) => void,
): Rule {
  return {
    // readsProse: what the re-lint after a prose edit (relint.ts) asks; the shape says it.
    meta: { ...meta, docs: docsUrl(meta.id), incremental: { readsProse: true } },
    perCell,
    check: (context) => check(context, context.cellValues as () => readonly V[]),
  };
}

/** An id segment: letters, digits, `_` and `-`. */
export const SEGMENT = /^[A-Za-z0-9_-]+$/;
