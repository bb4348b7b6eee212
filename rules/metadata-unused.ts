import { isMetadataLine } from '../server/syntax/metadata.js';
import { defineRule } from '../server/engine/rule-kit.js';

export default defineRule(
  {
    id: 'metadata-unused',
    group: 'structure',
    severity: 'warning',
    fixable: null,
    description: 'A metadata line that no cell references and that is not a temporary agent.',
  },
  ({ doc, report }) => {
    for (let i = 0, list = doc.metadata; i < list.length; i++) {
      const m = list[i]!;
      // `[^n]: text` is an ordinary Markdown footnote, not metadata.
      if (!isMetadataLine(doc, m)) continue;
      const id = m.node.id.id;
      const cells = doc.cellsById.get(id);
      if (!cells) {
        if (m.node.type === 'agent') continue;
        report({ at: m.segment.abs(m.node.id.refSpan), message: `No cell uses the id \`${id}\`: this metadata line has no effect.`, tags: [1] });
      } else if (cells[0]!.metadata !== m) {
        const first = cells[0]!.metadata!;
        report({
          at: m.segment.abs(m.node.id.refSpan),
          message: `A second metadata line for \`${id}\`; only the first one counts.`,
          tags: [1],
          related: [{ at: first.segment.abs(first.node.id.refSpan), message: 'The metadata line that counts' }],
        });
      }
    }
  },
);
