import { defineSegmentRule } from '../server/engine/rule-kit.js';
import { reportToolProblemsIn } from '../server/tool-calls/index.js';

export default defineSegmentRule(
  {
    id: 'legacy-json-tool-call',
    group: 'tool-calls',
    severity: 'warning',
    fixable: 'fix',
    description: 'A tool call in the deprecated JSON form.',
  },
  // Tag 2: Deprecated (editors strike the text through).
  (seg, context) => reportToolProblemsIn(seg, context, 'legacy-json-tool-call', [2]),
);
