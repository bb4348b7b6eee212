// Small helpers shared by the rule modules under rules/.

export { closest } from '../base/closest.js';
import { borrowsMetadata, Cell, type MessageDocument } from '../syntax/document.js';
import type { ToolProblem, ToolProblemRule } from '../tool-calls/facts.js';
import { toolProblemsIn } from '../tool-calls/problems.js';
import type { CellInput } from './cell-input.js';
import type { ReportDescriptor, Rule, RuleContext, RuleMeta, SegmentContext } from './types.js';

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
export function defineSegmentRule(meta: Omit<RuleMeta, 'docs'>, checkSegment: (input: CellInput, context: SegmentContext) => void, across?: Check): Rule {
  const rule: Rule = { meta: withDocs(meta), checkSegment };
  if (across) rule.check = across;
  return rule;
}

/** A segment rule that reads only cells (the frontmatter and the text between cells are no Cell). */
export function defineCellRule(meta: Omit<RuleMeta, 'docs'>, checkCell: (cell: Cell, input: CellInput, context: SegmentContext) => void, across?: Check): Rule {
  const checkSegment = (input: CellInput, context: SegmentContext): void => {
    const cell = input.cell;
    if (cell) checkCell(cell, input, context);
  };
  return defineSegmentRule(meta, checkSegment, across);
}

/** A segment rule that words the problems its id names in a segment's tool elements (toolProblemsIn), each reported at its place. */
export function defineToolProblemRule<R extends ToolProblemRule>(
  meta: Omit<RuleMeta, 'docs'> & { id: R },
  describe: (problem: Extract<ToolProblem, { rule: R }>, input: CellInput) => Omit<ReportDescriptor, 'at'>,
): Rule {
  return defineSegmentRule(meta, (input, { report }) => {
    for (const p of toolProblemsIn(input, meta.id)) report({ at: input.abs(p), ...describe(p, input) });
  });
}

/**
 * Whether a cell's metadata line is its own to report on: a later cell with
 * a duplicated id shares the first one's metadata line, and a first one may
 * have only the later one's (borrowsMetadata); duplicate-id reports those.
 * (A segment check asks its input: CellInput.ownsMetadata.)
 */
export function ownsMetadata(doc: MessageDocument, cell: Cell): boolean {
  return doc.cellsById.get(cell.id!)?.[0] === cell && !borrowsMetadata(doc, cell);
}

/** An id segment: letters, digits, `_` and `-`. */
export const SEGMENT = /^[A-Za-z0-9_-]+$/;
