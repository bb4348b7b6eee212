// nameAt reads ASCII names without the regular expression; wherever it
// starts, it must answer what the regular expression (XML 1.0's Name) does.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nameAt, nameAtByRegExp } from '../../server/tool-calls/xml.js';

// Characters on both sides of every boundary the fast path draws: ASCII name
// characters, ASCII ones that end a name, and non-ASCII ones that may start
// a name, may only continue one, or may not appear in one at all.
const CHARS = [
  'a', 'Z', '_', ':', '-', '.', '0', '9', ' ', '>', '/', '=', '"', '<', '\n', '\t', '@', '\u007f',
  'é', '\u00b7', '\u0300', '\u203f', '\u00d7', '\u00f7', '\u037e', '\u2070', '\u3001', '\ufffe',
  '\ud800\udc00', '\ud800', '\udc00', '😀',
];

function same(text: string, at: number): void {
  expect(nameAt(text, at)?.[0], JSON.stringify({ text, at })).toBe(nameAtByRegExp(text, at));
}

describe('nameAt', () => {
  it('answers as the regular expression on chosen names', () => {
    const texts = ['tool_name>', 'a:b-c.d9 x', 'x', '', '9a', '-a', '.a', 'é', 'aé', 'a\u00b7b', 'a\u00d7b', 'a😀', 'a\ud800', '\u0300a', 'a\u0300', 'ab\u037e'];
    for (const text of texts) for (let at = 0; at <= text.length; at++) same(text, at);
  });

  it('answers as the regular expression on random texts, from every position', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...CHARS), { maxLength: 12 }), (chars) => {
        const text = chars.join('');
        for (let at = 0; at <= text.length; at++) same(text, at);
      }),
      { numRuns: 3000 },
    );
  });
});
