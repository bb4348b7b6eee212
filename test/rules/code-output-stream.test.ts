import { describe, expect, it } from 'vitest';
import { applyFix, check, checkRule, file } from '../helpers.js';
import { VALID_FILES } from '../llm-view/examples.js';

const ID = 'code-output-stream';

const code = ['# %% Run[^1]', '', '[^1]: [code]', '', '```python', 'print(2)', '```', ''];
const out = (attrs: string, ...body: string[]): string => file(...code, '# %%% [^1.1]', '', `[^1.1]: [python]${attrs}`, '', ...body);

describe(ID, () => {
  for (const [what, text, fileName] of VALID_FILES) {
    it(`reports nothing on ${what}`, () => expect(checkRule(ID, text, { fileName })).toEqual([]));
  }

  it('accepts stdout> and stderr> lines, empty output lines, blank lines and comments', () => {
    const text = out('', 'stdout> 2', 'stdout>', 'stderr> warning: x', '', '<!-- a note -->', 'stdout>    indented', '<!--', 'a longer note', '-->', 'stdout> end');
    expect(check(text)).toEqual([]);
  });

  it('accepts an empty output', () => {
    expect(check(file(...code, '# %%% [^1.1]', '', '[^1.1]: [python] status="success"'))).toEqual([]);
  });

  it('reports a run of lines without prefix as one diagnostic, with a suggestion that adds stdout>', () => {
    const text = out('', 'stdout> 1', 'two', 'three', '', 'stdout> 4');
    const found = checkRule(ID, text);
    expect(found.map((f) => f.text)).toEqual(['two\nthree']);
    expect(found[0]!.message).toContain('2 lines');
    expect(found[0]!.diagnostic.fix).toBeUndefined();
    const fixed = applyFix(text, found[0]!.diagnostic, 0);
    expect(fixed).toBe(out('', 'stdout> 1', 'stdout> two', 'stdout> three', '', 'stdout> 4'));
    expect(checkRule(ID, fixed)).toEqual([]);
  });

  it('reports separate runs separately', () => {
    const found = checkRule(ID, out('', 'a', '', 'b'));
    expect(found.map((f) => [f.text, f.line])).toEqual([['a', 13], ['b', 15]]);
    expect(found[0]!.message).toContain('starts with `stdout> `');
  });

  it('reports a prefix without its space, with a suggestion that inserts it', () => {
    const text = out('', 'stdout>2', 'stderr>oops');
    const found = checkRule(ID, text);
    expect(found.map((f) => f.text)).toEqual(['stdout>', 'stderr>']);
    const fixed = applyFix(text, found[0]!.diagnostic, 0);
    expect(checkRule(ID, fixed).map((f) => f.text)).toEqual(['stderr>']);
  });

  it('treats text/*, JSON and +xml as text', () => {
    for (const mime of ['text/html', 'application/json', 'image/svg+xml', 'text/plain; charset=utf-8', 'application/vnd.plotly.v1+json']) {
      expect(checkRule(ID, out(` mime_type="${mime}"`, '<b>hi</b>')).map((f) => f.text), mime).toEqual(['<b>hi</b>']);
    }
  });

  it('accepts a valid base64 body for a binary mime_type, with or without stdout> and with stderr> lines', () => {
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
    expect(check(out(' mime_type="image/png"', png.slice(0, 40), png.slice(40)))).toEqual([]);
    expect(check(out(' mime_type="image/png"', `stdout> ${png}`, 'stderr> a warning'))).toEqual([]);
    expect(check(out(' mime_type="application/octet-stream"', 'AAEC'))).toEqual([]);
  });

  it('reports the first character that is not base64', () => {
    const found = checkRule(ID, out(' mime_type="image/png"', 'iVBORw0K', 'not*base64'));
    expect(found.map((f) => [f.text, f.line])).toEqual([['*', 14]]);
    expect(found[0]!.message).toContain('image/png');
    expect(found[0]!.diagnostic.suggestions).toBeUndefined();
  });

  it('reports base64 that does not come in groups of four, at the last data line', () => {
    const found = checkRule(ID, out(' mime_type="image/png"', 'iVBORw0K', 'AAA'));
    expect(found.map((f) => f.text)).toEqual(['AAA']);
    expect(found[0]!.message).toContain('11');
  });

  it('reports data after the padding', () => {
    expect(checkRule(ID, out(' mime_type="image/png"', 'AA==AAAA')).map((f) => f.text)).toEqual(['A']);
  });

  it('leaves an invalid mime_type to attribute-value', () => {
    const text = out(' mime_type="png"', 'no prefix');
    expect(checkRule(ID, text)).toEqual([]);
    expect(check(text).map((f) => f.ruleId)).toEqual(['attribute-value']);
  });

  it('only checks code outputs', () => {
    const text = file('# %% Q[^1]', '', '[^1]: [markdown]', '', 'plain text', '', '# %%% [^1.abcd]', '', '[^1.abcd]: [tool] name="x"', '');
    expect(checkRule(ID, text)).toEqual([]);
  });

  it('works with CRLF line breaks', () => {
    const text = out('', 'stdout> 1', 'two').replace(/\n/g, '\r\n');
    const found = checkRule(ID, text);
    expect(found.map((f) => f.text)).toEqual(['two']);
    expect(checkRule(ID, applyFix(text, found[0]!.diagnostic, 0))).toEqual([]);
  });
});
