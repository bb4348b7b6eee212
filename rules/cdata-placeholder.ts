import { defineToolProblemRule } from '../server/engine/rule-kit.js';

export default defineToolProblemRule(
  {
    id: 'cdata-placeholder',
    group: 'tool-calls',
    severity: 'error',
    fixable: 'fix',
    description: 'The placeholder spellings `CDATA-START[` / `]CDATA-END` in a tool call.',
  },
  (p, input) => {
    if (p.kind === 'pair') {
      return {
        message: 'The placeholder `CDATA-START[` … `]CDATA-END` is not XML: write `<![CDATA[` … `]]>`.',
        fix: p.fixable
          ? [
              { range: input.abs(p), text: '<![CDATA[' },
              { range: input.abs(p.close), text: ']]>' },
            ]
          : undefined,
        related: [{ at: input.abs(p.close), message: 'The closing placeholder' }],
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
