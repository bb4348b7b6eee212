import { defineRule } from '../server/engine/rule-kit.js';
import { reportToolProblems } from '../server/tool-calls/index.js';

export default defineRule(
  {
    id: 'cdata-placeholder',
    group: 'tool-calls',
    severity: 'error',
    fixable: 'fix',
    description: 'The placeholder spellings `CDATA-START[` / `]CDATA-END` in a tool call.',
  },
  (context) => reportToolProblems(context, 'cdata-placeholder'),
);
