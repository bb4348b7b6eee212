import { defineCellRule, ownsMetadata } from '../server/engine/rule-kit.js';

export default defineCellRule(
  {
    id: 'code-cell-block',
    group: 'structure',
    severity: 'warning',
    fixable: null,
    description: 'A `[code]` cell without a fenced code block, or whose first code block has no language.',
  },
  (cell, { doc, report }) => {
    if (cell.isOutput || doc.typeOf(cell) !== 'code' || !ownsMetadata(doc, cell)) return;
    const block = cell.codeBlock;
    if (!block) {
      const m = doc.metadataOf(cell)!;
      report({ at: doc.abs(m.segment, m.node.typeSpan!), message: 'A `[code]` cell holds its code in a fenced code block (```lang … ```), and this one has none.' });
    } else if (block.language === '') {
      const f = block.fence;
      report({
        at: doc.abs(cell, { start: f.open.start + f.indent, end: f.open.start + f.indent + f.length }),
        message: 'The code block of a `[code]` cell names its language after the fence (```python).',
      });
    }
  },
);
