import { defineSegmentRule } from '../server/engine/rule-kit.js';
import { Cell } from '../server/syntax/document.js';
import { reportToolProblemsIn, toolCallsOf } from '../server/tool-calls/index.js';

/** A `<tool>` written inside a fenced code block of the cell (where it is code, not a call). */
function fencedTool(cell: Cell): [number, number] | undefined {
  for (let i = 0, list = cell.p.fences; i < list.length; i++) {
    const f = list[i]!;
    const at = cell.text.slice(f.contentStart, f.contentEnd).search(/<tool[\s>]/);
    if (at !== -1) return cell.abs({ start: f.contentStart + at, end: f.contentStart + at + 5 });
  }
  return undefined;
}

export default defineSegmentRule(
  {
    id: 'tool-xml-structure',
    group: 'tool-calls',
    severity: 'error',
    fixable: null,
    description: 'Well-formed XML of the wrong shape, or not exactly one `<tool>` in a tool call cell.',
  },
  (seg, context) => {
    reportToolProblemsIn(seg, context, 'tool-xml-structure');
    if (!(seg instanceof Cell) || seg.cellType !== 'tool-call') return;
    const cell = seg;
    {
      const tools = toolCallsOf(cell);
      if (tools.length === 0) {
        const fenced = fencedTool(cell);
        context.report({
          at: fenced ?? cell.abs(cell.marker.idRef?.refSpan ?? cell.marker.span),
          message: fenced
            ? 'This `<tool>` is inside a fenced code block, where it is code, not a tool call: write the `<tool>` element outside the fence.'
            : 'A tool call cell holds exactly one `<tool>` element; this one has none.',
        });
        return;
      }
      for (let i = 1; i < tools.length; i++) {
        const t = tools[i]!.element;
        context.report({
          at: cell.abs({ start: t.start, end: t.openTagEnd }),
          message: `A tool call cell holds exactly one \`<tool>\`; this is number ${i + 1}. Give each call its own cell (an agent reply may hold several).`,
          related: [{ at: cell.abs({ start: tools[0]!.element.start, end: tools[0]!.element.openTagEnd }), message: 'The first `<tool>`' }],
        });
      }
    }
  },
);
