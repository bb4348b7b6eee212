import { defineSegmentRule } from '../server/engine/rule-kit.js';
import { toolProblemsIn } from '../server/tool-calls/index.js';

export default defineSegmentRule(
  {
    id: 'cdata-unterminated',
    group: 'tool-calls',
    severity: 'error',
    fixable: null,
    description: '`<![CDATA[` without its `]]>`.',
  },
  (seg, { report }) => {
    for (const p of toolProblemsIn(seg, 'cdata-unterminated')) report({ at: seg.abs(p), message: '`<![CDATA[` has no `]]>` to end it.' });
  },
);
