// empty-cell: a cell with no content besides its marker and metadata.
import { describe, expect, it } from 'vitest';
import { check, checkRule, file, fixText } from '../helpers.js';

const RULE = 'empty-cell';
const FM = ['---', 'agents:', '  coder:', '    models: [gpt-4o]', 'default_agent: coder', '---', ''];
const NEXT = ['# %% Next[^9]', '', '[^9]: [markdown]', '', 'More.'];

describe('empty-cell', () => {
  it('reports a cell with only its marker and metadata, at the marker line', () => {
    const t = file('# %% Question[^1]', '', '[^1]: [markdown]', '', ...NEXT);
    const found = check(t);
    expect(found.map((f) => [f.ruleId, f.line, f.column, f.text])).toEqual([[RULE, 1, 1, '# %% Question[^1]']]);
    expect(found[0]!.message).toBe('The cell `1` has no content.');
    expect(found[0]!.diagnostic.severity).toBe(1);
  });

  it('reports the last cell of the file, with or without a final line break', () => {
    expect(checkRule(RULE, file(...NEXT, '', '# %% [^1]', '', '[^1]: [markdown]')).map((f) => f.line)).toEqual([7]);
    expect(checkRule(RULE, '# %% [^1]\n\n[^1]: [markdown]').map((f) => f.line)).toEqual([1]);
  });

  it('counts blank lines and HTML comments as no content', () => {
    const t = file('# %% [^1]', '', '[^1]: [markdown]', '', '<!-- to do -->', '', '<!--', 'longer', '-->', '', ...NEXT);
    expect(checkRule(RULE, t).map((f) => f.line)).toEqual([1]);
  });

  it('reports a cell without id or metadata, without naming an id', () => {
    const t = file('# %%', '', ...NEXT);
    const found = checkRule(RULE, t);
    expect(found.map((f) => f.message)).toEqual(['The cell has no content.']);
  });

  it('accepts a cell with text, a code block or a footnote', () => {
    expect(check(file('# %% [^1]', '[^1]: [markdown]', 'x'))).toEqual([]);
    expect(check(file('# %% [^1]', '', '[^1]: [raw]', '', '```', '```'))).toEqual([]);
    expect(check(file('# %% [^1]', '', '[^1]: [markdown]', '', '[^n]: A footnote is content.'))).toEqual([]);
    expect(check(file('# %% [^1]', '', '[^1]: [markdown]', '', '[^n]: [RFC 9110] is content too.'))).toEqual([]);
    expect(check(file('# %% [^1]', '', '[^1]: [markdown]', '', '[^n]: [RFC] is content too.'))).toEqual([]);
  });

  it('accepts an empty tool result and an empty code output (they are data)', () => {
    const t = file(
      ...FM,
      '# %% Ask[^1]',
      '',
      '[^1]: [markdown]',
      '',
      'Touch the file.',
      '',
      '# %%% Reply[^2]',
      '',
      '[^2]: [coder]',
      '',
      'Touching it.',
      '',
      '## %%% Call[^2.k7f3q]',
      '',
      '[^2.k7f3q]: [tool] name="touch"',
      '',
      '<tool>',
      '<tool_name>touch</tool_name>',
      '<arguments><path>a.txt</path></arguments>',
      '</tool>',
      '',
      '## %%% Result[^2.k7f3q.1]',
      '',
      '[^2.k7f3q.1]: [tool] status="success"',
      '',
      '# %% Run[^3]',
      '',
      '[^3]: [code]',
      '',
      '```python',
      'x = 1',
      '```',
      '',
      '# %%% [^3.1]',
      '',
      '[^3.1]: [python] status="success"',
    );
    expect(check(t)).toEqual([]);
  });

  it('reports an empty agent reply', () => {
    const t = file(...FM, '# %% Ask[^1]', '', '[^1]: [markdown]', '', 'Hi.', '', '# %%% Reply[^2]', '', '[^2]: [coder]', '', ...NEXT);
    expect(checkRule(RULE, t).map((f) => [f.line, f.text])).toEqual([[14, '# %%% Reply[^2]']]);
  });

  describe('a reply that asks for tool calls', () => {
    const callCell = (id: string) => [`## %%% Call[^${id}]`, '', `[^${id}]: [tool] name="touch"`, '', '<tool>', '<tool_name>touch</tool_name>', '</tool>', ''];
    const resultCell = (id: string) => [`## %%% Result[^${id}]`, '', `[^${id}]: [tool] status="success"`, '', 'done', ''];
    const empty = (...after: string[]) => file(...FM, '# %% Ask[^1]', '', '[^1]: [markdown]', '', 'Hi.', '', '# %%% Reply[^2]', '', '[^2]: [coder] reasoning=1', '', ...after, ...NEXT);

    it('is not empty when tool call cells name it as PARENT: they are its content', () => {
      expect(checkRule(RULE, empty(...callCell('2.k7f3q'), ...resultCell('2.k7f3q.1')))).toEqual([]);
      expect(checkRule(RULE, empty(...callCell('2.k7f3q'), ...callCell('2.m4p9z'), ...resultCell('2.k7f3q.1'), ...resultCell('2.m4p9z.1')))).toEqual([]);
    });

    it('is empty when the calls name another reply', () => {
      const t = empty(...callCell('7.k7f3q'), ...resultCell('7.k7f3q.1'));
      expect(checkRule(RULE, t).map((f) => f.text)).toEqual(['# %%% Reply[^2]']);
    });

    it('follows edits elsewhere in the file: a call added, renamed or removed (incremental lint)', async () => {
      const { lint, lintDocument, parseForLint } = await import('../../server/linter.js');
      const texts = [empty(), empty(...callCell('2.k7f3q'), ...resultCell('2.k7f3q.1')), empty(...callCell('3.k7f3q'), ...resultCell('3.k7f3q.1')), empty()];
      let doc = parseForLint(texts[0]!, { fileName: 'a.msg.md' });
      lintDocument(doc);
      const found: number[] = [];
      for (const text of texts.slice(1)) {
        doc = parseForLint(text, { fileName: 'a.msg.md', previous: doc });
        const diagnostics = lintDocument(doc);
        expect(diagnostics).toEqual(lint(text, { fileName: 'a.msg.md' }).diagnostics);
        found.push(diagnostics.filter((d) => d.ruleId === RULE).length);
      }
      expect(found).toEqual([0, 1, 1]);
    });
  });

  it('has no fix', () => {
    const t = file('# %% [^1]', '', '[^1]: [markdown]');
    expect(checkRule(RULE, t)[0]!.diagnostic.fix).toBeUndefined();
    expect(fixText(t)).toBe(t);
  });

  it('reports in a CRLF file at the same place', () => {
    const t = file('# %% [^1]', '', '[^1]: [markdown]', '', ...NEXT).replace(/\n/g, '\r\n');
    expect(checkRule(RULE, t).map((f) => [f.line, f.column, f.text])).toEqual([[1, 1, '# %% [^1]']]);
  });

  describe('disable comments', () => {
    it('a comment in the cell does not count as content, and disable-next-line above the marker suppresses it', () => {
      const t = file(`<!-- msglint-disable-next-line ${RULE} -->`, '# %% Placeholder[^1]', '', '[^1]: [markdown]', '', ...NEXT);
      expect(check(t, { reportUnusedDisableDirectives: true })).toEqual([]);
    });

    it('disable-line inside the cell does not reach the marker line', () => {
      const t = file('# %% Placeholder[^1]', '', '[^1]: [markdown]', `<!-- msglint-disable-line ${RULE} -->`, '', ...NEXT);
      expect(check(t, { reportUnusedDisableDirectives: true }).map((f) => [f.ruleId, f.line])).toEqual([
        [RULE, 1],
        ['unused-disable', 4],
      ]);
    });
  });
});
