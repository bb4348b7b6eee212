// Turns the problems found while reading tool elements into reports of one rule.

import type { RuleContext, TextEdit } from '../engine/types.js';
import { Cell, type Segment } from '../syntax/document.js';
import { isToolCellType, toolCells } from './graph.js';
import { toolCallsOf, type Edit, type ToolProblem, type ToolProblemRule } from './read.js';

export function absEdits(seg: Segment, edits: Edit[]): TextEdit[] {
  return edits.map((e) => ({ range: [seg.offset + e.start, seg.offset + e.end], text: e.text }));
}

/** Reports every problem of `rule` in the tool elements of tool call cells and agent replies. */
export function reportToolProblems(context: RuleContext, rule: ToolProblemRule, tags?: (1 | 2)[]): void {
  for (const cell of toolCells(context.doc)) reportToolProblemsIn(cell, context, rule, tags);
}

/**
 * The same for one segment (a segment check: cached with the cell's parse).
 * Not for a cell whose kind is a guess (Cell.kindKnown): it may be a tool
 * result, whose body is free text.
 */
export function reportToolProblemsIn(seg: Segment, context: RuleContext, rule: ToolProblemRule, tags?: (1 | 2)[]): void {
  if (!(seg instanceof Cell) || !isToolCellType(seg.cellType) || !seg.kindKnown) return;
  const infos = toolCallsOf(seg);
  for (let i = 0; i < infos.length; i++) {
    const problems = infos[i]!.problems;
    for (let k = 0; k < problems.length; k++) if (problems[k]!.rule === rule) report(seg, context, problems[k]!, tags);
  }
}

/**
 * Kept out of reportToolProblemsIn, which runs for every segment and tool
 * rule: a closure there that captured its locals would make V8 allocate a
 * context on every call, with nothing to report.
 */
function report(cell: Cell, context: RuleContext, p: ToolProblem, tags: (1 | 2)[] | undefined): void {
  context.report({
    at: [cell.offset + p.start, cell.offset + p.end],
    message: p.message,
    fix: p.fix ? absEdits(cell, p.fix) : undefined,
    suggestions: p.suggestion ? [{ desc: p.suggestion.desc, fix: absEdits(cell, p.suggestion.edits) }] : undefined,
    related: p.related?.map((r) => ({ at: [cell.offset + r.start, cell.offset + r.end] as [number, number], message: r.message })),
    tags,
  });
}
