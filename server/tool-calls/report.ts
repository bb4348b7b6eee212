// Turns the problems found while reading tool elements into reports of one rule.

import type { RuleContext, TextEdit } from '../engine/types.js';
import { Cell, type Segment } from '../syntax/document.js';
import { isToolCellType, toolCells } from './graph.js';
import { toolCallsOf, type Edit, type ToolProblemRule } from './read.js';

export function absEdits(seg: Segment, edits: Edit[]): TextEdit[] {
  return edits.map((e) => ({ range: [seg.offset + e.start, seg.offset + e.end], text: e.text }));
}

/** Reports every problem of `rule` in the tool elements of tool call cells and agent replies. */
export function reportToolProblems(context: RuleContext, rule: ToolProblemRule, tags?: (1 | 2)[]): void {
  for (const cell of toolCells(context.doc)) reportToolProblemsIn(cell, context, rule, tags);
}

/** The same for one segment (a segment check: cached with the cell's parse). */
export function reportToolProblemsIn(seg: Segment, context: RuleContext, rule: ToolProblemRule, tags?: (1 | 2)[]): void {
  if (!(seg instanceof Cell) || !isToolCellType(seg.cellType)) return;
  const cell = seg;
  {
    for (let i = 0, list = toolCallsOf(cell); i < list.length; i++) {
      const info = list[i]!;
      for (let i = 0, list = info.problems; i < list.length; i++) {
        const p = list[i]!;
        if (p.rule !== rule) continue;
        context.report({
          at: [cell.offset + p.start, cell.offset + p.end],
          message: p.message,
          fix: p.fix ? absEdits(cell, p.fix) : undefined,
          suggestions: p.suggestion ? [{ desc: p.suggestion.desc, fix: absEdits(cell, p.suggestion.edits) }] : undefined,
          related: p.related?.map((r) => ({ at: [cell.offset + r.start, cell.offset + r.end] as [number, number], message: r.message })),
          tags,
        });
      }
    }
  }
}
