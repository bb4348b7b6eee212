import { describe, expect, it } from 'vitest';
import { file } from '../helpers.js';
import { parse } from '../../server/syntax/document.js';
import { agentInfoAt, agentInfos } from '../../server/agents/agents.js';

const text = file(
  '---',
  'agents:',
  '  coder:',
  '    models: [gpt-4o, 5]',
  '    context_window: 128000',
  '    temperature: 9',
  '    use_temperature: false',
  '  empty:',
  '---',
  '',
  '# %% Q[^1]',
  '',
  '[^1]: [markdown]',
  '',
  'Hi.',
  '',
  '[^fast]: [agent] context_window=4096 temperature=0.3 temperature=0.9 default=1',
  '[^mini]: [agent]',
);

describe('agentInfos', () => {
  const doc = parse(text, { fileName: 'a.msg.md', agents: ['team'] });
  const infos = agentInfos(doc);

  it('lists frontmatter and body agents in file order, not configuration ones', () => {
    expect(infos.map((i) => [i.def.name, i.def.source])).toEqual([
      ['coder', 'frontmatter'],
      ['empty', 'frontmatter'],
      ['fast', 'body'],
      ['mini', 'body'],
    ]);
  });

  it('keeps only valid settings, and the first of a repeated key', () => {
    expect(infos[0]!.settings).toEqual({ contextWindow: 128000, useTemperature: false });
    expect(infos[1]!.settings).toEqual({});
    expect(infos[1]!.notAMapping).toBe(false);
    expect(infos[2]!.settings).toEqual({ models: ['fast'], contextWindow: 4096, temperature: 0.3, isDefault: true });
    expect(infos[2]!.entries.map((e) => e.repeated ?? false)).toEqual([false, false, true, false]);
    expect(infos[3]!.settings).toEqual({ models: ['mini'] });
  });

  it('knows where each setting and list item is', () => {
    const models = infos[0]!.entries[0]!;
    expect(text.slice(...models.keyAt)).toBe('models');
    expect(text.slice(...models.valueAt)).toBe('[gpt-4o, 5]');
    expect(models.itemsAt!.map((r) => text.slice(...r))).toEqual(['gpt-4o', '5']);
    const t = infos[2]!.entries[1]!;
    expect(text.slice(...t.at)).toBe('temperature=0.3');
  });

  it('finds the agent a cell means at its offset', () => {
    expect(agentInfoAt(doc, 'coder', 0)?.def.name).toBe('coder');
    expect(agentInfoAt(doc, 'fast', 0)).toBeUndefined();
    expect(agentInfoAt(doc, 'fast', text.length)?.settings.contextWindow).toBe(4096);
    expect(agentInfoAt(doc, 'team', 0)).toBeUndefined();
  });
});
