import { defineRule } from '../server/engine/rule-kit.js';
import { reportToolProblems } from '../server/tool-calls/index.js';

export default defineRule(
  {
    id: 'cdata-recommended',
    group: 'tool-calls',
    severity: 'warning',
    fixable: 'fix',
    description: 'A plain-text argument with several lines not in CDATA.',
  },
  (context) => reportToolProblems(context, 'cdata-recommended'),
);
