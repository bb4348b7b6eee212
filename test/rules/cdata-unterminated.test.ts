import { describe, expect, it } from 'vitest';
import { checkRule } from '../helpers.js';
import { ask, call, msg, reply, result, toolFindings, withCall } from '../tool-calls/helpers.js';

const R = 'cdata-unterminated';

describe(R, () => {
  it('accepts closed CDATA sections, also over several lines and split ones', () => {
    expect(toolFindings(withCall('<tool>\n<tool_name>w</tool_name>\n<arguments>\n  <c><![CDATA[a\n# %% not a marker\n]]></c>\n  <d><![CDATA[x]]]]><![CDATA[>y]]></d>\n</arguments>\n</tool>', 'w'))).toEqual([]);
  });

  it('reports <![CDATA[ without ]]> at the opener, and nothing else about the call', () => {
    const text = withCall('<tool>\n<tool_name>w</tool_name>\n<arguments>\n  <c><![CDATA[if a < b {}</c>\n</arguments>\n</tool>', 'w');
    const found = toolFindings(text);
    expect(found.map((f) => [f.ruleId, f.text, f.line, f.column])).toEqual([[R, '<![CDATA[', 26, 6]]);
    expect(found[0]!.message).toBe('`<![CDATA[` has no `]]>` to end it.');
  });

  it('reports it in an unclosed <tool> as well', () => {
    const text = withCall('<tool>\n<tool_name>w</tool_name>\n<arguments>\n  <c><![CDATA[abc', 'w');
    expect(toolFindings(text).map((f) => [f.ruleId, f.text])).toEqual([
      ['tool-xml', '<tool>'],
      [R, '<![CDATA['],
    ]);
  });

  it('reports it in agent replies, not in other cells', () => {
    const bad = '<tool><tool_name>w</tool_name><arguments><c><![CDATA[x</c></arguments></tool>';
    const text = msg(ask('1', bad), reply('2', bad), call(), result('2.k7f3q.1', bad));
    expect(checkRule(R, text).map((f) => f.line)).toEqual([17]);
  });

  it('does not read CDATA in a legacy JSON call', () => {
    const text = withCall('<tool>{"tool_name": "read_file", "arguments": {"q": "<![CDATA[ in a string"}}</tool>');
    expect(checkRule(R, text)).toEqual([]);
  });
});
