import { describe, expect, it } from 'vitest';
import { check, checkRule, file } from '../helpers.js';
import { VALID_FILES } from '../llm-view/examples.js';

const ID = 'code-output-parent';

const code = (id: string): string[] => [`# %% Run[^${id}]`, '', `[^${id}]: [code]`, '', '```python', 'print(2)', '```', ''];
const output = (id: string, type = 'python'): string[] => [`# %%% [^${id}]`, '', `[^${id}]: [${type}] status="success"`, '', 'stdout> 2', ''];

describe(ID, () => {
  for (const [what, text, fileName] of VALID_FILES) {
    it(`reports nothing on ${what}`, () => expect(checkRule(ID, text, { fileName })).toEqual([]));
  }

  it('accepts an output of an earlier code cell', () => {
    expect(check(file(...code('1'), ...output('1.1'), ...output('1.2')))).toEqual([]);
  });

  it('reports an output whose code cell does not exist, at CODE', () => {
    const found = checkRule(ID, file(...code('1'), ...output('7.1')));
    expect(found.map((f) => f.text)).toEqual(['7']);
    expect(found[0]!.message).toContain('no cell `7`');
    expect(found[0]!.diagnostic.severity).toBe(2);
  });

  it('reports an output of a markdown cell', () => {
    const found = checkRule(ID, file('# %% Hi[^1]', '', '[^1]: [markdown]', '', 'Hello.', '', ...output('1.1')));
    expect(found.map((f) => [f.text, f.line])).toEqual([['1', 7]]);
    expect(found[0]!.message).toContain('`[markdown]` cell');
    expect(found[0]!.diagnostic.related?.[0]!.range.start.line).toBe(0);
  });

  it('reports an output whose code cell comes later', () => {
    const found = checkRule(ID, file(...output('1.1'), ...code('1')));
    expect(found.map((f) => f.text)).toEqual(['1']);
    expect(found[0]!.message).toContain('comes after its output');
  });

  it('reports an output of an output cell', () => {
    const text = file('---', 'agents:', '  coder:', '    models: [gpt-4o]', '---', '', '# %%% Answer[^2]', '', '[^2]: [coder]', '', 'Done.', '', ...output('2.1'));
    expect(checkRule(ID, text).map((f) => f.text)).toEqual(['2']);
  });

  it('leaves an X.N cell without metadata to metadata-missing', () => {
    const text = file(...code('1'), '# %%% [^5.1]', '', 'stdout> 2');
    expect(checkRule(ID, text)).toEqual([]);
    expect(check(text).map((f) => f.ruleId)).toContain('metadata-missing');
  });

  it('does not check tool calls and results', () => {
    const text = file('# %% Q[^1]', '', '[^1]: [markdown]', '', 'Hi', '', '# %%% [^1.1]', '', '[^1.1]: [tool] status="success"', '', 'ok');
    expect(checkRule(ID, text)).toEqual([]);
  });
});
