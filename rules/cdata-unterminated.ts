import { defineRule } from '../server/engine/rule-kit.js';
import { reportToolProblems } from '../server/tool-calls/index.js';

export default defineRule(
  {
    id: 'cdata-unterminated',
    group: 'tool-calls',
    severity: 'error',
    fixable: null,
    description: '`<![CDATA[` without its `]]>`.',
  },
  (context) => reportToolProblems(context, 'cdata-unterminated'),
);
