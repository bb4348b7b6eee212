import { describe, expect, it } from 'vitest';
import { check, checkRule } from '../helpers.js';
import { ask, call, msg, reply, result } from '../tool-calls/helpers.js';

const R = 'tool-result-orphan';

describe(R, () => {
  it('accepts results after their call', () => {
    expect(check(msg(ask(), reply(), call(), result('2.k7f3q.1'), result('2.k7f3q.2')))).toEqual([]);
  });

  it('reports a result of no call at PARENT.NONCE', () => {
    const text = msg(ask(), reply(), call(), result('2.k7f3q.1'), result('2.zzzz9.1'));
    const found = checkRule(R, text);
    expect(found.map((f) => [f.text, f.line, f.column])).toEqual([['2.zzzz9', 37, 21]]);
    expect(found[0]!.message).toMatch(/No tool call `2.zzzz9`/);
  });

  it('reports a result that comes before its call', () => {
    const text = msg(ask(), reply(), result('2.k7f3q.1'), call(), result('2.k7f3q.2'));
    const found = checkRule(R, text);
    expect(found.map((f) => f.text)).toEqual(['2.k7f3q']);
    expect(found[0]!.message).toMatch(/comes after this result \(line 26\)/);
    expect(checkRule('tool-result-sequence', text)).toEqual([]);
  });

  it('reports a result whose PARENT.NONCE is a code output', () => {
    const code = ['# %% Run[^5]', '', '[^5]: [code]', '', '```python', 'print(1)', '```', ''];
    const out = ['# %%% [^5.1]', '', '[^5.1]: [python]', '', 'stdout> 1', ''];
    const text = msg(ask(), reply(), call(), result(), code, out, result('5.1.1'));
    const found = checkRule(R, text);
    expect(found.map((f) => f.text)).toEqual(['5.1']);
    expect(found[0]!.message).toMatch(/is not a tool call/);
  });

  describe('after a malformed id (issue 34)', () => {
    // An agent reply whose id has too many segments: cell-id-syntax reports it, and it names nothing reliably.
    const malformed = (id = '7.a.b.c') => reply(id, '[A reply whose id is malformed.]');
    const orphans = (text: string) => checkRule(R, text).map((f) => f.text);

    it('stays silent where the malformed cell could be the missing call: after its PARENT, before the result', () => {
      expect(orphans(msg(ask(), reply(), call(), malformed(), result('2.zzzz9.1')))).toEqual([]);
    });

    it('reports a result when the malformed cell comes before the PARENT, so cannot be the call', () => {
      expect(orphans(msg(ask(), malformed(), reply(), call(), result('2.k7f3q.1'), result('2.zzzz9.1')))).toEqual(['2.zzzz9']);
    });

    it('reports a result whose PARENT no cell of the file is', () => {
      const text = msg(ask(), reply(), call(), malformed(), result('2.k7f3q.1'), result('9.zzzz9.1'));
      expect(orphans(text)).toEqual(['9.zzzz9']);
      expect(checkRule('cell-id-syntax', text)).toHaveLength(1);
    });
  });
});
