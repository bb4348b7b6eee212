import { describe, expect, it } from 'vitest';
import { check, checkRule } from '../helpers.js';
import { parse } from '../../server/syntax/document.js';
import { toolCallsOf } from '../../server/tool-calls/index.js';
import { ask, call, msg, reply, result, withCall, XML_READ } from '../tool-calls/helpers.js';

const R = 'tool-xml-structure';
const found = (body: string) => checkRule(R, withCall(body)).map((f) => [f.text, f.message]);

describe(R, () => {
  it('accepts the parts in any order, indented, with server_name and without arguments', () => {
    expect(check(withCall('<tool>\n  <arguments>\n    <path>app.py</path>\n  </arguments>\n  <tool_name>read_file</tool_name>\n  <server_name>local</server_name>\n</tool>'))).toEqual([]);
    expect(check(withCall('<tool><tool_name>read_file</tool_name></tool>'))).toEqual([]);
    expect(check(withCall('Reasoning first. <tool><tool_name>read_file</tool_name></tool> Then more.'))).toEqual([]);
  });

  it('reports a missing tool_name at <tool>', () => {
    expect(found('<tool>\n<server_name>local</server_name>\n<arguments></arguments>\n</tool>')).toEqual([['<tool>', '`<tool>` has no `<tool_name>`.']]);
  });

  it('reports an empty tool_name or server_name at the element', () => {
    expect(found('<tool>\n<tool_name>  </tool_name>\n</tool>')).toEqual([['<tool_name>', 'The `<tool_name>` is empty.']]);
    expect(found('<tool>\n<server_name/>\n<tool_name>read_file</tool_name>\n</tool>')).toEqual([['<server_name/>', expect.stringMatching(/server_name>` is empty/)]]);
  });

  it('reports a repeated part at the second one', () => {
    const r = checkRule(R, withCall('<tool>\n<tool_name>read_file</tool_name>\n<tool_name>read_file</tool_name>\n</tool>'));
    expect(r.map((f) => [f.text, f.line])).toEqual([['<tool_name>', 25]]);
    expect(r[0]!.diagnostic.related?.[0]?.range.start.line).toBe(23);
    expect(found('<tool>\n<tool_name>read_file</tool_name>\n<arguments/>\n<arguments/>\n</tool>').map((x) => x[0])).toEqual(['<arguments/>']);
  });

  it('reports another child element, and text directly inside <tool> or <arguments>', () => {
    expect(found('<tool>\n<tool_name>read_file</tool_name>\n<path>app.py</path>\n</tool>').map((x) => x[0])).toEqual(['<path>']);
    expect(found('<tool>\nI will read it.\n<tool_name>read_file</tool_name>\n</tool>').map((x) => x[0])).toEqual(['I will read it.']);
    expect(found('<tool>\n<tool_name>read_file</tool_name>\n<arguments>app.py</arguments>\n</tool>').map((x) => x[0])).toEqual(['app.py']);
    expect(found('<tool>not valid xml</tool>').map((x) => x[0])).toEqual(['<tool>', 'not valid xml']);
  });

  it('reports text beside elements in an argument', () => {
    expect(found('<tool>\n<tool_name>t</tool_name>\n<arguments>\n<file>name <path>a</path> more</file>\n</arguments>\n</tool>').map((x) => x[0])).toEqual(['name', 'more']);
  });

  it('reports elements inside tool_name', () => {
    expect(found('<tool>\n<tool_name><b>read_file</b></tool_name>\n</tool>').map((x) => x[0])).toEqual(['<b>']);
  });

  it('reports a tool call cell without <tool>, with a hint for a fenced one', () => {
    expect(found('I will read the file.')).toEqual([['[^2.k7f3q]', 'A tool call cell holds exactly one `<tool>` element; this one has none.']]);
    expect(found('```xml\n' + XML_READ + '\n```')).toEqual([['<tool', expect.stringMatching(/inside a fenced code block/)]]);
  });

  it('reports a second <tool> in a tool call cell, but not in an agent reply', () => {
    const r = checkRule(R, withCall(XML_READ + '\n\n' + XML_READ));
    expect(r.map((f) => [f.text, f.line])).toEqual([['<tool>', 30]]);
    const text = msg(ask(), reply('2', `[Two calls.]\n\n${XML_READ}\n\n${XML_READ}`), call(), result());
    expect(check(text)).toEqual([]);
  });

  it('does not check the shape of XML that is not well-formed', () => {
    expect(found('<tool>\n<tool_name>a & b</tool_name>\n<other/>\n</tool>')).toEqual([]);
  });

  describe('typed values', () => {
    const args = (inner: string) => `<tool>\n<tool_name>t</tool_name>\n<arguments>\n${inner}\n</arguments>\n</tool>`;
    const typed = (inner: string) => found(args(inner));

    it('accepts every type on values that fit it, and `<arguments type="json">` with any text', () => {
      const inner = [
        '<count type="number">-1.5e3</count>',
        '<flag type="boolean"> false </flag>',
        '<none type="null"/>',
        '<also type="null">  </also>',
        '<list type="array"><item>a</item></list>',
        '<empty type="array"/>',
        '<obj type="object"></obj>',
        '<files type="object"><file>x</file></files>',
      ].join('\n');
      expect(check(withCall(args(inner), 't'))).toEqual([]);
      for (const raw of ['<![CDATA[{"a": 1}]]>', '<![CDATA[not json]]>', '[1, 2]', '', '<![CDATA[{"a": "]]]]><![CDATA[>"}]]>']) {
        expect(check(withCall(`<tool><tool_name>t</tool_name><arguments type="json">${raw}</arguments></tool>`, 't'))).toEqual([]);
      }
    });

    it('reports an unknown type at its value, once, and reads the value as it would without it', () => {
      expect(typed('<count type="int">3</count>')).toEqual([['int', 'Unknown type `int` on `<count>`: a type is one of `number`, `boolean`, `null`, `array` or `object` (without one, the value is a string).']]);
      expect(typed('<count type="">3</count>').map((x) => x[0])).toEqual(['type=""']);
      expect(typed("<a type='Number'>x</a>").map((x) => x[0])).toEqual(['Number']);
    });

    it('reports a type on <arguments> other than json, and reads the arguments as elements', () => {
      expect(typed('<a type="numbr">1</a>').length).toBe(1);
      expect(found('<tool><tool_name>t</tool_name><arguments type="object"><a>1</a></arguments></tool>')).toEqual([
        ['object', '`<arguments>` takes only `type="json"` (the arguments as JSON text), not `type="object"`.'],
      ]);
    });

    it('reports `type="json"` with child elements at the first one, with the attribute as related information', () => {
      const r = checkRule(R, withCall('<tool><tool_name>t</tool_name>\n<arguments type="json">\n<a type="bad">1</a><b/>\n</arguments></tool>'));
      expect(r.map((f) => [f.text, f.message])).toEqual([['<a type="bad">', expect.stringMatching(/^`<arguments type="json">` holds the arguments as JSON text/)]]);
      expect(r[0]!.diagnostic.related?.[0]?.message).toBe('The type is declared here');
    });

    it('reports a value that does not fit its type at the value, or at the attribute when there is none', () => {
      expect(typed('<n type="number">1.</n>')).toEqual([['1.', '`<n type="number">` holds `1.`: a value of type `number` is a JSON number (`3`, `-1.5`, `2e10`).']]);
      expect(typed('<n type="number">+1</n>').map((x) => x[0])).toEqual(['+1']);
      expect(typed('<n type="number"><![CDATA[ 1]]></n>').map((x) => x[0])).toEqual(['<![CDATA[ 1]]>']);
      expect(typed('<n type="number"></n>')).toEqual([['type="number"', '`<n type="number">` holds nothing: a value of type `number` is a JSON number (`3`, `-1.5`, `2e10`).']]);
      expect(typed('<b type="boolean">True</b>')).toEqual([['True', '`<b type="boolean">` holds `True`: a value of type `boolean` is `true` or `false`.']]);
      expect(typed('<z type="null">null</z>')).toEqual([['null', '`<z type="null">` holds `null`: a value of type `null` is nothing (`<x type="null"/>`).']]);
      expect(typed('<n type="number"><v>1</v><w type="bad"/></n>')).toEqual([['<v>', '`<n type="number">` holds `<v>`: a value of type `number` is a JSON number (`3`, `-1.5`, `2e10`).']]);
      expect(typed('<l type="array">a <item>1</item> b</l>')).toEqual([
        ['a', '`<l type="array">` holds text: a value of type `array` is one child element per item, and no text.'],
        ['b', '`<l type="array">` holds text: a value of type `array` is one child element per item, and no text.'],
      ]);
      expect(typed('<o type="object">text</o>')).toEqual([['text', '`<o type="object">` holds text: a value of type `object` is child elements, and no text.']]);
    });

    it('reports a number a double does not hold, which the view would change (issue 46), and reads it as its text', () => {
      expect(typed('<id type="number">12345678901234567890</id>')).toEqual([
        ['12345678901234567890', '`<id type="number">` holds `12345678901234567890`, which a double (JSON\'s number in JavaScript and the SDKs) does not hold: it would be sent as `12345678901234567000`. Write it as a string (without `type`), or as a number a double holds.'],
      ]);
      expect(typed('<n type="number">1e999</n>')).toEqual([['1e999', expect.stringContaining('it would be sent as `null`.')]]);
      expect(typed('<n type="number">1e-400</n>').map((x) => x[0])).toEqual(['1e-400']);
      expect(typed('<n type="number">0.1000000000000000000001</n>').map((x) => x[0])).toEqual(['0.1000000000000000000001']);
      // Spelled otherwise, the same double: not reported.
      expect(typed('<a type="number">1.0</a><b type="number">1E2</b><c type="number">-0</c><d type="number">0.1</d><e type="number">12.50e1</e><f type="number">1.7976931348623157e308</f>')).toEqual([]);
      const info = toolCallsOf(parse(withCall(args('<id type="number">12345678901234567890</id><ok type="number">1.50</ok>'), 't'), { fileName: 'a.msg.md' }).cellsById.get('2.k7f3q')![0]!)[0]!;
      expect(info.arguments).toEqual({ id: '12345678901234567890', ok: 1.5 });
    });

    it('reports another attribute on an argument or <arguments> at the attribute, and none on the other elements', () => {
      expect(typed('<a kind="x" type="number">1</a>')).toEqual([['kind="x"', 'The attribute `kind` is not allowed on `<a>`: `type` is the only attribute of an argument.']]);
      expect(found('<tool id="1"><tool_name x="y">t</tool_name><arguments mode="raw"><a>1</a></arguments></tool>').map((x) => x[0])).toEqual(['mode="raw"']);
    });

    it('reports nothing else for a call with a typed-value problem (no cdata-recommended, no cascade)', () => {
      const text = withCall(args('<z type="null">line one\nline two</z>'), 't');
      expect(check(text).map((f) => f.ruleId)).toEqual([R]);
    });
  });
});
