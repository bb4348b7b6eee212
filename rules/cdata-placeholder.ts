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
  (seg, { doc, report }) => {
    for (const p of toolProblemsIn(doc, seg, 'cdata-placeholder')) {
      if (p.kind === 'pair') {
        report({
          at: doc.abs(seg, p),
          message: 'The placeholder `CDATA-START[` … `]CDATA-END` is not XML: write `<![CDATA[` … `]]>`.',
          fix: p.fixable
            ? [
                { range: doc.abs(seg, p), text: '<![CDATA[' },
                { range: doc.abs(seg, p.close), text: ']]>' },
              ]
            : undefined,
          related: [{ at: doc.abs(seg, p.close), message: 'The closing placeholder' }],
        });
      } else {
        report({
          at: doc.abs(seg, p),
          message:
            p.kind === 'open'
              ? 'The placeholder `CDATA-START[` is not XML (and has no `]CDATA-END`): write `<![CDATA[` … `]]>`.'
              : 'The placeholder `]CDATA-END` is not XML (and has no `CDATA-START[`): CDATA ends with `]]>`.',
        });
      }
    }
  },
);
