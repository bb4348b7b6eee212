// unknown-agent: an output cell whose type is not a defined agent, `tool` or a
// code output language (spec sections 5 and 7).
import { describe, expect, it } from 'vitest';
import { applyFix, check, checkRule, file, fixText } from '../helpers.js';

const RULE = 'unknown-agent';
const FM = ['---', 'agents:', '  coder:', '    models: [gpt-4o]', '  reviewer:', '    models: [o3]', 'default_agent: coder', '---', ''];
const ASK = ['# %% Ask[^1]', '', '[^1]: [markdown]', '', 'Hi.', ''];
/** A file with frontmatter agents and a reply of the given type at line 16. */
const reply = (type: string, before: string[] = FM) => file(...before, ...ASK, '# %%% Reply[^2]', '', `[^2]: [${type}]`, '', 'Hello.');
const TYPE_LINE = 18;

describe('unknown-agent', () => {
  describe('valid types', () => {
    it('accepts a frontmatter agent', () => {
      expect(check(reply('coder'))).toEqual([]);
      expect(check(reply('reviewer'))).toEqual([]);
    });

    it('accepts a temporary agent declared earlier', () => {
      const t = reply('fast', ['[^fast]: [agent] models="gpt-4o-mini"', '']);
      expect(check(t)).toEqual([]);
    });

    it('accepts an agent named in the configuration', () => {
      expect(check(reply('helper', []), { config: { agents: ['helper'] } })).toEqual([]);
    });

    it('accepts common languages and languages added in the configuration', () => {
      const out = (type: string) => file('# %% Run[^3]', '', '[^3]: [code]', '', '```julia', 'println(1)', '```', '', '# %%% [^3.1]', '', `[^3.1]: [${type}]`, '', 'stdout> 1');
      expect(check(out('julia'))).toEqual([]);
      const zig = file('# %% Run[^3]', '', '[^3]: [code]', '', '```zig', 'x', '```', '', '# %%% [^3.1]', '', '[^3.1]: [zig]', '', 'stdout> 1');
      expect(check(zig)).toEqual([]);
      expect(checkRule(RULE, reply('cobol', []))).toHaveLength(1);
      expect(checkRule(RULE, reply('cobol', []), { config: { languages: ['cobol'] } })).toEqual([]);
    });
  });

  it('reports an undefined agent at the type, as an error', () => {
    const found = check(reply('helper'));
    expect(found.map((f) => [f.ruleId, f.line, f.column, f.text])).toEqual([[RULE, TYPE_LINE, 8, 'helper']]);
    expect(found[0]!.message).toBe(
      "`helper` is not a defined agent, `tool`, or a code output language. Define it in the frontmatter's `agents` or with `[^helper]: [agent]`.",
    );
    expect(found[0]!.diagnostic.severity).toBe(2);
    expect(found[0]!.diagnostic.suggestions).toBeUndefined();
  });

  it('suggests the closest agent for a typo, without fixing it', () => {
    const t = reply('codr');
    const [f] = checkRule(RULE, t);
    expect(f!.diagnostic.fix).toBeUndefined();
    expect(f!.diagnostic.suggestions!.map((s) => s.desc)).toEqual(['Change the type to the agent `coder`']);
    expect(applyFix(t, f!.diagnostic, 0)).toBe(reply('coder'));
    expect(fixText(t)).toBe(t);
  });

  it('explains a temporary agent declared after the reply', () => {
    const t = file(...ASK, '# %%% Reply[^2]', '', '[^2]: [fast]', '', 'Hello.', '', '[^fast]: [agent] models="gpt-4o-mini"');
    const found = check(t);
    expect(found.map((f) => [f.ruleId, f.line, f.text])).toEqual([[RULE, 9, 'fast']]);
    expect(found[0]!.message).toBe('The agent `fast` is declared later in the file (line 13); a temporary agent can only answer after its declaration.');
  });

  it('explains a message type on an output cell', () => {
    const found = checkRule(RULE, reply('markdown'));
    expect(found.map((f) => f.message)).toEqual([
      '`markdown` is the type of a message cell, but this is an output cell (`%%%`): write the marker with `%%`, or use an agent, `tool` or a language as the type.',
    ]);
  });

  it('explains `agent` as the type of a cell', () => {
    expect(checkRule(RULE, reply('agent'))[0]!.message).toBe(
      '`agent` declares a temporary agent and cannot be the type of a cell: use the name of an agent, `tool` or a language.',
    );
  });

  it('leaves `# %%%%` with a message type to cell-marker', () => {
    const t = file('# %%%% Question[^1]', '', '[^1]: [markdown]', '', 'Hi.');
    expect(check(t).map((f) => f.ruleId)).toEqual(['cell-marker']);
  });

  it('does not check message cells (cell-type does)', () => {
    expect(check(file('# %% Ask[^1]', '', '[^1]: [helper]', '', 'Hi.')).map((f) => f.ruleId)).toEqual(['cell-type']);
  });

  it('reports in a CRLF file at the same place', () => {
    const t = reply('helper').replace(/\n/g, '\r\n');
    expect(checkRule(RULE, t).map((f) => [f.line, f.column, f.text])).toEqual([[TYPE_LINE, 8, 'helper']]);
  });

  describe('disable comments', () => {
    it('disable-file for this rule suppresses it', () => {
      const t = file(`<!-- msglint-disable-file ${RULE} -- agents come from the team config -->`, '', ...ASK, '# %%% Reply[^2]', '', '[^2]: [helper]', '', 'Hello.');
      expect(check(t, { reportUnusedDisableDirectives: true })).toEqual([]);
    });

    it('disable-line on the metadata line suppresses it', () => {
      const t = file(...ASK, '# %%% Reply[^2]', '', `[^2]: [helper] <!-- msglint-disable-line ${RULE} -->`, '', 'Hello.');
      expect(check(t, { reportUnusedDisableDirectives: true })).toEqual([]);
    });
  });
});
