import { Cell, isMetadataLine } from '../server/syntax/document.js';
import { defineSegmentRule } from '../server/engine/rule-kit.js';

export default defineSegmentRule(
  {
    id: 'empty-cell',
    group: 'structure',
    severity: 'warning',
    fixable: null,
    description: 'A cell with no content besides its marker and metadata.',
  },
  (seg, { doc, report }) => {
    if (!(seg instanceof Cell)) return;
    const cell = seg;
    // An empty tool result or a run that printed nothing is data, not an
    // omission; a cell whose kind is a guess may be one (its id or metadata
    // is reported).
    if (cell.cellType === 'tool-result' || cell.cellType === 'code-output' || !cell.kindKnown) return;
    if (cell.p.contentLineCount > 0) return;
    // An ordinary footnote that starts with a bracketed word (`[^n]: [RFC 9110] …`)
    // is parsed as a metadata line, but it is content.
    const metadata = cell.p.metadata;
    for (const node of metadata) {
      if (node.type !== undefined && !isMetadataLine(doc, { segment: cell, node })) return;
    }
    report({ at: cell.abs(cell.marker.span), message: `The cell${cell.id ? ` \`${cell.id}\`` : ''} has no content.` });
  },
);
