import { defineToolProblemRule } from '../server/engine/rule-kit.js';

export default defineToolProblemRule(
  {
    id: 'cdata-placeholder',
    group: 'tool-calls',
    severity: 'error',
    fixable: 'fix',
    description: 'The placeholder spellings `CDATA-START[` / `]CDATA-END` in a tool call.',
  },
  (p, doc, seg) => {
    if (p.kind === 'pair') {
      return {
        message: 'The placeholder `CDATA-START[` … `]CDATA-END` is not XML: write `<![CDATA[` … `]]>`.',
        fix: p.fixable
          ? [
              { range: doc.abs(seg, p), text: '<![CDATA[' },
              { range: doc.abs(seg, p.close), text: ']]>' },
            ]
          : undefined,
        related: [{ at: doc.abs(seg, p.close), message: 'The closing placeholder' }],
      };
    }
    return {
      message:
        p.kind === 'open'
          ? 'The placeholder `CDATA-START[` is not XML (and has no `]CDATA-END`): write `<![CDATA[` … `]]>`.'
          : 'The placeholder `]CDATA-END` is not XML (and has no `CDATA-START[`): CDATA ends with `]]>`.',
    };
  },
);
