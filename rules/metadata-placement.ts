import { defineCellRule } from '../server/engine/rule-kit.js';

export default defineCellRule(
  {
    id: 'metadata-placement',
    group: 'structure',
    severity: 'warning',
    fixable: null,
    description: "A metadata line that is not the first non-blank line after its cell's marker.",
  },
  (cell, input, { report }) => {
    const m = input.metadata;
    if (!m || !input.ownsMetadata) return;
    const p = cell.parse;
    if (m.segment === cell && p.placementStart >= 0 && p.placementStart === m.node.span.start) return;
    // An HTML comment that never closes, above the line, would have been
    // skipped closed: unclosed-fence reports it.
    if (m.segment === cell && p.comments.some((c) => !c.closed && c.start < m.node.span.start)) return;
    report({
      at: input.abs(m.node.id.refSpan, m.segment),
      message: `The metadata line of \`${cell.id}\` belongs right under its marker (line {{line}}), before any other content.`,
      related: [{ at: input.abs(cell.marker.span), message: 'The cell marker' }],
    });
  },
);
