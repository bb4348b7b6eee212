import { defineCellRule } from '../server/engine/rule-kit.js';
import { toolCallsOf } from '../server/tool-calls/index.js';

/** A metadata value for a tool name, or undefined when it cannot be written on a metadata line. */
function metadataValue(name: string, bare: boolean): string | undefined {
  if (/[\r\n]/.test(name)) return undefined;
  if (bare && /^[^\s"'[\]“”„‟]+$/.test(name)) return name;
  return `"${name.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

export default defineCellRule(
  {
    id: 'tool-name-mismatch',
    group: 'tool-calls',
    severity: 'error',
    fixable: 'fix',
    description: 'The metadata `name` of a tool call differs from the XML `<tool_name>`, or is missing.',
  },
  (cell, input, { report }) => {
    // Not a cell whose id fits no tool call (cell-id-syntax): it may be a result.
    if (input.kind !== 'tool-call' || !input.kindKnown) return;
    const m = input.metadata;
    if (!m || input.type !== 'tool') return;
    const tools = toolCallsOf(cell);
    const xmlName = tools.length === 1 ? tools[0]!.toolName : undefined;
    const attr = m.node.attributes.find((a) => a.key === 'name');
    if (!attr) {
      // A line that does not parse may hold the name in a form not read: metadata-syntax reports it.
      if (m.node.problems.length || !m.node.typeSpan) return;
      const typeAt = input.abs({ start: m.node.typeSpan.start - 1, end: m.node.typeSpan.end + 1 }, m.segment);
      const value = xmlName === undefined ? undefined : metadataValue(xmlName, false);
      report({
        at: typeAt,
        message: `The tool call has no \`name\` attribute${xmlName === undefined ? '' : `; its \`<tool_name>\` is \`${xmlName}\``}.`,
        fix: value ? { range: [typeAt[1], typeAt[1]], text: ` name=${value}` } : undefined,
      });
      return;
    }
    if (xmlName === undefined || attr.value === xmlName) return;
    const at = input.abs(attr.valueSpan, m.segment);
    const value = metadataValue(xmlName, !attr.quoted);
    report({
      at,
      message: `The metadata \`name\` is \`${attr.value}\` but the \`<tool_name>\` is \`${xmlName}\`.`,
      fix: value ? { range: at, text: value } : undefined,
      related: [{ at: input.abs(toolNameSpan(tools[0]!)), message: 'The tool name in the call' }],
    });
  },
);

function toolNameSpan(info: ReturnType<typeof toolCallsOf>[number]): { start: number; end: number } {
  const el = info.toolNameElement;
  if (el) return { start: el.start, end: el.end };
  if (info.legacy) return info.legacy.span;
  return { start: info.element.start, end: info.element.openTagEnd };
}
