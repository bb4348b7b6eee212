import { describe, expect, it } from 'vitest';
import { check, checkRule } from '../helpers.js';
import { ask, call, msg, reply, result } from '../tool-calls/helpers.js';

const R = 'nonce-reused';

describe(R, () => {
  it('accepts distinct nonces', () => {
    expect(check(msg(ask(), reply(), call('2.k7f3q'), result('2.k7f3q.1'), call('2.p9d2w'), result('2.p9d2w.1')))).toEqual([]);
  });

  it('reports a nonce used again under another parent, pointing to the first use', () => {
    const text = msg(ask(), reply('2'), call('2.k7f3q'), result('2.k7f3q.1'), reply('3', 'Again.'), call('3.k7f3q'), result('3.k7f3q.1'));
    const found = checkRule(R, text);
    expect(found.map((f) => [f.text, f.line])).toEqual([['k7f3q', 43]]);
    expect(found[0]!.message).toMatch(/already used by the tool call `2.k7f3q` \(line 19\)/);
    expect(found[0]!.diagnostic.related?.[0]?.range.start.line).toBe(18);
  });

  it('leaves a repeated whole id to duplicate-id', () => {
    const text = msg(ask(), reply(), call('2.k7f3q'), result('2.k7f3q.1'), call('2.k7f3q'), result('2.k7f3q.2'));
    expect(checkRule(R, text)).toEqual([]);
    expect(checkRule('duplicate-id', text)).toHaveLength(1);
  });

  it('reports every later reuse', () => {
    const text = msg(ask(), reply('2'), call('2.k7f3q'), result('2.k7f3q.1'), reply('3', 'A.'), call('3.k7f3q'), result('3.k7f3q.1'), reply('4', 'B.'), call('4.k7f3q'), result('4.k7f3q.1'));
    expect(checkRule(R, text)).toHaveLength(2);
  });
});
