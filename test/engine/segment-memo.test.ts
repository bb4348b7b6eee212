// A cell's segment findings are made once and reused while its input is the
// same: linting another document in between (an editor with two files open,
// the language server's warm-up) must not make them again.
import { describe, expect, it } from 'vitest';
import { createLinter } from '../../server/engine/linter.js';
import { defineSegmentRule } from '../../server/engine/rule-kit.js';
import { parseForLint } from '../../server/engine/lint.js';

const text = (agent: string, cells: number): string => {
  let out = `---\nagents:\n  ${agent}:\n    models: [m]\n---\n`;
  for (let i = 1; i <= cells; i++) out += `\n# %% Q${i}[^${i}]\n\n[^${i}]: [markdown]\n\nText ${i}.\n`;
  return out;
};

describe('segment findings kept with a cell', () => {
  it('are reused after another document with another environment is linted', () => {
    let checked = 0;
    const counting = defineSegmentRule({ id: 'counting', group: 'style', severity: 1, fixable: false, description: 'counts' } as never, () => {
      checked++;
    });
    const linter = createLinter([counting]);
    const config = { rules: { counting: 'warn' } } as never;
    let a = text('alpha', 20);
    let docA = parseForLint(a, { fileName: 'a.msg.md' });
    linter.lintDocument(docA, { config });
    const b = text('beta', 5);
    linter.lintDocument(parseForLint(b, { fileName: 'b.msg.md' }), { config });
    // One letter typed in the last cell of a: only that cell is checked again.
    const at = a.lastIndexOf('Text');
    a = a.slice(0, at) + 'x' + a.slice(at);
    docA = parseForLint(a, { fileName: 'a.msg.md', previous: docA, edit: { start: at, oldEnd: at, text: 'x' } });
    checked = 0;
    linter.lintDocument(docA, { config });
    expect(checked).toBe(1);
  });
});
