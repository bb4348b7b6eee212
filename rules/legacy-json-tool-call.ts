import { defineRule } from '../server/engine/rule-kit.js';
import { reportToolProblems } from '../server/tool-calls/index.js';

export default defineRule(
  {
    id: 'legacy-json-tool-call',
    group: 'tool-calls',
    severity: 'warning',
    fixable: 'fix',
    description: 'A tool call in the deprecated JSON form.',
  },
  // Tag 2: Deprecated (editors strike the text through).
  (context) => reportToolProblems(context, 'legacy-json-tool-call', [2]),
);
