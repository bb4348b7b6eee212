import { defineCellRule } from '../server/engine/rule-kit.js';

export default defineCellRule(
  {
    id: 'code-cell-block',
    group: 'structure',
    severity: 'warning',
    fixable: null,
    description: 'A `[code]` cell without a fenced code block, or whose first code block has no language.',
  },
  (cell, input, { report }) => {
    if (cell.isOutput || input.type !== 'code' || !input.ownsMetadata) return;
    const block = cell.codeBlock;
    if (!block) {
      const m = input.metadata!;
      report({ at: input.abs(m.node.typeSpan!, m.segment), message: 'A `[code]` cell holds its code in a fenced code block (```lang … ```), and this one has none.' });
    } else if (block.language === '') {
      const f = block.fence;
      report({
        at: input.abs({ start: f.open.start + f.indent, end: f.open.start + f.indent + f.length }),
        message: 'The code block of a `[code]` cell names its language after the fence (```python).',
      });
    }
  },
);
