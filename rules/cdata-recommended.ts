import { defineSegmentRule } from '../server/engine/rule-kit.js';
import { reportToolProblemsIn } from '../server/tool-calls/index.js';

export default defineSegmentRule(
  {
    id: 'cdata-recommended',
    group: 'tool-calls',
    severity: 'warning',
    fixable: 'fix',
    description: 'A plain-text argument with several lines not in CDATA.',
  },
  (seg, context) => reportToolProblemsIn(seg, context, 'cdata-recommended'),
);
