// metadata-unused: a metadata line that no cell references and that is not a temporary agent.
import { describe, expect, it } from 'vitest';
import { check, checkRule, file } from '../helpers.js';

const RULE = 'metadata-unused';
const ASK = ['# %% Ask[^1]', '', '[^1]: [markdown]', '', 'Hello.'];

describe('metadata-unused', () => {
  it('reports a metadata line whose id no cell uses, at its reference', () => {
    const t = file(...ASK, '', '[^7]: [markdown] time="2025-05-30T09:00:00Z"');
    const found = check(t);
    expect(found.map((f) => [f.ruleId, f.line, f.column, f.text])).toEqual([[RULE, 7, 1, '[^7]']]);
    expect(found[0]!.message).toBe('No cell uses the id `7`: this metadata line has no effect.');
    expect(found[0]!.diagnostic.severity).toBe(1);
    expect(found[0]!.diagnostic.tags).toEqual([1]);
  });

  it('reports a second metadata line for the same id and points to the first', () => {
    const t = file(...ASK, '', '[^1]: [markdown] history=exclude');
    const found = check(t);
    expect(found.map((f) => [f.ruleId, f.line, f.text])).toEqual([[RULE, 7, '[^1]']]);
    expect(found[0]!.message).toBe('A second metadata line for `1`; only the first one counts.');
    expect(found[0]!.diagnostic.related![0]!.range.start.line).toBe(2);
  });

  it('reports unused metadata of every type', () => {
    const t = file(
      '---',
      'agents:',
      '  coder:',
      '    models: [gpt-4o]',
      '---',
      '',
      ...ASK,
      '',
      '[^a]: [code]',
      '[^b]: [raw]',
      '[^c]: [tool] name="x"',
      '[^d]: [coder]',
      '[^e]: [python]',
    );
    expect(checkRule(RULE, t).map((f) => f.text)).toEqual(['[^a]', '[^b]', '[^c]', '[^d]', '[^e]']);
  });

  it('accepts temporary agents, wherever they are', () => {
    const t = file('[^fast]: [agent] models="gpt-4o-mini"', '', ...ASK, '', '[^slow]: [agent] models="o3"', '', '# %%% Reply[^2]', '', '[^2]: [slow]', '', 'Hi.');
    expect(check(t)).toEqual([]);
  });

  describe('ordinary Markdown footnotes are not metadata', () => {
    it('accepts a footnote without [TYPE]', () => {
      const t = file('# %% Ask[^1]', '', '[^1]: [markdown]', '', 'See the note[^n].', '', '[^n]: A plain footnote.');
      expect(check(t)).toEqual([]);
    });

    it('accepts a footnote that starts with a bracketed word', () => {
      const t = file('# %% Ask[^1]', '', '[^1]: [markdown]', '', 'Per the RFC[^rfc].', '', '[^rfc]: [RFC 9110] defines the semantics.', '[^x]: [RFC9110] (HTTP semantics).');
      expect(check(t)).toEqual([]);
    });

    it('accepts a footnote the text refers to, even with a type-like first word', () => {
      const t = file('# %% Ask[^1]', '', '[^1]: [markdown]', '', 'Markdown[^md] is fine.', '', '[^md]: [markdown] is a light markup language.');
      expect(check(t)).toEqual([]);
    });

    it('counts a reference in a cell title', () => {
      const t = file('# %% About Markdown[^md][^1]', '', '[^1]: [markdown]', '', 'Is it a standard?', '', '[^md]: [markdown] here means CommonMark.');
      expect(check(t)).toEqual([]);
    });

    it('counts references on any prose line: before the first cell, after a code block, several on a line', () => {
      const t = [
        'Notes[^a] up front.',
        '',
        '# %% Ask[^1]',
        '',
        '[^1]: [markdown]',
        '',
        '```',
        'code[^b]',
        '```',
        'then[^b] and[^c][^d]',
        '',
        '[^a]: [markdown] note',
        '[^b]: [markdown] note',
        '[^c]: [markdown] note',
        '[^d]: [markdown] note',
        '[^e]: [markdown] note',
      ].join('\n');
      expect(checkRule(RULE, t).map((f) => f.text)).toEqual(['[^e]']);
    });

    it('does not count a reference inside a code block', () => {
      const t = file('# %% Ask[^1]', '', '[^1]: [markdown]', '', '```', 'text[^7]', '```', '', '[^7]: [markdown]');
      expect(checkRule(RULE, t).map((f) => f.text)).toEqual(['[^7]']);
    });
  });

  it('ignores footnote-shaped lines inside code blocks and comments', () => {
    const t = file(...ASK, '', '```', '[^7]: [markdown]', '```', '', '<!--', '[^8]: [markdown]', '-->');
    expect(check(t)).toEqual([]);
  });

  it('reports in a CRLF file at the same place', () => {
    const t = file(...ASK, '', '[^7]: [markdown]').replace(/\n/g, '\r\n');
    expect(checkRule(RULE, t).map((f) => [f.line, f.column, f.text])).toEqual([[7, 1, '[^7]']]);
  });

  describe('disable comments', () => {
    it('disable-next-line suppresses it', () => {
      const t = file(...ASK, '', `<!-- msglint-disable-next-line ${RULE} -- kept for the export -->`, '[^7]: [markdown]');
      expect(check(t, { reportUnusedDisableDirectives: true })).toEqual([]);
    });

    it('disable-line at the end of the metadata line suppresses it', () => {
      const t = file(...ASK, '', `[^7]: [markdown] <!-- msglint-disable-line ${RULE} -->`);
      expect(check(t, { reportUnusedDisableDirectives: true })).toEqual([]);
    });
  });
});
