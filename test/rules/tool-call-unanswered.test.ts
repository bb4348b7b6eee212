import { describe, expect, it } from 'vitest';
import { check, checkRule } from '../helpers.js';
import { ask, call, msg, reply, result } from '../tool-calls/helpers.js';

const R = 'tool-call-unanswered';

describe(R, () => {
  it('accepts an answered call', () => {
    expect(check(msg(ask(), reply(), call(), result()))).toEqual([]);
  });

  it('accepts a call that is the last cell of the file (still running)', () => {
    expect(check(msg(ask(), reply(), call()))).toEqual([]);
  });

  it('accepts parallel calls at the end of the file (all still running)', () => {
    expect(check(msg(ask(), reply(), call('2.k7f3q'), call('2.p9d2w')))).toEqual([]);
  });

  it('reports a call with no result at its id', () => {
    const text = msg(ask(), reply(), call('2.k7f3q'), reply('3', 'I will answer without the file.'));
    const found = checkRule(R, text);
    expect(found.map((f) => [f.text, f.line, f.column])).toEqual([['2.k7f3q', 19, 19]]);
    expect(found[0]!.diagnostic.severity).toBe(1);
    expect(found[0]!.message).toMatch(/\[\^2\.k7f3q\.1\]/);
  });

  it('reports a call whose sibling was answered but it was not', () => {
    const text = msg(ask(), reply(), call('2.k7f3q'), call('2.p9d2w'), result('2.p9d2w.1'));
    expect(checkRule(R, text).map((f) => f.text)).toEqual(['2.k7f3q']);
  });

  it('does not count a result that comes before the call', () => {
    const text = msg(ask(), reply(), result('2.k7f3q.1'), call('2.k7f3q'), reply('3', 'Done.'));
    expect(checkRule(R, text).map((f) => f.text)).toEqual(['2.k7f3q']);
  });
});
