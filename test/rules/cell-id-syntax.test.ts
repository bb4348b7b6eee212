// cell-id-syntax: characters, empty segments and shapes of ids (spec section 4).
import { describe, expect, it } from 'vitest';
import { check, checkRule, file } from '../helpers.js';

const RULE = 'cell-id-syntax';
const FM = ['---', 'agents:', '  coder:', '    models: [gpt-4o]', 'default_agent: coder', '---', ''];

/** A message cell with the given id and a metadata line for it. */
const message = (id: string, title = 'Ask') => file(`# %% ${title}[^${id}]`, '', `[^${id}]: [markdown]`, '', 'Hello.');

/** A file with an agent reply `2` and then an output cell with the given id and type. */
const output = (id: string, type: string) =>
  file(...FM, '# %% Ask[^1]', '', '[^1]: [markdown]', '', 'Hi.', '', '# %%% Reply[^2]', '', '[^2]: [coder]', '', 'Hello.', '', `# %%% Out[^${id}]`, '', `[^${id}]: [${type}]`, '', 'Body.');
const OUT_LINE = 20;

describe('cell-id-syntax', () => {
  describe('valid ids', () => {
    it.each(['1', '42', 'intro', 'A_b-9', 'x-y_z'])('message cell id %s', (id) => {
      expect(checkRule(RULE, message(id))).toEqual([]);
    });

    it('accepts the shapes of every cell kind in one valid file', () => {
      const t = file(
        ...FM,
        '# %% Ask[^1]',
        '',
        '[^1]: [markdown]',
        '',
        'Read app.py.',
        '',
        '# %%% Reply[^2]',
        '',
        '[^2]: [coder]',
        '',
        'Reading it.',
        '',
        '## %%% Call[^2.k7f3q]',
        '',
        '[^2.k7f3q]: [tool] name="read_file"',
        '',
        '<tool>',
        '<tool_name>read_file</tool_name>',
        '<arguments><path>app.py</path></arguments>',
        '</tool>',
        '',
        '## %%% Result[^2.k7f3q.1]',
        '',
        '[^2.k7f3q.1]: [tool] status="success"',
        '',
        'print(1)',
        '',
        '# %% Run[^3]',
        '',
        '[^3]: [code]',
        '',
        '```python',
        'print(1)',
        '```',
        '',
        '# %%% [^3.1]',
        '',
        '[^3.1]: [python] status="success"',
        '',
        'stdout> 1',
      );
      expect(check(t)).toEqual([]);
    });
  });

  describe('characters', () => {
    it('reports a segment with a space at that segment', () => {
      const found = check(message('a b'));
      expect(found.map((f) => [f.ruleId, f.line, f.column, f.text])).toEqual([[RULE, 1, 11, 'a b']]);
      expect(found[0]!.message).toBe('An id segment uses only A-Z a-z 0-9 _ -; `a b` has ` `.');
    });

    it('reports a non-ASCII letter', () => {
      const found = checkRule(RULE, message('café'));
      expect(found.map((f) => f.text)).toEqual(['café']);
      expect(found[0]!.message).toContain('has `é`');
    });

    it('reports each bad segment of a dotted id', () => {
      const t = output('2.k7f3q.1', 'tool').replace(/2\.k7f3q\.1/g, '2.k7!q.1');
      expect(checkRule(RULE, t).map((f) => [f.line, f.text])).toEqual([[OUT_LINE, 'k7!q']]);
    });
  });

  describe('empty ids and segments', () => {
    it('reports an empty id at the whole reference', () => {
      const t = file('# %% Ask[^]', '', 'Hello.');
      const found = check(t);
      expect(found.map((f) => [f.ruleId, f.line, f.column, f.text])).toEqual([[RULE, 1, 9, '[^]']]);
      expect(found[0]!.message).toBe('The id is empty.');
    });

    it.each(['a..b', '.a', 'a.'])('reports the empty segment of %s', (id) => {
      const found = check(message(id));
      expect(found.map((f) => [f.ruleId, f.text])).toEqual([[RULE, id]]);
      expect(found[0]!.message).toBe(`The id \`${id}\` has an empty segment (two dots, or a dot at an end).`);
    });
  });

  describe('the reference is the last thing on the line', () => {
    it('reports an id reference followed by text', () => {
      const t = file('# %% Ask[^1] later', '', '[^1]: [markdown]', '', 'Hello.');
      const found = check(t);
      expect(found.map((f) => [f.ruleId, f.line, f.column, f.text])).toEqual([[RULE, 1, 9, '[^1]']]);
      expect(found[0]!.message).toBe('The id reference `[^…]` must be the last thing on the marker line.');
    });

    it('accepts trailing blanks and a bracketed title', () => {
      expect(check(file('# %% [A title][^1]  ', '', '[^1]: [markdown]', '', 'Hello.'))).toEqual([]);
    });
  });

  describe('shapes (section 4)', () => {
    it('reports a dotted id on a message cell', () => {
      const found = check(message('1.2'));
      expect(found.map((f) => [f.ruleId, f.text])).toEqual([[RULE, '1.2']]);
      expect(found[0]!.message).toBe('A message cell has a one-segment id, such as `1` or `intro`.');
    });

    it('reports a dotted id on an agent reply', () => {
      const found = checkRule(RULE, output('2.1', 'coder'));
      expect(found.map((f) => [f.line, f.column, f.text])).toEqual([[OUT_LINE, 12, '2.1']]);
      expect(found[0]!.message).toContain('An agent reply has a one-segment id');
    });

    it('reports a tool cell with one segment (a tool call is PARENT.NONCE)', () => {
      const found = checkRule(RULE, output('5', 'tool'));
      expect(found.map((f) => f.text)).toEqual(['5']);
      expect(found[0]!.message).toBe('A tool call id is PARENT.NONCE (two segments).');
    });

    it('reports a tool result whose last segment is not a number from 1', () => {
      for (const n of ['x', '0', '01']) {
        const found = checkRule(RULE, output(`2.k7f3q.${n}`, 'tool'));
        expect(found.map((f) => f.text)).toEqual([`2.k7f3q.${n}`]);
        expect(found[0]!.message).toBe(`The last segment of a tool result id is its number N (1, 2, …), not \`${n}\`.`);
      }
    });

    it('reports a code output with one segment or a bad number', () => {
      expect(checkRule(RULE, output('9', 'python')).map((f) => f.message)).toEqual(['A code output id is CODE.N (two segments).']);
      expect(checkRule(RULE, output('9.x', 'python')).map((f) => f.message)).toEqual([
        'The last segment of a code output id is its number N (1, 2, …), not `x`.',
      ]);
    });

    it('reports more than three segments', () => {
      const found = checkRule(RULE, output('2.k7f3q.1.1', 'tool'));
      expect(found.map((f) => f.message)).toEqual(['An id has at most three segments (PARENT.NONCE.N for a tool result), not 4.']);
    });

    it('leaves the shape of an output cell of unknown type alone (unknown-agent reports it)', () => {
      expect(checkRule(RULE, output('2.x.y', 'mystery'))).toEqual([]);
    });
  });

  it('reports in a CRLF file at the same place', () => {
    const t = message('a..b').replace(/\n/g, '\r\n');
    expect(checkRule(RULE, t).map((f) => [f.line, f.column, f.text])).toEqual([[1, 11, 'a..b']]);
  });

  describe('disable comments', () => {
    it('disable-next-line suppresses it', () => {
      const t = file(`<!-- msglint-disable-next-line ${RULE} -->`, ...message('a..b').trimEnd().split('\n'));
      expect(check(t, { reportUnusedDisableDirectives: true })).toEqual([]);
    });

    it('disable-file with several rules suppresses it', () => {
      const t = file(`<!-- msglint-disable-file empty-cell, ${RULE} -->`, '', ...message('a b').trimEnd().split('\n'));
      expect(check(t).map((f) => f.ruleId)).toEqual([]);
      expect(check(t, { reportUnusedDisableDirectives: true }).map((f) => [f.ruleId, f.text])).toEqual([['unused-disable', 'empty-cell']]);
    });
  });
});
