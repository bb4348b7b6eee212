import { defineToolProblemRule } from '../server/engine/rule-kit.js';

export default defineToolProblemRule(
  {
    id: 'cdata-unterminated',
    group: 'tool-calls',
    severity: 'error',
    fixable: null,
    description: '`<![CDATA[` without its `]]>`.',
  },
  () => ({ message: '`<![CDATA[` has no `]]>` to end it.' }),
);
