// code-cell-block: a [code] cell holds its code in a fenced block with a language (spec section 6).
import { describe, expect, it } from 'vitest';
import { check, checkRule, file, fixText } from '../helpers.js';

const RULE = 'code-cell-block';
const code = (...body: string[]) => file('# %% Check[^1]', '', '[^1]: [code]', '', ...body);

describe('code-cell-block', () => {
  describe('valid code cells', () => {
    it('accepts a fenced block with a language', () => {
      expect(check(code('```python', 'print(1 + 1)', '```'))).toEqual([]);
    });

    it('accepts tildes, longer fences, an indent and attributes after the language', () => {
      expect(check(code('~~~ bash', 'ls', '~~~'))).toEqual([]);
      expect(check(code('````js title="a.js"', 'console.log(1)', '````'))).toEqual([]);
      expect(check(code('   ```r', 'x <- 1', '   ```'))).toEqual([]);
    });

    it('accepts reasoning text around the block and later blocks without a language', () => {
      expect(check(code('Check the sum first:', '', '```python', 'print(2)', '```', '', 'Expected output:', '', '```', '2', '```'))).toEqual([]);
    });
  });

  it('reports a code cell without a fenced block at its type', () => {
    const t = code('print(1 + 1)');
    const found = check(t);
    expect(found.map((f) => [f.ruleId, f.line, f.column, f.text])).toEqual([[RULE, 3, 8, 'code']]);
    expect(found[0]!.message).toBe('A `[code]` cell holds its code in a fenced code block (```lang … ```), and this one has none.');
    expect(found[0]!.diagnostic.severity).toBe(1);
  });

  it('does not count an indented code block or a fence inside a comment', () => {
    expect(checkRule(RULE, code('    print(1)'))).toHaveLength(1);
    expect(checkRule(RULE, code('<!--', '```python', 'x', '```', '-->'))).toHaveLength(1);
  });

  it('reports a first block without a language at its opening fence', () => {
    const t = code('Run this:', '', '```', 'print(1)', '```', '', '```python', 'print(2)', '```');
    const found = check(t);
    expect(found.map((f) => [f.ruleId, f.line, f.column, f.text])).toEqual([[RULE, 7, 1, '```']]);
    expect(found[0]!.message).toBe('The code block of a `[code]` cell names its language after the fence (```python).');
  });

  it('reports an indented or tilde fence at the fence characters', () => {
    expect(checkRule(RULE, code('  ~~~~', 'x', '  ~~~~')).map((f) => [f.column, f.text])).toEqual([[3, '~~~~']]);
  });

  it('counts an unclosed fence as the block (unclosed-fence reports it)', () => {
    expect(check(code('```python', 'print(1)')).map((f) => f.ruleId)).toEqual(['unclosed-fence']);
  });

  it('does not check markdown or raw cells, nor output cells', () => {
    expect(check(file('# %% [^1]', '', '[^1]: [markdown]', '', 'No code.'))).toEqual([]);
    expect(check(file('# %% [^1]', '', '[^1]: [raw]', '', '```', 'x', '```'))).toEqual([]);
  });

  it('has no fix', () => {
    const t = code('print(1)');
    expect(checkRule(RULE, t)[0]!.diagnostic.fix).toBeUndefined();
    expect(fixText(t)).toBe(t);
  });

  it('reports in a CRLF file at the same place', () => {
    const t = code('```', 'print(1)', '```').replace(/\n/g, '\r\n');
    expect(checkRule(RULE, t).map((f) => [f.line, f.column, f.text])).toEqual([[5, 1, '```']]);
  });

  describe('disable comments', () => {
    it('disable-next-line above the fence suppresses it', () => {
      const t = code(`<!-- msglint-disable-next-line ${RULE} -->`, '```', 'print(1)', '```');
      expect(check(t, { reportUnusedDisableDirectives: true })).toEqual([]);
    });

    it('disable-line on the metadata line suppresses the missing block', () => {
      const t = file('# %% Check[^1]', '', `[^1]: [code] <!-- msglint-disable-line ${RULE} -->`, '', 'print(1)');
      expect(check(t, { reportUnusedDisableDirectives: true })).toEqual([]);
    });
  });
});
