// unclosed-fence: an opening fence that is never closed (spec section 2). It is
// reported and hides nothing: markers after it still start cells.
import { describe, expect, it } from 'vitest';
import { parse } from '../../server/syntax/document.js';
import { check, checkRule, file, fixText } from '../helpers.js';

const RULE = 'unclosed-fence';
const ASK = ['# %% Ask[^1]', '', '[^1]: [markdown]', ''];
const NEXT = ['# %% Next[^2]', '', '[^2]: [markdown]', '', 'More.'];

describe('unclosed-fence', () => {
  it('accepts closed fences of either kind, closed by an equal or longer fence', () => {
    expect(check(file(...ASK, '```js', 'x', '```', '', '~~~', 'y', '~~~~~', '', '````', '```', '````'))).toEqual([]);
  });

  it('reports the opening fence and its info string, as an error', () => {
    const t = file(...ASK, 'Here:', '', '```python', 'print(1)', '', ...NEXT);
    const found = check(t);
    expect(found.map((f) => [f.ruleId, f.line, f.column, f.text])).toEqual([[RULE, 7, 1, '```python']]);
    expect(found[0]!.message).toBe('This code fence is never closed: end the code with a line ```. (Cell markers after it still start new cells.)');
    expect(found[0]!.diagnostic.severity).toBe(2);
  });

  it('hides nothing: the next marker still starts a cell', () => {
    const t = file(...ASK, '```python', 'print(1)', '', ...NEXT);
    // `Next[^2]` is a cell with its metadata: no metadata-unused, no placement problem.
    expect(check(t).map((f) => f.ruleId)).toEqual([RULE]);
  });

  it('names the fence to close with: same character, at least as long', () => {
    expect(checkRule(RULE, file(...ASK, '~~~~ text', 'x')).map((f) => [f.text, f.message])).toEqual([
      ['~~~~ text', 'This code fence is never closed: end the code with a line ~~~~. (Cell markers after it still start new cells.)'],
    ]);
  });

  // The fence lines after an unclosed fence are its code (they open nothing): one report.
  it('is not closed by a shorter fence or one of the other character', () => {
    expect(checkRule(RULE, file(...ASK, '````', 'x', '```', 'more')).map((f) => [f.line, f.text])).toEqual([[5, '````']]);
    expect(checkRule(RULE, file(...ASK, '~~~', 'x', '```')).map((f) => [f.line, f.text])).toEqual([[5, '~~~']]);
  });

  it('is not closed by a fence with an info string', () => {
    expect(checkRule(RULE, file(...ASK, '```js', 'x', '```js')).map((f) => f.line)).toEqual([5]);
  });

  it('holds the fence lines after it up to the next marker: a ``` among them opens no fence over that marker', () => {
    // The case of issue 16: `~~~` never closed, then a ``` line in the same
    // cell. Read as an opener, that line would close at the ``` of the next
    // code block and hide the marker in between.
    const t = file(
      ...ASK,
      '~~~python',
      'x = 1',
      '```',
      '',
      '# %% Run[^2]',
      '',
      '[^2]: [code]',
      '',
      '```python',
      'print(1)',
      '```',
    );
    const found = check(t);
    expect(found.map((f) => [f.ruleId, f.line, f.column, f.text])).toEqual([[RULE, 5, 1, '~~~python']]);
    expect(found[0]!.message).toBe('This code fence is never closed: end the code with a line ~~~. (Cell markers after it still start new cells.)');
    expect(found[0]!.diagnostic.range).toMatchObject({ start: { line: 4, character: 0 }, end: { line: 4, character: 9 } });
    const ids = parse(t, { fileName: 'test.msg.md' }).cells.map((c) => c.id);
    expect(ids).toEqual(['1', '2']);
  });

  it('ends at the next marker: a fence after that marker opens as usual', () => {
    const t = file(...ASK, '~~~', '```', ...NEXT, '```', '# %% not a marker', '```');
    expect(check(t).map((f) => [f.ruleId, f.line])).toEqual([[RULE, 5]]);
    expect(parse(t, { fileName: 'test.msg.md' }).cells.map((c) => c.id)).toEqual(['1', '2']);
  });

  it('reports an indented fence at the fence characters', () => {
    expect(checkRule(RULE, file(...ASK, '   ```', 'x')).map((f) => [f.column, f.text])).toEqual([[4, '```']]);
  });

  it('reports a fence in the text before the first cell', () => {
    const t = file('Notes:', '```', 'draft', '', ...NEXT);
    expect(check(t).map((f) => [f.ruleId, f.line])).toEqual([[RULE, 2]]);
  });

  it('treats a fence line inside a closed HTML comment as content', () => {
    expect(check(file(...ASK, 'Hi.', '<!--', '```', '-->'))).toEqual([]);
  });

  it('has no fix', () => {
    const t = file(...ASK, '```', 'x');
    expect(checkRule(RULE, t)[0]!.diagnostic.fix).toBeUndefined();
    expect(fixText(t)).toBe(t);
  });

  it('reports in a CRLF file at the same place', () => {
    const t = file(...ASK, '```python', 'x', '', ...NEXT).replace(/\n/g, '\r\n');
    expect(checkRule(RULE, t).map((f) => [f.line, f.column, f.text])).toEqual([[5, 1, '```python']]);
  });

  describe('disable comments', () => {
    it('disable-next-line above the fence suppresses it', () => {
      const t = file(...ASK, `<!-- msglint-disable-next-line ${RULE} -->`, '```python', 'x', '', ...NEXT);
      expect(check(t, { reportUnusedDisableDirectives: true })).toEqual([]);
    });

    it('disable-file for another rule is unused and does not suppress it', () => {
      const t = file('<!-- msglint-disable-file empty-cell -->', '', ...ASK, '```python', 'x');
      expect(check(t, { reportUnusedDisableDirectives: true }).map((f) => [f.ruleId, f.text])).toEqual([
        ['unused-disable', 'empty-cell'],
        [RULE, '```python'],
      ]);
    });
  });
});

describe('unclosed HTML comments', () => {
  it('reports a <!-- that never closes, at the opener', () => {
    const text = file('# %% Draft[^1]', '', '[^1]: [markdown]', '', 'Text <!-- todo', '', '# %% Next[^2]', '', '[^2]: [markdown]', '', 'More.');
    const found = checkRule('unclosed-fence', text);
    expect(found.map((f) => [f.line, f.column, f.text])).toEqual([[5, 6, '<!--']]);
    expect(found[0]!.message).toContain('HTML comment');
  });
  it('a <!-- inside inline code is not a comment', () => {
    const text = file('# %% Ask[^1]', '', '[^1]: [markdown]', '', 'Write `<!--` to open a comment.', '', '# %% Next[^2]', '', '[^2]: [markdown]', '', 'And `-->` closes it.');
    expect(check(text)).toEqual([]);
  });
});
