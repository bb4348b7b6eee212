import { defineRootRule } from '../server/engine/rule-kit.js';
import { borrowsMetadata } from '../server/syntax/document.js';

const rule = defineRootRule(
  {
    id: 'metadata-placement',
    group: 'structure',
    severity: 'warning',
    fixable: null,
    description: "A metadata line that is not the first non-blank line after its cell's marker.",
  },
  ({ doc, cells, report }) => {
    for (const cell of cells) {
      const m = doc.metadataOf(cell);
      // A later cell with a duplicated id is duplicate-id's finding, not a misplaced line.
      if (!m || doc.cellsById.get(cell.id!)?.[0] !== cell) continue;
      const p = cell.parse;
      if (m.segment === cell && p.placementStart >= 0 && p.placementStart === m.node.span.start) continue;
      // An HTML comment that never closes, above the line, would have been
      // skipped closed: unclosed-fence reports it.
      if (m.segment === cell && p.comments.some((c) => !c.closed && c.start < m.node.span.start)) continue;
      // The own line of another cell with the same id: duplicate-id reports the id.
      if (borrowsMetadata(doc, cell)) continue;
      report({
        at: doc.abs(m.segment, m.node.id.refSpan),
        message: `The metadata line of \`${cell.id}\` belongs right under its marker (line {{line}}), before any other content.`,
        related: [{ at: doc.abs(cell, cell.marker.span), message: 'The cell marker' }],
      });
    }
  },
);
export default rule;
