import { defineRule } from '../server/engine/rule-kit.js';
import { reportToolProblems } from '../server/tool-calls/index.js';

export default defineRule(
  {
    id: 'legacy-json-invalid',
    group: 'tool-calls',
    severity: 'error',
    fixable: null,
    description: 'A `<tool>` whose body starts with `{` but is not a valid JSON object of the legacy shape.',
  },
  (context) => reportToolProblems(context, 'legacy-json-invalid'),
);
