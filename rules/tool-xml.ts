import { defineSegmentRule } from '../server/engine/rule-kit.js';
import { reportToolProblemsIn } from '../server/tool-calls/index.js';

export default defineSegmentRule(
  {
    id: 'tool-xml',
    group: 'tool-calls',
    severity: 'error',
    fixable: 'suggestion',
    description: 'A `<tool>` element that is not well-formed XML.',
  },
  (seg, context) => reportToolProblemsIn(seg, context, 'tool-xml'),
);
