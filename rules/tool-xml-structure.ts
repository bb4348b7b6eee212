import { defineSegmentRule } from '../server/engine/rule-kit.js';
import type { CellInput } from '../server/engine/cell-input.js';
import { Cell } from '../server/syntax/document.js';
import { sentAs, toolCallsOf, toolProblemsIn, type StructureProblemKind } from '../server/tool-calls/index.js';

/** A `<tool>` written inside a fenced code block of the cell (where it is code, not a call), and whether that fence closes. */
function fencedTool(input: CellInput, cell: Cell): { at: [number, number]; closed: boolean } | undefined {
  for (const f of cell.parse.fences) {
    const at = cell.text.slice(f.contentStart, f.contentEnd).search(/<tool[\s>]/);
    if (at !== -1) return { at: input.abs({ start: f.contentStart + at, end: f.contentStart + at + 5 }), closed: f.close !== undefined };
  }
  return undefined;
}

const ONLY_THREE = 'it holds only `<server_name>`, `<tool_name>` and `<arguments>`';

/** What a value of `type` holds, for a message that says it does not. */
function expected(type: string | undefined): string {
  switch (type) {
    case 'number':
      return 'a JSON number (`3`, `-1.5`, `2e10`)';
    case 'boolean':
      return '`true` or `false`';
    case 'null':
      return 'nothing (`<x type="null"/>`)';
    case 'array':
      return 'one child element per item, and no text';
    default:
      return 'child elements, and no text';
  }
}

/** The start of a value as written, on one line. */
function shown(v: string): string {
  const line = v.replace(/\s+/g, ' ');
  return line.length > 40 ? line.slice(0, 40) + '…' : line;
}

function message(kind: StructureProblemKind, name: string, type?: string, detail?: string): string {
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
    case 'type-unknown':
      return `Unknown type \`${detail}\` on \`<${name}>\`: a type is one of \`number\`, \`boolean\`, \`null\`, \`array\` or \`object\` (without one, the value is a string).`;
    case 'arguments-type':
      return `\`<arguments>\` takes only \`type="json"\` (the arguments as JSON text), not \`type="${detail}"\`.`;
    case 'json-with-elements':
      return '`<arguments type="json">` holds the arguments as JSON text (in CDATA), not elements: drop `type="json"` or write the JSON.';
    case 'type-mismatch': {
      const what = detail === undefined ? 'text' : detail === '' ? 'nothing' : `\`${shown(detail)}\``;
      return `\`<${name} type="${type}">\` holds ${what}: a value of type \`${type}\` is ${expected(type)}.`;
    }
    case 'number-inexact': {
      const sent = sentAs(detail ?? '');
      return `\`<${name} type="number">\` holds \`${shown(detail ?? '')}\`, which a double (JSON's number in JavaScript and the SDKs) does not hold: it would be sent as \`${shown(sent)}\`. Write it as a string (without \`type\`), or as a number a double holds.`;
    }
    case 'attribute-not-allowed':
      return `The attribute \`${detail}\` is not allowed on \`<${name}>\`: \`type\` is the only attribute of an argument.`;
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
  (input, context) => {
    const seg = input.segment;
    for (const p of toolProblemsIn(input, 'tool-xml-structure')) {
      context.report({
        at: input.abs(p),
        message: message(p.kind, p.name ?? '', p.type, p.detail),
        related: p.first
          ? [{ at: input.abs(p.first), message: `The first \`<${p.name}>\`` }]
          : p.declared
            ? [{ at: input.abs(p.declared), message: 'The type is declared here' }]
            : undefined,
      });
    }
    // A cell whose kind is a guess (its id fits no tool call, or it has no
    // metadata type) may be no tool call: its id or metadata is reported.
    if (!(seg instanceof Cell) || input.kind !== 'tool-call' || !input.kindKnown) return;
    const tools = toolCallsOf(seg);
    if (tools.length === 0) {
      const fenced = fencedTool(input, seg);
      // In a fence that never closes, the `<tool>` is code because of it: unclosed-fence reports it.
      if (fenced && !fenced.closed) return;
      context.report({
        at: fenced?.at ?? input.abs(seg.marker.idRef?.refSpan ?? seg.marker.span),
        message: fenced
          ? 'This `<tool>` is inside a fenced code block, where it is code, not a tool call: write the `<tool>` element outside the fence.'
          : 'A tool call cell holds exactly one `<tool>` element; this one has none.',
      });
      return;
    }
    for (let i = 1; i < tools.length; i++) {
      const t = tools[i]!.element;
      context.report({
        at: input.abs({ start: t.start, end: t.openTagEnd }),
        message: `A tool call cell holds exactly one \`<tool>\`; this is number ${i + 1}. Give each call its own cell (an agent reply may hold several).`,
        related: [{ at: input.abs({ start: tools[0]!.element.start, end: tools[0]!.element.openTagEnd }), message: 'The first `<tool>`' }],
      });
    }
  },
);
