import { describe, expect, it } from 'vitest';
import { check, checkRule, file } from '../helpers.js';
import { generateMessageFile, VALID_FILES } from '../llm-view/examples.js';

const ID = 'context-window';
const words = (n: number): string => Array.from({ length: n }, (_, i) => `word${i % 10}`).join(' ');

/** A question of `n` words and an answer, for an agent with the given context window. */
const chat = (window: number, n: number, extra: string[] = [], replyAttrs = ''): string =>
  file(
    '---',
    'agents:',
    '  coder:',
    '    models: [gpt-4o]',
    `    context_window: ${window}`,
    '---',
    '',
    '# %% Question[^1]',
    '',
    '[^1]: [markdown]',
    '',
    words(n),
    '',
    ...extra,
    '# %%% Answer[^2]',
    '',
    `[^2]: [coder]${replyAttrs}`,
    '',
    'Done.',
  );

describe(ID, () => {
  for (const [what, text, fileName] of VALID_FILES) {
    it(`reports nothing on ${what}`, () => expect(checkRule(ID, text, { fileName })).toEqual([]));
  }

  it('accepts a conversation that fits', () => {
    expect(check(chat(1000, 100))).toEqual([]);
  });

  it('reports the first reply that does not fit, at its agent type', () => {
    const f = check(chat(100, 200));
    expect(f.map((x) => [x.ruleId, x.text, x.line])).toEqual([[ID, 'coder', 16]]);
    expect(f[0]!.diagnostic.severity).toBe(1);
    expect(f[0]!.message).toMatch(/about [\d,]+ tokens \(estimated\), more than the 100-token context window of `coder`/);
    expect(f[0]!.diagnostic.related?.[0]!.range.start.line).toBe(4);
  });

  it('counts only what is in the LLM view', () => {
    const excluded = ['# %% Old[^0]', '', '[^0]: [markdown] history=exclude', '', words(400), ''];
    expect(checkRule(ID, chat(300, 100, excluded))).toEqual([]);
    const included = ['# %% Old[^0]', '', '[^0]: [markdown]', '', words(400), ''];
    expect(checkRule(ID, chat(300, 100, included))).toHaveLength(1);
    const summarized = ['# %% Old[^0]', '', '[^0]: [markdown] history=summary summary="an old question"', '', words(400), ''];
    expect(checkRule(ID, chat(300, 100, summarized))).toEqual([]);
  });

  it('counts the system prompt of the reply agent', () => {
    const text = (prompt: number): string =>
      file('---', 'agents:', '  coder:', `    context_window: 150`, `    system_prompt: ${words(prompt)}`, '---', '', '# %% Q[^1]', '', '[^1]: [markdown]', '', words(50), '', '# %%% A[^2]', '', '[^2]: [coder]', '', 'Done.');
    expect(checkRule(ID, text(10))).toEqual([]);
    expect(checkRule(ID, text(200))).toHaveLength(1);
  });

  it('reports once per agent, counting the later replies that do not fit either', () => {
    const more = ['# %%% More[^3]', '', '[^3]: [coder]', '', 'Still here.', '', '# %%% Again[^4]', '', '[^4]: [coder]', '', 'And again.', ''];
    const f = checkRule(ID, chat(100, 200, more));
    expect(f).toHaveLength(1);
    // The first reply past the window is `3` (line 16); `4` and `2` come after it.
    expect(f[0]!.line).toBe(16);
    expect(f[0]!.message).toContain('2 later replies');
  });

  it('uses the context window of a temporary agent', () => {
    const text = file('# %% Q[^1]', '', '[^1]: [markdown]', '', words(200), '', '[^fast]: [agent] context_window=100', '', '# %%% A[^2]', '', '[^2]: [fast]', '', 'Done.');
    expect(checkRule(ID, text).map((x) => x.text)).toEqual(['fast']);
  });

  it('ignores agents without a context window, and replies of other agents', () => {
    expect(checkRule(ID, file('---', 'agents:', '  coder: {}', '---', '', '# %% Q[^1]', '', '[^1]: [markdown]', '', words(5000), '', '# %%% A[^2]', '', '[^2]: [coder]', '', 'Done.'))).toEqual([]);
  });

  it('counts a binary output as a fixed number of tokens, not its base64 length', () => {
    const png = 'A'.repeat(40_000);
    const text = file(
      '---', 'agents:', '  coder:', '    context_window: 2000', '---', '',
      '# %% Plot[^1]', '', '[^1]: [code]', '', '```python', 'plot()', '```', '',
      '# %%% [^1.1]', '', '[^1.1]: [python] mime_type="image/png"', '', png, '',
      '# %%% A[^2]', '', '[^2]: [coder]', '', 'Nice plot.',
    );
    expect(check(text)).toEqual([]);
  });

  it('stays quiet on a large generated file under its 2,000,000-token window', () => {
    expect(checkRule(ID, generateMessageFile(300))).toEqual([]);
  });
});
