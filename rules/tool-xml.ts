import { defineRule } from '../server/engine/rule-kit.js';
import { reportToolProblems } from '../server/tool-calls/index.js';

export default defineRule(
  {
    id: 'tool-xml',
    group: 'tool-calls',
    severity: 'error',
    fixable: 'suggestion',
    description: 'A `<tool>` element that is not well-formed XML.',
  },
  (context) => reportToolProblems(context, 'tool-xml'),
);
