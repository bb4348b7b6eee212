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
  (seg, { doc, report }) => {
    for (const p of toolProblemsIn(doc, seg, 'cdata-unterminated')) report({ at: doc.abs(seg, p), message: '`<![CDATA[` has no `]]>` to end it.' });
  },
);
