// The reading of `<tool>` elements: values, spans, whitespace, lists, caching.
import { XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { parse, type Cell } from '../../server/syntax/document.js';
import { cdataSection, isListItemName, readXml, singularOf, toolCallsOf } from '../../server/tool-calls/index.js';
import { withCall } from './helpers.js';

const cellOf = (body: string): Cell => parse(withCall(body), { fileName: 't.msg.md' }).cells[2]!;
const read = (body: string) => {
  const cell = cellOf(body);
  return { cell, info: toolCallsOf(cell)[0]! };
};
const argsOf = (inner: string) => read(`<tool>\n<tool_name>t</tool_name>\n<arguments>\n${inner}\n</arguments>\n</tool>`).info.arguments;
const spanText = (cell: Cell, s: { start: number; end: number } | undefined): string | undefined => (s ? cell.text.slice(s.start, s.end) : undefined);

describe('toolCallsOf', () => {
  it('gives server, tool name, arguments and the spans of the tool name and the arguments', () => {
    const { cell, info } = read('<tool>\n<server_name> mcp-server </server_name>\n<tool_name>read_file</tool_name>\n<arguments>\n  <path>app.py</path>\n  <opts><depth>2</depth></opts>\n</arguments>\n</tool>');
    expect([info.form, info.serverName, info.server, info.toolName, info.ok]).toEqual(['xml', 'mcp-server', 'mcp-server', 'read_file', true]);
    expect(info.arguments).toEqual({ path: 'app.py', opts: { depth: '2' } });
    expect(spanText(cell, info.toolNameElement)).toBe('<tool_name>read_file</tool_name>');
    expect(spanText(cell, info.argumentsElement)).toMatch(/^<arguments>[\s\S]*<\/arguments>$/);
    expect(spanText(cell, info.toolNameText)).toBe('read_file');
    expect(spanText(cell, { start: info.element.start, end: info.element.end })).toMatch(/^<tool>[\s\S]*<\/tool>$/);
  });

  it('defaults the server to local and the arguments to {}', () => {
    const { info } = read('<tool><tool_name>t</tool_name></tool>');
    expect([info.serverName, info.server, info.arguments]).toEqual([undefined, 'local', {}]);
  });

  it('trims plain text, keeps every character of CDATA, and joins mixed runs', () => {
    expect(argsOf('<a>\n   two words \t\n</a>')).toEqual({ a: 'two words' });
    expect(argsOf('<a><![CDATA[  kept \n ]]></a>')).toEqual({ a: '  kept \n ' });
    expect(argsOf('<a>\n  <![CDATA[x]]>\n</a>')).toEqual({ a: 'x' });
    expect(argsOf('<a> a <![CDATA[ b ]]> c </a>')).toEqual({ a: 'a  b  c' });
    expect(argsOf('<a>&#32;x&#x20;</a>')).toEqual({ a: ' x ' });
    expect(argsOf('<a><![CDATA[a]]]]><![CDATA[>b]]></a>')).toEqual({ a: 'a]]>b' });
    expect(argsOf('<a>x<!-- note -->y</a>')).toEqual({ a: 'xy' });
  });

  it('normalizes line ends as XML does, except those written as references', () => {
    const cell = parse(withCall('<tool>\n<tool_name>t</tool_name>\n<arguments>\n<a><![CDATA[1\n2]]></a>\n<b>x&#13;y</b>\n</arguments>\n</tool>').replace(/\n/g, '\r\n')).cells[2]!;
    expect(toolCallsOf(cell)[0]!.arguments).toEqual({ a: '1\n2', b: 'x\ry' });
  });

  it('reads lists: repeated siblings, and items named after the singular of their parent or `item`', () => {
    expect(argsOf('<exclude>a</exclude><exclude>b</exclude><path>p</path>')).toEqual({ exclude: ['a', 'b'], path: 'p' });
    expect(argsOf('<files><file>a</file><file>b</file></files>')).toEqual({ files: ['a', 'b'] });
    expect(argsOf('<edits><edit><search>s</search></edit></edits>')).toEqual({ edits: [{ search: 's' }] });
    expect(argsOf('<entries><entry>1</entry></entries><addresses><address>x</address></addresses><data><item>1</item><item>2</item></data>')).toEqual({
      entries: ['1'],
      addresses: ['x'],
      data: ['1', '2'],
    });
    expect(argsOf('<point><x>1</x><y>2</y></point><pair><v>1</v><v>2</v></pair>')).toEqual({ point: { x: '1', y: '2' }, pair: { v: ['1', '2'] } });
    expect(argsOf('<a><item><item>1</item></item></a>')).toEqual({ a: [['1']] });
    expect(argsOf('<item>1</item>')).toEqual({ item: '1' });
  });

  it('reads typed values: numbers, booleans, null, lists and objects of any size', () => {
    expect(argsOf('<n type="number">-1.5e3</n><i type="number">12345678901234567890</i><b type="boolean">\n true \n</b><f type="boolean">false</f><z type="null"/><z2 type="null"></z2>')).toEqual({
      n: -1500,
      // A number a double does not hold is read as its text, and reported (tool-xml-structure; issue 46).
      i: '12345678901234567890',
      b: true,
      f: false,
      z: null,
      z2: null,
    });
    expect(argsOf('<one type="array"><x>a</x></one><none type="array"/><mixed type="array"><a>1</a><b type="number">2</b><c type="array"/></mixed>')).toEqual({
      one: ['a'],
      none: [],
      mixed: ['1', 2, []],
    });
    expect(argsOf('<files type="object"><file>x</file></files><empty type="object"/><deep type="object"><l type="array"><item type="object"/></l></deep>')).toEqual({
      files: { file: 'x' },
      empty: {},
      deep: { l: [{}] },
    });
    // Repeated typed siblings are a list, as untyped ones are.
    expect(argsOf('<p type="number">1</p><p type="number">2</p>')).toEqual({ p: [1, 2] });
    const { info } = read('<tool><tool_name>t</tool_name><arguments><n type="number">1</n><s>x</s></arguments></tool>');
    expect(info.arguments).toEqual({ n: 1, s: 'x' });
    expect(info.ok).toBe(true);
  });

  it('reads `<arguments type="json">`: the text as written, its value when it is JSON, the arguments when it is an object', () => {
    const raw = (inner: string) => read(`<tool><tool_name>t</tool_name><arguments type="json">${inner}</arguments></tool>`);
    const obj = raw('<![CDATA[ {"a": [1, {"b": null}], "a2": "x]]]]><![CDATA[>"} ]]>');
    expect(obj.info.rawArguments).toMatchObject({ text: ' {"a": [1, {"b": null}], "a2": "x]]>"} ', value: { a: [1, { b: null }], a2: 'x]]>' } });
    expect(obj.info.arguments).toEqual({ a: [1, { b: null }], a2: 'x]]>' });
    expect(spanText(obj.cell, obj.info.rawArguments)).toBe('<![CDATA[ {"a": [1, {"b": null}], "a2": "x]]]]><![CDATA[>"} ]]>');
    expect([obj.info.ok, obj.info.problems]).toEqual([true, []]);
    const list = raw('\n  [1, 2]\n');
    expect([list.info.rawArguments?.text, list.info.rawArguments?.value, list.info.arguments]).toEqual(['[1, 2]', [1, 2], {}]);
    const bad = raw('<![CDATA[{"a": ]]>');
    expect(bad.info.rawArguments).toEqual({ text: '{"a": ', start: expect.any(Number), end: expect.any(Number) });
    expect([bad.info.arguments, bad.info.ok]).toEqual([{}, true]);
    expect(raw('<![CDATA[null]]>').info.rawArguments?.value).toBeNull();
    expect(raw('').info.rawArguments).toMatchObject({ text: '' });
    expect('value' in raw('').info.rawArguments!).toBe(false);
  });

  it('reads a value that does not fit its type as text, and the element as if it had no unknown type', () => {
    expect(argsOf('<n type="number">ten</n><u type="integer">3</u><o type="object">t</o>')).toEqual({ n: 'ten', u: '3', o: {} });
  });

  it('keeps a `__proto__` argument as data', () => {
    const a = argsOf('<__proto__><polluted>yes</polluted></__proto__>');
    expect(Object.keys(a)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(a)).toBe(Object.prototype);
  });

  it('reads an argument with another attribute than `type` as before, and reports the attribute', () => {
    const { cell, info } = read('<tool>\n<tool_name>t</tool_name>\n<arguments>\n<a kind="x">1</a>\n</arguments>\n</tool>');
    expect(info.arguments).toEqual({ a: '1' });
    expect(info.problems.map((p) => [p.rule, spanText(cell, p)])).toEqual([['tool-xml-structure', 'kind="x"']]);
  });

  it('ignores attributes on `<tool>`, `<tool_name>` and `<server_name>` (the spec names none for them)', () => {
    const { info } = read('<tool id="1"><tool_name lang="en">t</tool_name><server_name x="y">s</server_name></tool>');
    expect([info.toolName, info.server, info.problems]).toEqual(['t', 's', []]);
  });

  it('reads the legacy form with its JSON values and spans', () => {
    const { cell, info } = read('<tool>\n  {"tool_name": "t", "arguments": {"n": 12345678901234567890, "b": false}}\n</tool>');
    expect([info.form, info.toolName, info.server, info.ok]).toEqual(['json', 't', 'local', true]);
    expect(info.arguments).toEqual({ n: 12345678901234567890, b: false });
    expect(spanText(cell, info.legacy!.span)).toBe('{"tool_name": "t", "arguments": {"n": 12345678901234567890, "b": false}}');
    // The rewrite keeps the number as it is spelled.
    expect('body' in info.legacy!.rewrite && info.legacy!.rewrite.body).toContain('<n type="number">12345678901234567890</n>');
  });

  it('reads each cell text once', () => {
    const text = withCall('<tool><tool_name>t</tool_name></tool>');
    const a = parse(text);
    const b = parse(text.replace('Please read app.py.', 'Please read it.'), { previous: a });
    expect(toolCallsOf(b.cells[2]!)).toBe(toolCallsOf(a.cells[2]!));
    expect(toolCallsOf(a.cells[0]!)).toEqual([]);
  });
});

describe('readXml', () => {
  it('reports the first error only and stops', () => {
    const s = '<tool><a>x & y</a><b>1 < 2</b></tool>';
    const r = readXml(s, 0, s.length);
    expect(r.error?.start).toBe(s.indexOf('&'));
    expect(r.error?.cause).toBe('amp');
  });

  it('agrees with fast-xml-parser on well-formed input', () => {
    const samples = [
      '<tool>\n<tool_name>t</tool_name>\n<arguments><a x="1">&amp;&lt;&#65;</a><b/><!-- c --><?pi x?></arguments>\n</tool>',
      '<tool><a><![CDATA[<x> & ]]]]><![CDATA[>]]></a></tool>',
    ];
    for (const s of samples) {
      expect(readXml(s, 0, s.length).error).toBeUndefined();
      expect(XMLValidator.validate(s)).toBe(true);
    }
  });

});

describe('writing helpers', () => {
  it('names list items after the singular of their key', () => {
    expect(['files', 'entries', 'addresses', 'boxes', 'status', 'data', 's', 'analysis'].map(singularOf)).toEqual(['file', 'entry', 'address', 'box', 'item', 'item', 'item', 'item']);
    expect(isListItemName('edit', 'edits')).toBe(true);
    expect(isListItemName('item', 'whatever')).toBe(true);
    expect(isListItemName('x', 'point')).toBe(false);
  });

  it('splits ]]> across CDATA sections', () => {
    expect(cdataSection('a]]>b]]>')).toBe('<![CDATA[a]]]]><![CDATA[>b]]]]><![CDATA[>]]>');
  });
});
