// The problems found while reading the tool elements of a segment, for one
// rule at a time: the facts only; the rule in rules/ words them and makes
// their fixes.

import { Cell, type Segment } from '../syntax/document.js';
import { isToolCellType } from './graph.js';
import { toolCallsOf, type ToolProblem, type ToolProblemRule } from './read.js';

const NONE: readonly never[] = Object.freeze([]);

/**
 * The problems for `rule` in the tool elements of a segment (tool call cells
 * and agent replies), offsets relative to the cell. None for a cell whose
 * kind is a guess (Cell.kindKnown): it may be a tool result, whose body is
 * free text.
 */
export function toolProblemsIn<R extends ToolProblemRule>(seg: Segment, rule: R): readonly Extract<ToolProblem, { rule: R }>[] {
  if (!(seg instanceof Cell) || !isToolCellType(seg.cellType) || !seg.kindKnown) return NONE;
  const infos = toolCallsOf(seg);
  if (infos.length === 0) return NONE;
  const found: Extract<ToolProblem, { rule: R }>[] = [];
  for (const info of infos) {
    for (const p of info.problems) if (p.rule === rule) found.push(p as Extract<ToolProblem, { rule: R }>);
  }
  return found;
}
