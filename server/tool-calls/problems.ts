// The problems found while reading the tool elements of a segment, for one
// rule at a time: the facts only; the rule in rules/ words them and makes
// their fixes.

import type { CellParse } from '../syntax/format/cell.js';
import { Cell, type CellKind, type Segment } from '../syntax/document.js';
import { Memo } from '../base/memo.js';
import { isToolCellType } from './graph.js';
import type { ToolProblem, ToolProblemRule } from './facts.js';
import { toolCallsOf } from './read.js';

const NONE: readonly never[] = []; // not frozen: see base/lists.ts
const NO_PROBLEMS: ReadonlyMap<ToolProblemRule, readonly ToolProblem[]> = new Map();

/** Per cell parse: its tool elements' problems grouped by rule, so that each of the seven rules finds its own at once. */
const byRule = new Memo<CellParse, ReadonlyMap<ToolProblemRule, readonly ToolProblem[]>>('parse');

/**
 * The problems for `rule` in the tool elements of a segment (tool call cells
 * and agent replies) of this kind, offsets relative to the cell. None for a cell whose
 * kind is a guess (MessageDocument.kindKnown): it may be a tool result, whose body is
 * free text.
 */
export function toolProblemsIn<R extends ToolProblemRule>(at: { segment: Segment; kind: CellKind | undefined; kindKnown: boolean }, rule: R): readonly Extract<ToolProblem, { rule: R }>[] {
  const seg = at.segment;
  if (!(seg instanceof Cell) || at.kind === undefined || !isToolCellType(at.kind) || !at.kindKnown) return NONE;
  const parse = seg.parse;
  if (!parse || parse.tools.length === 0) return NONE;
  let grouped = byRule.get(parse);
  if (!grouped) {
    let map: Map<ToolProblemRule, ToolProblem[]> | undefined;
    for (const info of toolCallsOf(seg)) {
      for (const p of info.problems) {
        const list = (map ??= new Map()).get(p.rule);
        if (list) list.push(p);
        else map.set(p.rule, [p]);
      }
    }
    // Most tool elements have no problem: one empty map for all, not a map (about 1 KB) kept per cell.
    grouped = map ?? NO_PROBLEMS;
    byRule.set(parse, grouped);
  }
  return (grouped.get(rule) ?? NONE) as readonly Extract<ToolProblem, { rule: R }>[];
}
