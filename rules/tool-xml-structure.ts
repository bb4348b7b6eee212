import { defineSegmentRule } from '../server/engine/rule-kit.js';
import { Cell } from '../server/syntax/document.js';
import { toolCallsOf, toolProblemsIn, type StructureProblemKind } from '../server/tool-calls/index.js';

/** A `<tool>` written inside a fenced code block of the cell (where it is code, not a call), and whether that fence closes. */
function fencedTool(cell: Cell): { at: [number, number]; closed: boolean } | undefined {
  for (const f of cell.p.fences) {
    const at = cell.text.slice(f.contentStart, f.contentEnd).search(/<tool[\s>]/);
    if (at !== -1) return { at: cell.abs({ start: f.contentStart + at, end: f.contentStart + at + 5 }), closed: f.close !== undefined };
  }
  return undefined;
}

const ONLY_THREE = 'it holds only `<server_name>`, `<tool_name>` and `<arguments>`';

function message(kind: StructureProblemKind, name: string): string {
  switch (kind) {
    case 'text-in-tool':
      return `Text directly inside \`<tool>\`: ${ONLY_THREE} (put reasoning outside the element).`;
    case 'not-allowed':
      return `\`<${name}>\` is not allowed in \`<tool>\`: ${ONLY_THREE}.`;
    case 'second':
      return `A second \`<${name}>\`: a tool call has at most one.`;
    case 'no-tool-name':
      return '`<tool>` has no `<tool_name>`.';
    case 'tool-name-elements':
      return '`<tool_name>` holds the tool name as text, not elements.';
    case 'tool-name-empty':
      return 'The `<tool_name>` is empty.';
    case 'server-name-elements':
      return '`<server_name>` holds the server name as text, not elements.';
    case 'server-name-empty':
      return 'The `<server_name>` is empty: leave it out for `local`.';
    case 'text-in-arguments':
      return 'Text directly inside `<arguments>`: each argument is an element, as in `<path>app.py</path>`.';
    case 'text-beside-elements':
      return `Text beside elements in \`<${name}>\`: an argument is either text or elements, not both.`;
  }
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
    for (const p of toolProblemsIn(seg, 'tool-xml-structure')) {
      context.report({
        at: seg.abs(p),
        message: message(p.kind, p.name ?? ''),
        related: p.first ? [{ at: seg.abs(p.first), message: `The first \`<${p.name}>\`` }] : undefined,
      });
    }
    // A cell whose kind is a guess (its id fits no tool call, or it has no
    // metadata type) may be no tool call: its id or metadata is reported.
    if (!(seg instanceof Cell) || seg.cellType !== 'tool-call' || !seg.kindKnown) return;
    const cell = seg;
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
  },
);
