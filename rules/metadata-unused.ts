import { isMetadataLine, Cell, type MetadataEntry } from '../server/syntax/document.js';
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
    // The lines that count for some cell (every cell of an id counts the
    // id's first line): nearly all lines, and nothing to say about them.
    const counted = new Set<MetadataEntry>();
    for (let i = 0; i < doc.cellCount; i++) {
      const m = doc.metadataAt(i);
      if (m) counted.add(m);
    }
    for (const m of doc.metadata) {
      if (counted.has(m)) continue;
      // `[^n]: text` is an ordinary Markdown footnote, not metadata.
      if (!isMetadataLine(doc, m)) continue;
      const id = m.node.idText;
      const cells = doc.cellsById.get(id);
      const own = m.segment instanceof Cell ? m.segment : undefined;
      if (!cells) {
        if (m.node.type === 'agent') continue;
        // The line under the marker of a cell without an id: the reference
        // is what is missing (cell-id-missing reports it and adds it).
        if (own && !own.marker.idRef && own.parse.placementStart === m.node.span.start) continue;
        report({ at: doc.abs(m.segment, m.node.id.refSpan), message: `No cell uses the id \`${id}\`: this metadata line has no effect.`, tags: [1] });
      } else if (doc.metadataOf(cells[0]!) !== m && !(own && own.id === id && own !== cells[0])) {
        // (The own line of a later cell with the same id is not a second
        // line for one cell: the id is used twice, which duplicate-id reports.)
        const first = doc.metadataOf(cells[0]!)!;
        report({
          at: doc.abs(m.segment, m.node.id.refSpan),
          message: `A second metadata line for \`${id}\`; only the first one counts.`,
          tags: [1],
          related: [{ at: doc.abs(first.segment, first.node.id.refSpan), message: 'The metadata line that counts' }],
        });
      }
    }
  },
);
