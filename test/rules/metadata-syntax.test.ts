// metadata-syntax: a metadata line that does not parse (spec section 5).
import { describe, expect, it } from 'vitest';
import { applyFix, check, checkRule, file, fixText } from '../helpers.js';

const RULE = 'metadata-syntax';

/** A message cell whose metadata line is `meta`; the metadata line is line 3. */
const cell = (meta: string) => file('# %% Question[^1]', '', meta, '', 'What is 2 + 2?');
const found = (meta: string) => checkRule(RULE, cell(meta)).map((f) => [f.line, f.column, f.text, f.message]);

describe('metadata-syntax', () => {
  describe('valid lines', () => {
    it.each([
      '[^1]: [markdown]',
      '[^1]: [markdown] time="2025-05-30T09:00:00+08:00"',
      '[^1]: [markdown]  history=summary   summary="two  spaces"  ',
      '[^1]: [markdown]\thistory=include',
      '[^1]: [markdown] summary="say \\"hi\\" and \\\\ go" history=summary',
      '[^1]: [markdown] custom_key=some-value other-key="x y" k9=1.5',
      '[^1]: [markdown] summary=don’t',
      '[^1]: [markdown] summary="a [bracket] and = sign"',
      '[^1]: [markdown] <!-- a note -->',
      '[^1]: [markdown] history=include <!-- msglint-disable-line --> ',
    ])('%s', (meta) => {
      expect(check(cell(meta))).toEqual([]);
    });
  });

  describe('the type', () => {
    it('reports a missing [TYPE] at the text after the colon', () => {
      expect(found('[^1]: markdown')).toEqual([[3, 7, 'markdown', 'A metadata line needs a type in brackets after the colon, as in `[markdown]`.']]);
    });

    it('reports an empty line after the colon', () => {
      expect(found('[^1]:').map((f) => f[2])).toEqual(['[^1]:']);
    });

    it('reports an unclosed type bracket', () => {
      expect(found('[^1]: [markdown history=include').map((f) => f[2])).toEqual(['[markdown history=include']);
    });

    it('reports a type with a blank inside', () => {
      expect(found('[^1]: [mark down]').map((f) => f[2])).toEqual(['[mark down]']);
    });

    it('reports text glued to the type', () => {
      expect(found('[^1]: [markdown]time=1')).toEqual([[3, 17, 'time=1', 'Attributes are separated from the type by a space.']]);
    });
  });

  describe('attributes', () => {
    it('reports a word that is not key=value', () => {
      expect(found('[^1]: [markdown] important')).toEqual([[3, 18, 'important', 'Expected `key=value`, found `important`.']]);
    });

    it('reports a key without a value', () => {
      expect(found('[^1]: [markdown] history= time="2025-05-30T09:00:00Z"')).toEqual([[3, 18, 'history', '`history=` has no value.']]);
    });

    it('reports a key that does not start with a letter', () => {
      expect(found('[^1]: [markdown] 1st=x').map((f) => f[2])).toEqual(['1st=x']);
    });

    it('reports an unterminated quote from the quote to the end of the line', () => {
      expect(found('[^1]: [markdown] summary="the sum')).toEqual([[3, 26, '"the sum', 'The value of `summary` has no closing quote.']]);
    });

    it('reports single quotes and fixes them to double quotes', () => {
      expect(found("[^1]: [markdown] summary='the sum' history=summary")).toEqual([
        [3, 26, "'the sum'", 'Single quotes around the value of `summary`; use double quotes (").'],
      ]);
      expect(fixText(cell("[^1]: [markdown] summary='it's done' history=summary"))).toBe(cell('[^1]: [markdown] summary="it\'s done" history=summary'));
    });

    it('reports attributes that are not separated by a blank', () => {
      expect(found('[^1]: [markdown] summary="x"history=summary')).toEqual([[3, 29, 'history=summary', 'Attributes are separated by spaces.']]);
    });

    it('has no fix for these', () => {
      for (const meta of ['[^1]: markdown', '[^1]: [markdown] x', '[^1]: [markdown] summary="x', "[^1]: [markdown] summary='x", '[^1]: [markdown] x=[y]']) {
        const t = cell(meta);
        expect(checkRule(RULE, t).every((f) => f.diagnostic.fix === undefined)).toBe(true);
        expect(fixText(t)).toBe(t);
      }
    });
  });

  describe('bracketed attributes (the original document\'s "optional")', () => {
    it('reports the brackets and fixes by removing them', () => {
      const t = file('---', 'agents:', '  coder:', '    models: [gpt-4o]', '---', '', '# %% Ask[^1]', '', '[^1]: [markdown]', '', 'Hi.', '', '# %%% Reply[^2]', '', '[^2]: [coder] [reasoning=1]', '', 'Hello.');
      const f = checkRule(RULE, t);
      expect(f.map((x) => [x.line, x.column, x.text])).toEqual([[15, 15, '[reasoning=1]']]);
      expect(f[0]!.message).toBe('Brackets around an attribute mean "optional" in the original document; write `reasoning=1` without them.');
      expect(applyFix(t, f[0]!.diagnostic)).toBe(t.replace('[reasoning=1]', 'reasoning=1'));
      expect(check(fixText(t))).toEqual([]);
    });

    it('fixes several attributes in one pair of brackets', () => {
      const t = cell('[^1]: [markdown] [history=summary summary="sum"]');
      expect(fixText(t)).toBe(cell('[^1]: [markdown] history=summary summary="sum"'));
    });

    it('still checks the attributes inside the brackets', () => {
      const t = cell('[^1]: [markdown] [history=excluded]');
      expect(check(t).map((f) => [f.ruleId, f.text])).toEqual([
        [RULE, '[history=excluded]'],
        ['history-value', 'excluded'],
      ]);
      expect(fixText(t)).toBe(cell('[^1]: [markdown] history=exclude'));
    });

    it('has no fix when the inside is not an attribute', () => {
      const t = cell('[^1]: [markdown] [optional]');
      const [f] = checkRule(RULE, t);
      expect(f!.text).toBe('[optional]');
      expect(f!.diagnostic.fix).toBeUndefined();
    });
  });

  describe('curly quotes', () => {
    it('reports double curly quotes and fixes them to straight quotes', () => {
      const t = cell('[^1]: [markdown] time=“2025-05-30T09:00:00Z”');
      const f = checkRule(RULE, t);
      expect(f.map((x) => [x.column, x.text, x.message])).toEqual([
        [23, '“2025-05-30T09:00:00Z”', 'Curly quotes around the value of `time`; use straight quotes (").'],
      ]);
      expect(fixText(t)).toBe(cell('[^1]: [markdown] time="2025-05-30T09:00:00Z"'));
    });

    it('fixes quotes that are both closing quotes', () => {
      expect(fixText(cell('[^1]: [markdown] summary=”sum” history=summary'))).toBe(cell('[^1]: [markdown] summary="sum" history=summary'));
    });

    it('fixes single curly quotes and keeps an apostrophe inside', () => {
      const t = cell('[^1]: [markdown] summary=‘don’t panic’ history=summary');
      expect(checkRule(RULE, t).map((x) => x.text)).toEqual(['‘don’t panic’']);
      expect(fixText(t)).toBe(cell('[^1]: [markdown] summary="don’t panic" history=summary'));
    });

    it('has no fix for an unclosed curly quote or one around a straight quote', () => {
      for (const meta of ['[^1]: [markdown] summary=“sum', '[^1]: [markdown] summary=“say "hi"”']) {
        const [f] = checkRule(RULE, cell(meta));
        expect(f!.diagnostic.fix).toBeUndefined();
      }
    });
  });

  describe('ordinary footnotes', () => {
    it('does not check a footnote that no cell uses', () => {
      const t = file('# %% Ask[^1]', '', '[^1]: [markdown]', '', 'As noted[^n].', '', '[^n]: See the spec.', '[^m]: [RFC 9110] says so.', '[^k]: [RFC] says so.');
      expect(check(t)).toEqual([]);
    });

    it('checks a footnote-shaped line whose id a cell uses', () => {
      expect(found('[^1]: What is this?').map((f) => f[2])).toEqual(['What is this?']);
    });
  });

  describe('fixes', () => {
    it('are idempotent', () => {
      const t = cell('[^1]: [markdown] [history=summary] summary=“sum”');
      const once = fixText(t);
      expect(once).toBe(cell('[^1]: [markdown] history=summary summary="sum"'));
      expect(fixText(once)).toBe(once);
    });

    it('keep CRLF line breaks', () => {
      const crlf = (s: string) => s.replace(/\n/g, '\r\n');
      const t = crlf(cell('[^1]: [markdown] [history=summary] summary=“sum”'));
      expect(fixText(t)).toBe(crlf(cell('[^1]: [markdown] history=summary summary="sum"')));
      expect(checkRule(RULE, t).map((f) => [f.line, f.column, f.text])).toEqual([
        [3, 18, '[history=summary]'],
        [3, 44, '“sum”'],
      ]);
    });
  });

  describe('disable comments', () => {
    it('disable-next-line above the metadata line suppresses it', () => {
      const t = file('# %% Question[^1]', '', `<!-- msglint-disable-next-line ${RULE} -->`, '[^1]: [markdown] important', '', 'Text.');
      expect(check(t, { reportUnusedDisableDirectives: true })).toEqual([]);
    });

    it('a trailing disable-line comment is not part of the metadata', () => {
      const t = cell(`[^1]: [markdown] important <!-- msglint-disable-line ${RULE} -->`);
      expect(check(t, { reportUnusedDisableDirectives: true })).toEqual([]);
    });
  });
});
