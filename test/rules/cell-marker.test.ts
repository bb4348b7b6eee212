// cell-marker: malformed percent markers (spec section 3, rules.md "FileFacts").
import { describe, expect, it } from 'vitest';
import { applyFix, check, checkRule, file, fixText } from '../helpers.js';

const RULE = 'cell-marker';
const FM = ['---', 'agents:', '  coder:', '    models: [gpt-4o]', 'default_agent: coder', '---', ''];

/** A file whose first line is `marker`, with a valid message cell after it. */
const withMarker = (marker: string, type = 'markdown') => file(marker, '', `[^1]: [${type}]`, '', 'Hello.');

describe('cell-marker', () => {
  describe('valid markers', () => {
    it.each([
      '# %% Question[^1]',
      '## %% Question[^1]',
      '### %% Question[^1]',
      '#### %% Question[^1]',
      '##### %% Question[^1]',
      '# %% [^1]',
      '# %% [Question][^1]',
      '# %% Question [^1]',
      '# %% Question[^1]   ',
    ])('%s', (marker) => {
      expect(check(withMarker(marker))).toEqual([]);
    });

    it('accepts output markers with one to five #', () => {
      const t = file(...FM, '# %% Ask[^1]', '', '[^1]: [markdown]', '', 'Hi.', '', '##### %%% Reply[^2]', '', '[^2]: [coder]', '', 'Hello.');
      expect(check(t)).toEqual([]);
    });

    it('ignores headings and text that are not percent markers', () => {
      const t = file('# %% Ask[^1]', '', '[^1]: [markdown]', '', '# A heading', '', '# 100%% sure', '', '#% not a marker', '', '% %% neither');
      expect(check(t)).toEqual([]);
    });

    it('treats a marker inside a fenced code block as content', () => {
      const t = file('# %% Ask[^1]', '', '[^1]: [markdown]', '', '```markdown', '#%% broken', '###### %%', '```', '', '~~~~', '  # %%foo', '~~~~');
      expect(check(t)).toEqual([]);
    });

    it('treats a marker inside an HTML comment as content', () => {
      const t = file('# %% Ask[^1]', '', '[^1]: [markdown]', '', 'Hi.', '', '<!--', '#%% old draft', '# %%%% also old', '-->');
      expect(check(t)).toEqual([]);
    });

    it('treats a marker inside CDATA of a tool element as content', () => {
      const t = file(
        ...FM,
        '# %% Ask[^1]',
        '',
        '[^1]: [markdown]',
        '',
        'Write the file.',
        '',
        '# %%% Reply[^2]',
        '',
        '[^2]: [coder]',
        '',
        'Writing it.',
        '',
        '## %%% Write[^2.k7f3q]',
        '',
        '[^2.k7f3q]: [tool] name="write_file"',
        '',
        '<tool>',
        '<tool_name>write_file</tool_name>',
        '<arguments>',
        '<path>notes.md</path>',
        '<content><![CDATA[#%% not a marker',
        '  # %% nor this',
        ']]></content>',
        '</arguments>',
        '</tool>',
        '',
        '## %%% Result[^2.k7f3q.1]',
        '',
        '[^2.k7f3q.1]: [tool] status="success"',
        '',
        'Written.',
      );
      expect(check(t)).toEqual([]);
    });

    it('treats a marker indented four spaces as an indented code block', () => {
      const t = file('# %% Ask[^1]', '', '[^1]: [markdown]', '', 'Example:', '', '    # %% [^2]');
      expect(check(t)).toEqual([]);
    });
  });

  describe('no space between # and %', () => {
    it('reports `#%%` on the last # and the first %', () => {
      const t = withMarker('#%% Question[^1]');
      const found = check(t);
      expect(found.map((f) => [f.ruleId, f.line, f.column, f.text])).toEqual([[RULE, 1, 1, '#%']]);
      expect(found[0]!.message).toBe("A cell marker needs one space between '#' and '%'.");
      expect(found[0]!.diagnostic.severity).toBe(2);
    });

    it('fixes it by inserting the space', () => {
      const t = withMarker('#%% Question[^1]');
      const [d] = checkRule(RULE, t);
      expect(applyFix(t, d!.diagnostic)).toBe(withMarker('# %% Question[^1]'));
      expect(fixText(t)).toBe(withMarker('# %% Question[^1]'));
    });

    it('reports `###%%%` at the join and keeps the #', () => {
      const t = file(...FM, '# %% Ask[^1]', '', '[^1]: [markdown]', '', 'Hi.', '', '###%%% Reply[^2]', '', '[^2]: [coder]', '', 'Hello.');
      const found = check(t);
      expect(found.map((f) => [f.ruleId, f.line, f.column, f.text])).toEqual([[RULE, 14, 3, '#%']]);
      expect(fixText(t)).toBe(t.replace('###%%%', '### %%%'));
    });
  });

  describe('space between # and %', () => {
    it('reports two spaces and fixes them to one', () => {
      const t = withMarker('#  %% Question[^1]');
      const found = checkRule(RULE, t);
      expect(found.map((f) => [f.column, f.text])).toEqual([[2, '  ']]);
      expect(found[0]!.message).toBe("A cell marker has exactly one space between '#' and '%'.");
      expect(fixText(t)).toBe(withMarker('# %% Question[^1]'));
    });

    it('reports a tab and fixes it to a space', () => {
      const t = withMarker('#\t%% Question[^1]');
      expect(checkRule(RULE, t).map((f) => f.text)).toEqual(['\t']);
      expect(fixText(t)).toBe(withMarker('# %% Question[^1]'));
    });
  });

  describe('too many #', () => {
    it('reports six # and fixes them to five', () => {
      const t = withMarker('###### %% Question[^1]');
      const found = check(t);
      expect(found.map((f) => [f.ruleId, f.line, f.column, f.text])).toEqual([[RULE, 1, 1, '######']]);
      expect(found[0]!.message).toBe("A cell marker has 1 to 5 '#', not 6.");
      expect(fixText(t)).toBe(withMarker('##### %% Question[^1]'));
    });

    it('reports seven #', () => {
      const t = withMarker('####### %% Question[^1]');
      expect(checkRule(RULE, t).map((f) => f.text)).toEqual(['#######']);
      expect(fixText(t)).toBe(withMarker('##### %% Question[^1]'));
    });
  });

  describe('too many %', () => {
    it('reports four % and fixes them to %% when the type is a message type', () => {
      const t = withMarker('# %%%% Question[^1]');
      const found = check(t);
      expect(found.map((f) => [f.ruleId, f.line, f.column, f.text])).toEqual([[RULE, 1, 3, '%%%%']]);
      expect(found[0]!.message).toBe(
        "A cell marker has '%%' (message cell) or '%%%' (output cell), not 4 '%'. The type `markdown` makes it a message cell: '%%'.",
      );
      expect(fixText(t)).toBe(withMarker('# %% Question[^1]'));
    });

    it('fixes them to %%% when the type is an agent', () => {
      const t = file(...FM, '# %% Ask[^1]', '', '[^1]: [markdown]', '', 'Hi.', '', '# %%%%% Reply[^2]', '', '[^2]: [coder]', '', 'Hello.');
      const found = check(t);
      expect(found.map((f) => [f.ruleId, f.line, f.text])).toEqual([[RULE, 14, '%%%%%']]);
      expect(found[0]!.message).toContain("an output cell: '%%%'");
      expect(fixText(t)).toBe(t.replace('%%%%%', '%%%'));
    });

    it('fixes them to %%% when the type is tool or a language', () => {
      const t = file(
        '# %% Run[^1]',
        '',
        '[^1]: [code]',
        '',
        '```python',
        'print(2)',
        '```',
        '',
        '# %%%% [^1.1]',
        '',
        '[^1.1]: [python] status="success"',
        '',
        'stdout> 2',
      );
      expect(checkRule(RULE, t).map((f) => f.text)).toEqual(['%%%%']);
      expect(fixText(t)).toBe(t.replace('%%%%', '%%%'));
    });

    it('has no fix when the type does not tell message from output', () => {
      const t = withMarker('# %%%% Question[^1]', 'mystery');
      const [d] = checkRule(RULE, t);
      expect(d!.diagnostic.fix).toBeUndefined();
      expect(d!.message).toBe("A cell marker has '%%' (message cell) or '%%%' (output cell), not 4 '%'.");
    });

    it('has no fix without metadata', () => {
      const t = file('# %%%% Question[^1]', '', 'Hello.');
      expect(checkRule(RULE, t)[0]!.diagnostic.fix).toBeUndefined();
    });
  });

  describe('indented marker', () => {
    it.each([' ', '  ', '   '])('reports an indent of %j and removes it', (indent) => {
      const t = withMarker(`${indent}# %% Question[^1]`);
      const found = check(t);
      expect(found.map((f) => [f.ruleId, f.line, f.column, f.text])).toEqual([[RULE, 1, 1, indent]]);
      expect(found[0]!.message).toBe('A cell marker must start at the beginning of the line.');
      expect(fixText(t)).toBe(withMarker('# %% Question[^1]'));
    });
  });

  describe('text glued to the percent signs', () => {
    it('reports the glued word and inserts a space', () => {
      const t = withMarker('# %%Question time[^1]');
      const found = check(t);
      expect(found.map((f) => [f.ruleId, f.line, f.column, f.text])).toEqual([[RULE, 1, 5, 'Question']]);
      expect(found[0]!.message).toBe('Text is glued to the percent signs of the cell marker; put a space after them.');
      expect(fixText(t)).toBe(withMarker('# %% Question time[^1]'));
    });

    it('reports a glued word up to the id reference', () => {
      const t = withMarker('# %%foo[^1]');
      expect(checkRule(RULE, t).map((f) => f.text)).toEqual(['foo']);
      expect(fixText(t)).toBe(withMarker('# %% foo[^1]'));
    });

    it('reports a glued id reference, which still names the cell', () => {
      const t = withMarker('# %%[^1]');
      expect(check(t).map((f) => [f.ruleId, f.text])).toEqual([[RULE, '[^1]']]);
      expect(fixText(t)).toBe(withMarker('# %% [^1]'));
    });
  });

  describe('several problems on one marker', () => {
    it('reports each and fixes all of them', () => {
      const t = withMarker('  #######%%Question[^1]');
      expect(checkRule(RULE, t).map((f) => f.text)).toEqual(['  ', '#######', '#%', 'Question']);
      expect(fixText(t)).toBe(withMarker('##### %% Question[^1]'));
    });
  });

  describe('unclosed constructs hide nothing', () => {
    it('still reports a malformed marker after an unclosed fence', () => {
      const t = file('# %% Ask[^1]', '', '[^1]: [markdown]', '', '```python', 'x = 1', '', '#%% Next[^2]', '', '[^2]: [markdown]', '', 'More.');
      expect(check(t).map((f) => [f.ruleId, f.line, f.text])).toEqual([
        ['unclosed-fence', 5, '```python'],
        [RULE, 8, '#%'],
      ]);
    });

    it('still reports a malformed marker after an unclosed HTML comment', () => {
      const t = file('# %% Ask[^1]', '', '[^1]: [markdown]', '', '<!-- draft', '', '###### %% Next[^2]', '', '[^2]: [markdown]', '', 'More.');
      expect(checkRule(RULE, t).map((f) => [f.line, f.text])).toEqual([[7, '######']]);
    });
  });

  describe('fixes', () => {
    it('are idempotent', () => {
      for (const marker of ['#%% A[^1]', '###### %% A[^1]', '# %%%% A[^1]', '  # %% A[^1]', '# %%A[^1]', '#  %% A[^1]']) {
        const once = fixText(withMarker(marker));
        expect(fixText(once)).toBe(once);
        expect(check(once)).toEqual([]);
      }
    });

    it('combine with the fixes of other structure rules into a valid file', () => {
      const t = file(...FM, '#%%Ask', 'What?', '', '  ###### %%% Reply', 'Hello.', '', '# %% More[^5]', '', '[^5]: [markdown] [history=excluded] summary=“x”', '', 'text');
      const want = file(
        ...FM,
        '# %% Ask[^6]',
        '',
        '[^6]: [markdown]',
        '',
        'What?',
        '',
        '##### %%% Reply[^7]',
        '',
        '[^7]: [coder]',
        '',
        'Hello.',
        '',
        '# %% More[^5]',
        '',
        '[^5]: [markdown] history=exclude summary="x"',
        '',
        'text',
      );
      expect(fixText(t)).toBe(want);
      expect(check(want)).toEqual([]);
      expect(fixText(t.replace(/\n/g, '\r\n'))).toBe(want.replace(/\n/g, '\r\n'));
    });

    it('keep CRLF line breaks', () => {
      const t = withMarker('#%% Question[^1]').replace(/\n/g, '\r\n');
      expect(fixText(t)).toBe(withMarker('# %% Question[^1]').replace(/\n/g, '\r\n'));
    });

    it('report the same ranges in a CRLF file', () => {
      const t = withMarker('###### %% Question[^1]').replace(/\n/g, '\r\n');
      expect(checkRule(RULE, t).map((f) => [f.line, f.column, f.text])).toEqual([[1, 1, '######']]);
    });
  });

  describe('disable comments', () => {
    const bad = ['#%% Question[^1]', '', '[^1]: [markdown]', '', 'Hello.'];

    it('disable-next-line suppresses it', () => {
      const t = file(`<!-- msglint-disable-next-line ${RULE} -->`, ...bad);
      expect(check(t, { reportUnusedDisableDirectives: true })).toEqual([]);
    });

    it('disable-file suppresses it, with a description', () => {
      const t = file(`<!-- msglint-disable-file ${RULE} -- legacy export -->`, '', ...bad);
      expect(check(t, { reportUnusedDisableDirectives: true })).toEqual([]);
    });

    it('disable and enable bound a range', () => {
      const t = file(`<!-- msglint-disable ${RULE} -->`, ...bad, '', `<!-- msglint-enable ${RULE} -->`, '', '#%% Again[^2]', '', '[^2]: [markdown]', '', 'Hi.');
      expect(check(t).map((f) => [f.ruleId, f.line])).toEqual([[RULE, 10]]);
    });

    it('a directive for another rule does not suppress it', () => {
      const t = file('<!-- msglint-disable-next-line empty-cell -->', ...bad);
      expect(check(t, { reportUnusedDisableDirectives: true }).map((f) => f.ruleId)).toEqual(['unused-disable', RULE]);
    });

    it('can be turned off in the configuration', () => {
      expect(check(file(...bad), { config: { rules: { [RULE]: 'off' } } })).toEqual([]);
    });
  });
});
