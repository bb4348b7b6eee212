import { defineSegmentRule } from '../server/engine/rule-kit.js';
import { Cell } from '../server/syntax/document.js';
import { reportToolProblemsIn, toolCallsOf } from '../server/tool-calls/index.js';

/** A `<tool>` written inside a fenced code block of the cell (where it is code, not a call), and whether that fence closes. */
function fencedTool(cell: Cell): { at: [number, number]; closed: boolean } | undefined {
  for (let i = 0, list = cell.p.fences; i < list.length; i++) {
    const f = list[i]!;
    const at = cell.text.slice(f.contentStart, f.contentEnd).search(/<tool[\s>]/);
    if (at !== -1) return { at: cell.abs({ start: f.contentStart + at, end: f.contentStart + at + 5 }), closed: f.close !== undefined };
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
    // A cell whose kind is a guess (its id fits no tool call, or it has no
    // metadata type) may be no tool call: its id or metadata is reported.
    if (!(seg instanceof Cell) || seg.cellType !== 'tool-call' || !seg.kindKnown) return;
    const cell = seg;
    {
      const tools = toolCallsOf(cell);
      if (tools.length === 0) {
        const fenced = fencedTool(cell);
        // In a fence that never closes, the `<tool>` is code because of it: unclosed-fence reports it.
        if (fenced && !fenced.closed) return;
        context.report({
          at: fenced?.at ?? cell.abs(cell.marker.idRef?.refSpan ?? cell.marker.span),
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
