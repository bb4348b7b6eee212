// Small helpers shared by the rule modules under rules/.

export { closest } from '../base/closest.js';
import { borrowsMetadata, Cell, type MessageDocument, type Segment } from '../syntax/document.js';
import type { ToolProblem, ToolProblemRule } from '../tool-calls/facts.js';
import { toolProblemsIn } from '../tool-calls/problems.js';
import type { ReportDescriptor, Rule, RuleContext, RuleMeta } from './types.js';

type Check = (context: RuleContext) => void;

/** `meta` with its rule's documentation: docs/rules/<id>.md in the repository. */
function withDocs(meta: Omit<RuleMeta, 'docs'>): RuleMeta {
  return { ...meta, docs: `https://github.com/msglint/msglint/blob/main/docs/rules/${meta.id}.md` };
}

/** A rule that reads the whole document (Rule.check). */
export function defineRule(meta: Omit<RuleMeta, 'docs'>, check: Check): Rule {
  return { meta: withDocs(meta), check };
}

/**
 * A rule whose findings are local to one segment (see Rule.checkSegment);
 * `across` may add findings that look across the whole document (Rule.check).
 */
export function defineSegmentRule(meta: Omit<RuleMeta, 'docs'>, checkSegment: (segment: Segment, context: RuleContext) => void, across?: Check): Rule {
  const rule: Rule = { meta: withDocs(meta), checkSegment };
  if (across) rule.check = across;
  return rule;
}

/** A segment rule that reads only cells (the frontmatter and the text between cells are no Cell). */
export function defineCellRule(meta: Omit<RuleMeta, 'docs'>, checkCell: (cell: Cell, context: RuleContext) => void, across?: Check): Rule {
  const checkSegment = (seg: Segment, context: RuleContext): void => {
    if (seg instanceof Cell) checkCell(seg, context);
  };
  return defineSegmentRule(meta, checkSegment, across);
}

/** A segment rule that words the problems its id names in a segment's tool elements (toolProblemsIn), each reported at its place. */
export function defineToolProblemRule<R extends ToolProblemRule>(
  meta: Omit<RuleMeta, 'docs'> & { id: R },
  describe: (problem: Extract<ToolProblem, { rule: R }>, doc: MessageDocument, segment: Segment) => Omit<ReportDescriptor, 'at'>,
): Rule {
  return defineSegmentRule(meta, (seg, { doc, report }) => {
    for (const p of toolProblemsIn(doc, seg, meta.id)) report({ at: doc.abs(seg, p), ...describe(p, doc, seg) });
  });
}

/**
 * Whether a cell's metadata line is its own to report on: a later cell with
 * a duplicated id shares the first one's metadata line, and a first one may
 * have only the later one's (borrowsMetadata); duplicate-id reports those.
 */
export function ownsMetadata(doc: MessageDocument, cell: Cell): boolean {
  return doc.cellsById.get(cell.id!)?.[0] === cell && !borrowsMetadata(doc, cell);
}

/** An id segment: letters, digits, `_` and `-`. */
export const SEGMENT = /^[A-Za-z0-9_-]+$/;
