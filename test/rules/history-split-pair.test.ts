import { describe, expect, it } from 'vitest';
import { check, checkRule, file } from '../helpers.js';
import { VALID_FILES } from '../llm-view/examples.js';

const ID = 'history-split-pair';

const conversation = (callAttrs: string, ...resultAttrs: string[]): string =>
  file(
    '---',
    'agents:',
    '  coder:',
    '    models: [gpt-4o]',
    '---',
    '',
    '# %% Question[^1]',
    '',
    '[^1]: [markdown]',
    '',
    'What does app.py do?',
    '',
    '# %%% Plan[^2]',
    '',
    '[^2]: [coder]',
    '',
    'I will read it.',
    '',
    '## %%% Call[^2.k7f3q]',
    '',
    `[^2.k7f3q]: [tool] name="read_file"${callAttrs}`,
    '',
    '<tool>',
    '<tool_name>read_file</tool_name>',
    '<arguments>',
    '  <path>app.py</path>',
    '</arguments>',
    '</tool>',
    ...resultAttrs.flatMap((attrs, i) => ['', `## %%% Result[^2.k7f3q.${i + 1}]`, '', `[^2.k7f3q.${i + 1}]: [tool] status="success"${attrs}`, '', `part ${i + 1}`]),
  );

describe(ID, () => {
  for (const [what, text, fileName] of VALID_FILES) {
    it(`reports nothing on ${what}`, () => expect(checkRule(ID, text, { fileName })).toEqual([]));
  }

  it('accepts a pair included, left out, or summarized together', () => {
    expect(check(conversation('', ''))).toEqual([]);
    expect(check(conversation(' history=exclude', ' history=exclude', ' history=none'))).toEqual([]);
    expect(check(conversation(' history=0', ' history=false'))).toEqual([]);
    expect(check(conversation(' history=summary summary="read app.py"', ''))).toEqual([]);
    expect(check(conversation('', ' history=summary summary="the file"'))).toEqual([]);
    expect(check(conversation(' history=include', ' history=1', ' history=true'))).toEqual([]);
  });

  it('reports a result left out of the view at its history attribute', () => {
    const f = check(conversation('', ' history=exclude'));
    expect(f.map((x) => [x.ruleId, x.text, x.line])).toEqual([[ID, 'history=exclude', 32]]);
    expect(f[0]!.message).toContain('left out of the LLM view');
    expect(f[0]!.diagnostic.related?.[0]!.range.start.line).toBe(18);
  });

  it('reports a call left out while its results are in, once, at the call', () => {
    const f = checkRule(ID, conversation(' history=exclude', '', ''));
    expect(f.map((x) => [x.text, x.line])).toEqual([['history=exclude', 21]]);
    expect(f[0]!.message).toContain('`2.k7f3q.1`, `2.k7f3q.2` are in it');
    expect(f[0]!.diagnostic.related).toHaveLength(2);
  });

  it('reports explicit settings on results and defaults on the call', () => {
    const f = checkRule(ID, conversation(' history=exclude', ' history=include', ''));
    expect(f.map((x) => [x.text, x.line])).toEqual([
      ['history=exclude', 21],
      ['history=include', 32],
    ]);
  });

  it('treats an invalid history value as the default, include', () => {
    const text = conversation('', ' history=excluded');
    expect(checkRule(ID, text)).toEqual([]);
    expect(check(text).map((x) => x.ruleId)).toEqual(['history-value']);
  });

  it('ignores results without a call', () => {
    expect(checkRule(ID, file('# %% Q[^1]', '', '[^1]: [markdown]', '', 'Hi.', '', '# %%% [^1.abcd.1]', '', '[^1.abcd.1]: [tool] history=exclude', '', 'x'))).toEqual([]);
  });
});
