import { defineSegmentRule } from '../server/engine/rule-kit.js';
import { reportToolProblemsIn } from '../server/tool-calls/index.js';

export default defineSegmentRule(
  {
    id: 'cdata-placeholder',
    group: 'tool-calls',
    severity: 'error',
    fixable: 'fix',
    description: 'The placeholder spellings `CDATA-START[` / `]CDATA-END` in a tool call.',
  },
  (seg, context) => reportToolProblemsIn(seg, context, 'cdata-placeholder'),
);
