// Our XML reader is stricter than fast-xml-parser's validator: whatever it
// accepts, the validator accepts. That is why the linter does not also run
// the validator on every tool call (it did, as a second opinion that never
// fired, for about 2% of the time of a long file). And on what it accepts,
// it reads the attributes fast-xml-parser's parser reads (the `type` of
// typed argument values, spec section 8), names and decoded values.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readXml, type XmlElement } from '../../server/tool-calls/index.js';

const name = fc.constantFrom('a', 'tool_name', 'x-y', 'p.q', 'b1', '_', '1a', 'a:b', '-', 'é');
const text = fc.constantFrom('t', ' ', '\n', '&amp;', '&lt;', '&#65;', '&#x41;', '&nbsp;', '&', '<', '>', ']]>', '"', "'", '&#0;', '\u0001', '😀', '\r\n');
const attr = fc
  .tuple(name, fc.constantFrom('"1"', "'2'", '"a<b"', '"&amp;"', '1', '""', '"x" y="z"', '"number"', "'a &lt;&#65; b'", '"&quot;q&apos;"', '"a\tb"'))
  .map(([n, v]) => ` ${n}=${v}`);
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

const parser = new XMLParser({ preserveOrder: true, ignoreAttributes: false, attributeNamePrefix: '', parseAttributeValue: false, processEntities: true, htmlEntities: true, parseTagValue: false, trimValues: false });
type Node = Record<string, unknown>;

/** Each element's attributes as [name, value], in document order, by fast-xml-parser. */
function oracleAttributes(nodes: Node[], out: [string, string][][]): void {
  for (const n of nodes) {
    const tag = Object.keys(n).find((k) => k !== ':@' && k !== '#text' && k !== '#cdata' && k !== '?pi' && !k.startsWith('?'));
    if (!tag) continue;
    // fast-xml-parser leaves out XML's attribute-value normalization (a literal tab or line break is a space).
    out.push(Object.entries((n[':@'] as Record<string, string> | undefined) ?? {}).map(([k, v]): [string, string] => [k, v.replace(/\r\n|[\t\n\r]/g, ' ')]));
    oracleAttributes(n[tag] as Node[], out);
  }
}

/** The same by readXml. */
function ourAttributes(el: XmlElement, out: [string, string][][]): void {
  out.push(el.attributes.map((a) => [a.name, a.value]));
  for (const c of el.children) ourAttributes(c, out);
}

describe('readXml attributes', () => {
  it('reads the attributes fast-xml-parser reads, with their values decoded and their spans exact', () => {
    let withAttributes = 0;
    fc.assert(
      fc.property(fc.array(node, { maxLength: 5 }), fc.array(attr, { maxLength: 2 }), (children, rootAttrs) => {
        const s = `<tool${rootAttrs.join('')}>${children.join('')}</tool>`;
        const r = readXml(s, 0, s.length);
        if (r.error || r.unterminatedCdata || r.placeholders.length || s.includes('<!--') || s.includes('<?')) return;
        const ours: [string, string][][] = [];
        ourAttributes(r.root!, ours);
        const theirs: [string, string][][] = [];
        oracleAttributes(parser.parse(s) as Node[], theirs);
        expect(ours, s).toEqual(theirs);
        const walk = (el: XmlElement): void => {
          for (const a of el.attributes) {
            expect(s.slice(a.start, a.end)).toMatch(new RegExp(`^${a.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*=\\s*(["'])[^]*\\1$`));
            expect(s[a.valueStart - 1]).toBe(s[a.valueEnd]);
          }
          el.children.forEach(walk);
        };
        walk(r.root!);
        if (ours.some((a) => a.length)) withAttributes++;
      }),
      { numRuns: 3000 },
    );
    expect(withAttributes).toBeGreaterThan(200);
  });
});
