import { describe, expect, it } from 'vitest';
import { check, checkRule } from '../helpers.js';
import { ask, call, msg, reply, result } from '../tool-calls/helpers.js';

const R = 'tool-call-nonce';
const withId = (nonce: string): string => msg(ask(), reply(), call(`2.${nonce}`), result(`2.${nonce}.1`));

describe(R, () => {
  it('accepts nonces of 4 or more characters of a-z 0-9 that are not all digits', () => {
    for (const n of ['k7f3q', 'abcd', '0a1b', 'zzzzzzzzzzzz']) expect(check(withId(n))).toEqual([]);
  });

  it('reports a short nonce at the nonce', () => {
    const found = checkRule(R, withId('ab1'));
    expect(found.map((f) => [f.text, f.line, f.column])).toEqual([['ab1', 19, 21]]);
    expect(found[0]!.message).toMatch(/3 characters long/);
    expect(found[0]!.diagnostic.severity).toBe(1);
  });

  it('reports a nonce made only of digits', () => {
    const found = checkRule(R, withId('12345'));
    expect(found.map((f) => f.text)).toEqual(['12345']);
    expect(found[0]!.message).toMatch(/only of digits/);
  });

  it('reports characters outside a-z 0-9', () => {
    expect(checkRule(R, withId('K7F3Q')).map((f) => f.message)).toEqual([expect.stringMatching(/has `K`/)]);
    expect(checkRule(R, withId('k7_f3q')).map((f) => f.message)).toEqual([expect.stringMatching(/has `_`/)]);
  });

  it('reports a one-digit nonce of a cell typed as a tool call once', () => {
    const found = checkRule(R, withId('1'));
    expect(found.map((f) => f.text)).toEqual(['1']);
    expect(found[0]!.message).toMatch(/one character long/);
  });
});
