// Small helpers shared by the rule modules under rules/.

export { closest, editDistance } from '../base/closest.js';
import { docsUrl } from './docs.js';
import type { Segment } from '../syntax/document.js';
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
