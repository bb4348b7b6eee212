import { describe, expect, it } from 'vitest';
import { applyFix, check, checkRule, fixText } from '../helpers.js';
import { ask, msg, reply, toolFindings, withCall } from '../tool-calls/helpers.js';
import { parse } from '../../server/syntax/document.js';
import { toolCallsOf } from '../../server/tool-calls/index.js';

const R = 'legacy-json-tool-call';
const infoOf = (text: string, cell = 2) => toolCallsOf(parse(text).cells[cell]!)[0]!;

describe(R, () => {
  it('reads the legacy form and reports it as deprecated at the JSON', () => {
    const json = '{\n  "server_name": "local",\n  "tool_name": "read_file",\n  "arguments": {"path": "app.py"}\n}';
    const text = withCall(`<tool>\n${json}\n</tool>`);
    const found = toolFindings(text);
    expect(found.map((f) => [f.ruleId, f.text, f.line])).toEqual([[R, json, 24]]);
    expect(found[0]!.diagnostic.tags).toEqual([2]);
    expect(found[0]!.diagnostic.severity).toBe(1);
    const info = infoOf(text);
    expect([info.form, info.server, info.toolName, info.arguments]).toEqual(['json', 'local', 'read_file', { path: 'app.py' }]);
  });

  it('rewrites to the XML form of the spec', () => {
    const text = withCall('<tool>\n{\n  "server_name": "local",\n  "tool_name": "read_file",\n  "arguments": {"path": "app.py"}\n}\n</tool>');
    const fixed = applyFix(text, checkRule(R, text)[0]!.diagnostic);
    expect(fixed).toBe(withCall('<tool>\n<server_name>local</server_name>\n<tool_name>read_file</tool_name>\n<arguments>\n  <path>app.py</path>\n</arguments>\n</tool>'));
    expect(check(fixed)).toEqual([]);
    expect(fixText(text)).toBe(fixed);
    expect(fixText(fixed)).toBe(fixed);
  });

  it('writes CDATA, lists, nested objects, and typed numbers, booleans, null, lists and objects', () => {
    const args = {
      path: 'a.go',
      content: 'if a < b && c {\n\treturn "]]>"\n}\n',
      files: [{ path: 'x', mode: 420 }, { path: 'y', mode: 1e21 }],
      entries: ['one'],
      options: { recursive: true, depth: -1.5, filter: null, empty: '', none: [], opts: {} },
      note: '  padded  ',
      box: { boxes: [[1], []] },
      only: { item: 'x' },
    };
    const text = withCall(`<tool>{"tool_name": "write", "arguments": ${JSON.stringify(args)}}</tool>`, 'write');
    const fixed = fixText(text);
    expect(fixed).toBe(
      withCall(
        [
          '<tool>',
          '<tool_name>write</tool_name>',
          '<arguments>',
          '  <path>a.go</path>',
          '  <content><![CDATA[if a < b && c {\n\treturn "]]]]><![CDATA[>"\n}\n]]></content>',
          '  <files type="array">',
          '    <file>',
          '      <path>x</path>',
          '      <mode type="number">420</mode>',
          '    </file>',
          '    <file>',
          '      <path>y</path>',
          '      <mode type="number">1e+21</mode>',
          '    </file>',
          '  </files>',
          '  <entries type="array">',
          '    <entry>one</entry>',
          '  </entries>',
          '  <options>',
          '    <recursive type="boolean">true</recursive>',
          '    <depth type="number">-1.5</depth>',
          '    <filter type="null"/>',
          '    <empty></empty>',
          '    <none type="array"/>',
          '    <opts type="object"/>',
          '  </options>',
          '  <note><![CDATA[  padded  ]]></note>',
          '  <box>',
          '    <boxes type="array">',
          '      <box type="array">',
          '        <item type="number">1</item>',
          '      </box>',
          '      <box type="array"/>',
          '    </boxes>',
          '  </box>',
          '  <only type="object">',
          '    <item>x</item>',
          '  </only>',
          '</arguments>',
          '</tool>',
        ].join('\n'),
        'write',
      ),
    );
    expect(check(fixed)).toEqual([]);
    expect(infoOf(fixed).arguments).toEqual(args);
  });

  it('rewrites an inline call in place, and keeps the indentation of an indented one', () => {
    const inline = withCall('Some text <tool>{"tool_name": "test"}</tool> more text', 'test');
    expect(fixText(inline)).toBe(withCall('Some text <tool>\n<tool_name>test</tool_name>\n</tool> more text', 'test'));
    const indented = withCall('  <tool>{"tool_name": "t", "arguments": {"a": {"b": "c"}}}</tool>', 't');
    expect(fixText(indented)).toBe(withCall('  <tool>\n  <tool_name>t</tool_name>\n  <arguments>\n    <a>\n      <b>c</b>\n    </a>\n  </arguments>\n  </tool>', 't'));
  });

  it('writes an empty arguments object and leaves absent arguments out', () => {
    expect(fixText(withCall('<tool>{"tool_name": "t", "arguments": {}}</tool>', 't'))).toContain('<tool_name>t</tool_name>\n<arguments></arguments>\n</tool>');
  });

  it('uses the line ends of the file', () => {
    const text = withCall('<tool>{"tool_name": "t", "arguments": {"c": "a\\nb"}}</tool>', 't').replace(/\n/g, '\r\n');
    const fixed = fixText(text);
    expect(fixed).toContain('<tool>\r\n<tool_name>t</tool_name>\r\n<arguments>\r\n  <c><![CDATA[a\r\nb]]></c>\r\n</arguments>\r\n</tool>');
    expect(infoOf(fixed).arguments).toEqual({ c: 'a\nb' });
  });

  it('writes a carriage return in a string as `&#13;` between CDATA sections', () => {
    const text = withCall('<tool>{"tool_name": "t", "arguments": {"s": "a\\r\\nb\\r"}}</tool>', 't');
    const fixed = fixText(text);
    expect(fixed).toContain('  <s><![CDATA[a]]>&#13;<![CDATA[\nb]]>&#13;</s>');
    expect(check(fixed)).toEqual([]);
    expect(infoOf(fixed).arguments).toEqual({ s: 'a\r\nb\r' });
  });

  it('keeps the JSON text, in `<arguments type="json">`, of arguments that elements cannot hold', () => {
    const cases = ['{"my key": 1}', '{"1st": [1, 2]}', '{"a:b": {"c": null}}', '{"ok": {"": true}}', '{"s": "a\\u0001b"}', '{"a": 1, "a": 2}', '{\n  "x y": "]]>"\n}'];
    for (const json of cases) {
      const text = withCall(`<tool>{"tool_name": "t", "arguments": ${json}}</tool>`, 't');
      const fixed = fixText(text);
      expect(check(fixed)).toEqual([]);
      const info = infoOf(fixed);
      expect(info.rawArguments?.text).toBe(json);
      expect(info.arguments).toEqual(JSON.parse(json));
      expect(info.arguments).toEqual(infoOf(text).arguments);
    }
    expect(fixText(withCall('<tool>{"tool_name": "t", "arguments": {"my key": "]]>"}}</tool>', 't'))).toContain(
      '<arguments type="json"><![CDATA[{"my key": "]]]]><![CDATA[>"}]]></arguments>',
    );
  });

  it('reports without a fix what XML cannot hold even as JSON text', () => {
    const cases: [string, RegExp][] = [
      ['{"s": "a\uFFFEb", "ky": 1}', /No automatic rewrite: a string holds the character U\+FFFE, which XML cannot hold, and the JSON text holds the character U\+FFFE/],
      ['{"s": "a\uFFFFb"}', /U\+FFFF/],
    ];
    for (const [json, why] of cases) {
      const text = withCall(`<tool>{"tool_name": "t", "arguments": ${json}}</tool>`, 't');
      const found = checkRule(R, text);
      expect(found).toHaveLength(1);
      expect(found[0]!.diagnostic.fix).toBeUndefined();
      expect(found[0]!.message).toMatch(why);
      expect(found[0]!.message).toMatch(/No automatic rewrite/);
    }
    const badName = checkRule(R, withCall('<tool>{"tool_name": "t\\u0001"}</tool>', 't'));
    expect(badName[0]!.message).toMatch(/No automatic rewrite: a string holds the character U\+0001/);
  });

  it('reports legacy calls in agent replies too', () => {
    const text = msg(ask(), reply('2', '[Calling.]\n\n<tool>{"tool_name": "t"}</tool>'));
    expect(toolFindings(text).map((f) => f.ruleId)).toEqual([R]);
    expect(fixText(text)).toContain('<tool>\n<tool_name>t</tool_name>\n</tool>');
  });
});
