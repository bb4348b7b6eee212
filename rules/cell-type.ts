import { closest, defineCellRule } from '../server/engine/rule-kit.js';
import { MESSAGE_TYPES } from '../server/syntax/document.js';

export default defineCellRule(
  {
    id: 'cell-type',
    group: 'structure',
    severity: 'error',
    fixable: 'suggestion',
    description: 'A message cell whose type is not `markdown`, `code` or `raw`.',
  },
  (cell, input, { report }) => {
    const m = input.metadata;
    if (cell.isOutput || !m || m.node.type === undefined || !input.ownsMetadata) return;
    const type = m.node.type;
    if (MESSAGE_TYPES.has(type)) return;
    // A line with a type has its span (asked for only here, to report).
    const at = input.abs(m.node.typeSpan!, m.segment);
    const best = closest(type, MESSAGE_TYPES);
    const agentHint = input.agentUsable(type) || type === 'tool' ? ' Replies, tool calls and outputs use an output cell (`%%%`).' : '';
    report({
      at,
      message: `A message cell (\`%%\`) has type markdown, code or raw, not \`${type}\`.${agentHint}`,
      suggestions: best ? [{ desc: `Change the type to \`${best}\``, fix: { range: at, text: best } }] : undefined,
    });
  },
);
