import { defineSegmentRule } from '../server/engine/rule-kit.js';
import { reportToolProblemsIn } from '../server/tool-calls/index.js';

export default defineSegmentRule(
  {
    id: 'cdata-unterminated',
    group: 'tool-calls',
    severity: 'error',
    fixable: null,
    description: '`<![CDATA[` without its `]]>`.',
  },
  (seg, context) => reportToolProblemsIn(seg, context, 'cdata-unterminated'),
);
