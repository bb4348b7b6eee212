import { describe, expect, it } from 'vitest';
import { applyFix, check, checkRule, fixText } from '../helpers.js';
import { ask, msg, reply, toolFindings, withCall } from '../tool-calls/helpers.js';
import { parse } from '../../server/syntax/document.js';
import { toolCallsOf } from '../../server/tool-calls/index.js';

const R = 'cdata-recommended';
const write = (content: string): string => withCall(`<tool>\n<tool_name>write_to_file</tool_name>\n<arguments>\n  <path>a.py</path>\n  <content>${content}</content>\n</arguments>\n</tool>`, 'write_to_file');
const argsOf = (text: string) => toolCallsOf(parse(text).cells[2]!)[0]!.arguments;

describe(R, () => {
  it('accepts one-line text and several lines in CDATA', () => {
    expect(check(write('print(1)'))).toEqual([]);
    expect(check(write('<![CDATA[def f():\n    return 1]]>'))).toEqual([]);
    expect(check(write('\n  print(1)\n'))).toEqual([]);
  });

  it('reports several plain lines at the text, as a warning', () => {
    const text = write('\ndef f():\n    return 1\n  ');
    const found = checkRule(R, text);
    expect(found.map((f) => [f.text, f.line, f.column])).toEqual([['def f():\n    return 1', 28, 1]]);
    expect(found[0]!.diagnostic.severity).toBe(1);
  });

  it('wraps the text in CDATA, keeping the value', () => {
    const text = write('\ndef f():\n    return 1\n  ');
    const fixed = applyFix(text, checkRule(R, text)[0]!.diagnostic);
    expect(fixed).toBe(write('\n<![CDATA[def f():\n    return 1]]>\n  '));
    expect(argsOf(fixed)).toEqual(argsOf(text));
    expect(check(fixed)).toEqual([]);
    expect(fixText(fixed)).toBe(fixed);
  });

  it('unescapes references when moving text into CDATA', () => {
    const text = write('if a &lt; b {\n  x &amp;&amp; y &#65; ]]&gt;\n}');
    const fixed = fixText(text);
    expect(fixed).toBe(write('<![CDATA[if a < b {\n  x && y A ]]]]><![CDATA[>\n}]]>'));
    expect(argsOf(fixed)).toEqual(argsOf(text));
    expect(argsOf(text)).toMatchObject({ content: 'if a < b {\n  x && y A ]]>\n}' });
  });

  it('keeps CRLF line ends as written', () => {
    const text = write('a\nb').replace(/\n/g, '\r\n');
    const fixed = fixText(text);
    expect(fixed).toContain('<content><![CDATA[a\r\nb]]></content>');
    expect(argsOf(fixed)).toEqual({ path: 'a.py', content: 'a\nb' });
  });

  it('reports, without a fix, text with a comment inside', () => {
    const text = write('a\n<!-- note -->\nb');
    const found = checkRule(R, text);
    expect(found).toHaveLength(1);
    expect(found[0]!.diagnostic.fix).toBeUndefined();
    expect(fixText(text)).toBe(text);
  });

  it('checks nested arguments and agent replies, not the tool name', () => {
    const body = '<tool>\n<tool_name>apply_diff</tool_name>\n<arguments>\n  <edits>\n    <edit>\n      <search>a\nb</search>\n    </edit>\n  </edits>\n</arguments>\n</tool>';
    expect(checkRule(R, withCall(body, 'apply_diff')).map((f) => f.text)).toEqual(['a\nb']);
    const text = msg(ask(), reply('2', body));
    expect(toolFindings(text).map((f) => f.ruleId)).toEqual([R]);
  });
});
