import { describe, expect, it } from 'vitest';
import { check, checkRule, file } from '../helpers.js';
import { VALID_FILES } from '../llm-view/examples.js';

const ID = 'code-output-sequence';

const code = (id: string): string[] => [`# %% Run[^${id}]`, '', `[^${id}]: [code]`, '', '```python', 'print(2)', '```', ''];
const output = (id: string): string[] => [`# %%% [^${id}]`, '', `[^${id}]: [python]`, '', 'stdout> 2', ''];
const outputs = (...ids: string[]): string[] => ids.flatMap(output);

describe(ID, () => {
  for (const [what, text, fileName] of VALID_FILES) {
    it(`reports nothing on ${what}`, () => expect(checkRule(ID, text, { fileName })).toEqual([]));
  }

  it('accepts 1, 2, 3, with other cells between them and per code cell', () => {
    const text = file(...code('1'), ...output('1.1'), ...code('2'), ...output('2.1'), ...output('1.2'), ...output('2.2'), ...output('1.3'));
    expect(check(text)).toEqual([]);
  });

  it('reports an output that does not start at 1, at N', () => {
    const found = checkRule(ID, file(...code('1'), ...outputs('1.2')));
    expect(found.map((f) => f.text)).toEqual(['2']);
    expect(found[0]!.message).toContain('`1.1` is missing');
    expect(found[0]!.diagnostic.severity).toBe(1);
  });

  it('reports a gap once, naming the missing outputs', () => {
    const found = checkRule(ID, file(...code('1'), ...outputs('1.1', '1.4', '1.5')));
    expect(found.map((f) => [f.text, f.line])).toEqual([['4', 15]]);
    expect(found[0]!.message).toContain('`1.2` to `1.3` are missing');
  });

  it('reports outputs out of order', () => {
    const found = checkRule(ID, file(...code('1'), ...outputs('1.1', '1.3', '1.2')));
    expect(found.map((f) => f.text)).toEqual(['3', '2']);
    expect(found[1]!.message).toContain('comes after `1.3`');
  });

  it('names the highest-numbered output before, not the one just before', () => {
    const found = checkRule(ID, file(...code('1'), ...outputs('1.3', '1.1', '1.2')));
    expect(found.map((f) => f.text)).toEqual(['3', '1', '2']);
    expect(found[1]!.message).toContain('`1.1` comes after `1.3`');
    expect(found[2]!.message).toContain('`1.2` comes after `1.3`');
  });

  it('reports no order against an output whose kind is a guess (found by parse.fuzz, seed 1681308628)', () => {
    const guessed = ['# %%% [^1.2]', '', 'stdout> 3', ''];
    // It used to throw: the output before 1.1 was only a guess.
    expect(checkRule(ID, file(...code('1'), ...guessed, ...outputs('1.1')))).toEqual([]);
    // A guess takes its number for gaps, and a known output after a higher guess is not out of order.
    expect(checkRule(ID, file(...code('1'), ...outputs('1.1'), ...guessed.map((l) => l.replace('1.2', '1.3')), ...outputs('1.2')))).toEqual([]);
  });

  it('leaves a repeated N to duplicate-id', () => {
    const text = file(...code('1'), ...outputs('1.1', '1.1'));
    expect(checkRule(ID, text)).toEqual([]);
    // The second cell's own metadata line is not a "second line" for the first cell: only duplicate-id.
    expect(check(text).map((f) => f.ruleId)).toEqual(['duplicate-id']);
  });

  it('leaves outputs of a missing code cell to code-output-parent', () => {
    expect(checkRule(ID, file(...code('1'), ...outputs('9.2')))).toEqual([]);
  });
});
