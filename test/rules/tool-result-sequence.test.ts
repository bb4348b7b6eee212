import { describe, expect, it } from 'vitest';
import { check, checkRule } from '../helpers.js';
import { ask, call, msg, reply, result } from '../tool-calls/helpers.js';

const R = 'tool-result-sequence';
const results = (...ns: string[]): string => msg(ask(), reply(), call(), ...ns.map((n) => result(`2.k7f3q.${n}`)));

describe(R, () => {
  it('accepts 1, 2, 3 and results of several calls interleaved', () => {
    expect(check(results('1', '2', '3'))).toEqual([]);
    const text = msg(ask(), reply(), call('2.k7f3q'), call('2.p9d2w'), result('2.p9d2w.1'), result('2.k7f3q.1'), result('2.k7f3q.2'), result('2.p9d2w.2'));
    expect(check(text)).toEqual([]);
  });

  it('reports a gap at the number', () => {
    const found = checkRule(R, results('1', '3'));
    expect(found.map((f) => [f.text, f.line])).toEqual([['3', 37]]);
    expect(found[0]!.message).toMatch(/Result 3 .* where result 2 is expected/);
  });

  it('reports a first result that is not 1', () => {
    expect(checkRule(R, results('2')).map((f) => f.text)).toEqual(['2']);
  });

  it('reports results out of order, without cascading', () => {
    const found = checkRule(R, results('2', '1', '3'));
    expect(found.map((f) => f.text)).toEqual(['2', '1']);
    expect(found[1]!.message).toMatch(/Result 1 .* comes after result 2/);
  });

  it('leaves a repeated number (a repeated id) to duplicate-id and numbers that are not 1, 2, … to cell-id-syntax', () => {
    expect(checkRule(R, results('1', '1', '2'))).toEqual([]);
    expect(checkRule(R, results('1', '0', '2'))).toEqual([]);
    expect(checkRule('cell-id-syntax', results('1', '0', '2'))).toHaveLength(1);
  });
});
