// Findings of segment checks are cached with each cell's parse; after any
// edit, linting the incrementally parsed document must equal linting the
// same text from scratch.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lint, lintDocument, parseForLint } from '../../server/linter.js';
import { build, CELLS, edit, insert } from '../cascades/conversation.js';

const read = (p: string) => readFileSync(fileURLToPath(new URL(p, import.meta.url)), 'utf8');
const base = read('../../examples/coding-session.msg.md') + '\n' + read('../fixtures/showcase.msg.md').replace(/^---[\s\S]*?---\n/, '');

const pieces = ['```\n', '~~~~\n', '<!--', '-->', '<![CDATA[', ']]>', '<tool>', '</tool>', '# %% [^9]\n', '# %%% [^2.abcd]\n', '\n', 'x', '.x', '[^1]: [markdown]\n', 'history=exclude ', '[^gpt]: [agent] models="a"\n', '[^7]: [coder]\n', '"', '=', '[', ']'];

describe('incremental lint', () => {
  it('equals a fresh lint after every edit', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            at: fc.double({ min: 0, max: 1, noNaN: true }),
            del: fc.integer({ min: 0, max: 30 }),
            ins: fc.array(fc.constantFrom(...pieces), { maxLength: 3 }).map((a) => a.join('')),
          }),
          { minLength: 1, maxLength: 6 },
        ),
        (edits) => {
          let text = base;
          let doc = parseForLint(text, { fileName: 'a.msg.md' });
          lintDocument(doc, { reportUnusedDisableDirectives: true });
          for (const e of edits) {
            const at = Math.floor(e.at * text.length);
            text = text.slice(0, at) + e.ins + text.slice(Math.min(text.length, at + e.del));
            doc = parseForLint(text, { fileName: 'a.msg.md', previous: doc });
            const incremental = lintDocument(doc, { reportUnusedDisableDirectives: true });
            const fresh = lint(text, { fileName: 'a.msg.md', reportUnusedDisableDirectives: true }).diagnostics;
            expect(incremental).toEqual(fresh);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('incremental lint, chosen cases', () => {
  const steps = (texts: string[]) => {
    let doc = parseForLint(texts[0]!, { fileName: 'a.msg.md' });
    lintDocument(doc);
    for (const text of texts.slice(1)) {
      doc = parseForLint(text, { fileName: 'a.msg.md', previous: doc });
      expect(lintDocument(doc)).toEqual(lint(text, { fileName: 'a.msg.md' }).diagnostics);
    }
  };
  const cells = (extra: string) =>
    `# %% A[^1]\n\n[^1]: [markdown]\n\nText.\n\n[^9]: [markdown] history=bogus\n\n# %% B[^2]\n\n[^2]: [markdown]\n\n${extra}\n`;

  it('a footnote that becomes an ordinary footnote when another cell cites it', () => {
    steps([cells('Plain.'), cells('See [^9].'), cells('Plain.')]);
  });
  it('a metadata line that a new cell starts to use', () => {
    steps([cells('Plain.'), cells('Plain.') + '\n# %% C[^9]\n\nUses it.\n', cells('Plain.')]);
  });
  it('a misplaced metadata line that moves when text between grows', () => {
    const t = (pad: string) => `# %% A[^1]\n\n[^1]: [markdown]\n\nText.\n\n# %% B[^2]\n\nBody first.\n\n# %% C[^3]\n\n[^3]: [markdown]\n\n${pad}[^2]: [code] history=summary\n`;
    steps([t(''), t('More text.\nAnd more.\n'), t('x')]);
  });
  it('a temporary agent declared before a reply, then removed', () => {
    const t = (decl: string) => `${decl}# %% Q[^1]\n\n[^1]: [markdown]\n\nHi.\n\n# %%% R[^2]\n\n[^2]: [gpt] reasoning=1\n\nHello.\n`;
    steps([t('[^gpt]: [agent] models="gpt-4o"\n\n'), t(''), t('[^gpt]: [agent] models="gpt-4o"\n\n')]);
  });

  // The findings a root cause keeps quiet (test/cascades/) come back when it
  // is fixed, and stay quiet while prose elsewhere is typed.
  const typed = (t: string) => t.replace('Reading.', 'Reading it.');
  it('a result id that stops and starts fitting, with prose typed in between', () => {
    const bad = build({ result: edit('result', '2.k7f3q.1', '2.k7f3q.1.1') });
    steps([build(), bad, typed(bad), build()]);
  });
  it('a call id that stops fitting: its result and its call', () => {
    const bad = build({ call: edit('call', '2.k7f3q', '2.k7f3q.x.y') });
    steps([build(), bad, typed(bad), build()]);
  });
  it('a frontmatter broken and mended', () => {
    const bad = build({}, ['---', 'agents:', '  coder:', '    models: [gpt-4o', '---', '']);
    steps([build(), bad, typed(bad), build()]);
  });
  it('a code cell that loses its metadata line', () => {
    const bad = build({ code: CELLS.code.filter((l) => !l.startsWith('[^')) });
    steps([build(), bad, typed(bad), build()]);
  });
  it('a fence that never closes above a metadata line, then closed', () => {
    const bad = build({ call: insert('call', 1, '~~~~') });
    steps([build(), bad, typed(bad), build({ call: insert('call', 1, '~~~~', '~~~~') })]);
  });
});
