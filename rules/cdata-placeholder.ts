import { defineSegmentRule } from '../server/engine/rule-kit.js';
import { toolProblemsIn } from '../server/tool-calls/index.js';

export default defineSegmentRule(
  {
    id: 'cdata-placeholder',
    group: 'tool-calls',
    severity: 'error',
    fixable: 'fix',
    description: 'The placeholder spellings `CDATA-START[` / `]CDATA-END` in a tool call.',
  },
  (seg, { report }) => {
    for (const p of toolProblemsIn(seg, 'cdata-placeholder')) {
      if (p.kind === 'pair') {
        report({
          at: seg.abs(p),
          message: 'The placeholder `CDATA-START[` … `]CDATA-END` is not XML: write `<![CDATA[` … `]]>`.',
          fix: p.fixable
            ? [
                { range: seg.abs(p), text: '<![CDATA[' },
                { range: seg.abs(p.close), text: ']]>' },
              ]
            : undefined,
          related: [{ at: seg.abs(p.close), message: 'The closing placeholder' }],
        });
      } else {
        report({
          at: seg.abs(p),
          message:
            p.kind === 'open'
              ? 'The placeholder `CDATA-START[` is not XML (and has no `]CDATA-END`): write `<![CDATA[` … `]]>`.'
              : 'The placeholder `]CDATA-END` is not XML (and has no `CDATA-START[`): CDATA ends with `]]>`.',
        });
      }
    }
  },
);
