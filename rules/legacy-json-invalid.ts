import { defineSegmentRule } from '../server/engine/rule-kit.js';
import { reportToolProblemsIn } from '../server/tool-calls/index.js';

export default defineSegmentRule(
  {
    id: 'legacy-json-invalid',
    group: 'tool-calls',
    severity: 'error',
    fixable: null,
    description: 'A `<tool>` whose body starts with `{` but is not a valid JSON object of the legacy shape.',
  },
  (seg, context) => reportToolProblemsIn(seg, context, 'legacy-json-invalid'),
);
