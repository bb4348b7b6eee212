// Our XML reader is stricter than fast-xml-parser's validator: whatever it
// accepts, the validator accepts. That is why the linter does not also run
// the validator on every tool call (it did, as a second opinion that never
// fired, for about 2% of the time of a long file).
import { XMLValidator } from 'fast-xml-parser';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readXml } from '../../server/tool-calls/index.js';

const name = fc.constantFrom('a', 'tool_name', 'x-y', 'p.q', 'b1', '_', '1a', 'a:b', '-', 'é');
const text = fc.constantFrom('t', ' ', '\n', '&amp;', '&lt;', '&#65;', '&#x41;', '&nbsp;', '&', '<', '>', ']]>', '"', "'", '&#0;', '\u0001', '😀', '\r\n');
const attr = fc.tuple(name, fc.constantFrom('"1"', "'2'", '"a<b"', '"&amp;"', '1', '""', '"x" y="z"')).map(([n, v]) => ` ${n}=${v}`);
const node: fc.Arbitrary<string> = fc.letrec((tie) => ({
  node: fc.oneof(
    { weight: 4, arbitrary: text },
    { weight: 1, arbitrary: fc.constantFrom('<![CDATA[ <x> & ]]>', '<!-- c -->', '<!-- a -- b -->', '<?pi x?>', '<b/>', '<br />', '</x>', '<![CDATA[', '<!DOCTYPE x>') },
    {
      weight: 2,
      arbitrary: fc.tuple(name, fc.array(attr, { maxLength: 2 }), fc.array(tie('node'), { maxLength: 4 }), fc.boolean()).map(
        ([n, attrs, children, closeRight]) => `<${n}${attrs.join('')}>${children.join('')}</${closeRight ? n : 'z'}>`,
      ),
    },
  ),
})).node;

describe('readXml', () => {
  it('accepts nothing that fast-xml-parser rejects', () => {
    let accepted = 0;
    fc.assert(
      fc.property(fc.array(node, { maxLength: 5 }), (children) => {
        const s = `<tool>${children.join('')}</tool>`;
        const r = readXml(s, 0, s.length);
        if (r.error || r.unterminatedCdata || r.placeholders.length) return;
        accepted++;
        expect(XMLValidator.validate(s), s).toBe(true);
      }),
      { numRuns: 3000 },
    );
    // The property is about accepted input: make sure there was plenty.
    expect(accepted).toBeGreaterThan(300);
  });
});
