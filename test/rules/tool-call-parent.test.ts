import { describe, expect, it } from 'vitest';
import { check, checkRule } from '../helpers.js';
import { ask, call, msg, reply, result } from '../tool-calls/helpers.js';

const R = 'tool-call-parent';

describe(R, () => {
  it('accepts a call whose parent is an earlier agent reply, also after other calls', () => {
    const text = msg(ask(), reply(), call('2.k7f3q'), result('2.k7f3q.1'), call('2.m2x9a'), result('2.m2x9a.1'));
    expect(check(text)).toEqual([]);
  });

  it('reports a parent that is no cell, at the PARENT segment', () => {
    const text = msg(ask(), reply(), call('9.k7f3q'), result('9.k7f3q.1'));
    const found = checkRule(R, text);
    expect(found.map((f) => [f.text, f.line])).toEqual([['9', 19]]);
    expect(found[0]!.message).toMatch(/No cell has the id `9`/);
  });

  it('reports a parent that is a message cell', () => {
    const text = msg(ask(), reply(), call('1.k7f3q'), result('1.k7f3q.1'));
    const found = checkRule(R, text);
    expect(found.map((f) => f.text)).toEqual(['1']);
    expect(found[0]!.message).toMatch(/is a message cell, not an agent reply/);
    expect(found[0]!.diagnostic.related?.[0]?.range.start.line).toBe(6);
  });

  it('reports a parent that comes after the call', () => {
    const text = msg(ask(), reply('2'), call('3.k7f3q'), result('3.k7f3q.1'), reply('3', 'Done.'));
    const found = checkRule(R, text);
    expect(found.map((f) => f.text)).toEqual(['3']);
    expect(found[0]!.message).toMatch(/comes after it \(line 37\)/);
  });

  it('reports a parent that is a code cell', () => {
    const text = msg(ask(), reply(), call('2.k7f3q'), result('2.k7f3q.1'), ['# %% Run[^5]', '', '[^5]: [code]', '', '```python', 'print(1)', '```', ''], call('5.abcd'), result('5.abcd.1'));
    const found = checkRule(R, text);
    expect(found.map((f) => f.text)).toEqual(['5']);
  });

  it('leaves a reply whose agent is unknown to unknown-agent', () => {
    const text = msg(ask(), ['# %%% Plan[^2]', '', '[^2]: [koder]', '', 'Thinking.', ''], call(), result());
    expect(checkRule(R, text)).toEqual([]);
    expect(checkRule('unknown-agent', text)).toHaveLength(1);
  });
});
