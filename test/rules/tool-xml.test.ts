import { describe, expect, it } from 'vitest';
import { applyFix, check, checkRule, fixText } from '../helpers.js';
import { ask, call, msg, reply, result, toolFindings, withCall } from '../tool-calls/helpers.js';
import { parse } from '../../server/syntax/document.js';
import { toolCallsOf } from '../../server/tool-calls/index.js';

const R = 'tool-xml';
const args = (inner: string): string => `<tool>\n<tool_name>read_file</tool_name>\n<arguments>\n${inner}\n</arguments>\n</tool>`;
const one = (text: string) => {
  const found = checkRule(R, text);
  expect(found).toHaveLength(1);
  return found[0]!;
};

describe(R, () => {
  it('reads no call in a code span of two or more backticks (CommonMark: the closer is as long as the opener)', () => {
    const text = msg(ask(), reply('2', 'Write ``<tool><tool_name>`` to call a tool, or ```<tool>``` and `` `<tool>` ``.'));
    expect(check(text)).toEqual([]);
    expect(toolCallsOf(parse(text).cells[1]!)).toEqual([]);
    // A backtick string no later one matches is literal: the `<tool>` after it is read.
    expect(checkRule(R, msg(ask(), reply('2', 'Two `` then <tool><tool_name>x</tool_name> and ` once.'))).map((f) => f.text)).toEqual(['<tool>']);
  });

  it('accepts well-formed calls: entities, character references, comments, CDATA with markup', () => {
    const inner = [
      '  <a>x &amp; y &lt; z &gt; &quot;q&quot; &apos;s&apos;</a>',
      '  <b>&#65;&#x42; &#x1F600;</b>  <!-- a comment -->',
      '  <c><![CDATA[if (a < b && c) { return "]]]]><![CDATA[>"; }]]></c>',
      '  <d/>',
      '  <e type=\'n&#117;mber\'>7</e>',
      '  <?pi some data?>',
    ].join('\n');
    const text = withCall(args(inner));
    expect(check(text)).toEqual([]);
    const info = toolCallsOf(parse(text).cells[2]!)[0]!;
    expect(info.arguments).toEqual({ a: 'x & y < z > "q" \'s\'', b: 'AB 😀', c: 'if (a < b && c) { return "]]>"; }', d: '', e: 7 });
  });

  it('reports an unescaped & at the character and suggests CDATA', () => {
    const text = withCall(args('  <pattern>func.*&&.*return</pattern>'));
    const f = one(text);
    expect([f.text, f.line, f.column]).toEqual(['&', 26, 18]);
    expect(f.message).toMatch(/Unescaped `&`/);
    expect(f.diagnostic.fix).toBeUndefined();
    const fixed = applyFix(text, f.diagnostic, 0);
    expect(fixed).toContain('  <pattern><![CDATA[func.*&&.*return]]></pattern>');
    expect(toolFindings(fixed)).toEqual([]);
    expect(toolCallsOf(parse(fixed).cells[2]!)[0]!.arguments).toEqual({ pattern: 'func.*&&.*return' });
  });

  it('reports an unescaped < and keeps escaped text the same when wrapping', () => {
    const text = withCall(args('  <code>if a &lt;= b && c < d</code>'));
    const f = one(text);
    expect([f.text, f.column]).toEqual(['&', 22]);
    const fixed = applyFix(text, f.diagnostic, 0);
    expect(fixed).toContain('<code><![CDATA[if a <= b && c < d]]></code>');
    expect(toolCallsOf(parse(fixed).cells[2]!)[0]!.arguments).toEqual({ code: 'if a <= b && c < d' });
  });

  it('reports `a<b` (a start tag that is not one) and suggests CDATA', () => {
    const text = withCall(args('  <code>for (i=0;i<n;i++) {}</code>'));
    const f = one(text);
    expect(f.text).toBe(';');
    expect(f.message).toMatch(/If the `<` is meant as text/);
    expect(toolFindings(applyFix(text, f.diagnostic, 0))).toEqual([]);
  });

  it('reports a bare < followed by a blank at the <', () => {
    const f = one(withCall(args('  <q>a < b</q>')));
    expect([f.text, f.column]).toEqual(['<', 8]);
    expect(f.diagnostic.suggestions).toHaveLength(1);
  });

  it('reports an entity that XML does not define, without a suggestion', () => {
    const f = one(withCall(args('  <q>a&nbsp;b</q>')));
    expect(f.text).toBe('&nbsp;');
    expect(f.diagnostic.suggestions).toBeUndefined();
  });

  it('reports a bad character reference', () => {
    expect(one(withCall(args('  <q>&#0;</q>'))).text).toBe('&#0;');
    expect(one(withCall(args('  <q>&#xD800;</q>'))).text).toBe('&#xD800;');
    expect(one(withCall(args('  <q>&#;</q>'))).text).toBe('&');
  });

  it('reports a mismatched end tag at it, pointing to the open tag', () => {
    const text = withCall(args('  <path>app.py</pth>'));
    const f = one(text);
    expect([f.text, f.line, f.column]).toEqual(['</pth>', 26, 15]);
    expect(f.message).toBe('Expected `</path>` to close `<path>`, found `</pth>`.');
    expect(f.diagnostic.related?.[0]?.range.start).toMatchObject({ line: 25, character: 2 });
  });

  it('reports an element left open at the end tag that breaks', () => {
    const f = one(withCall(args('  <path>app.py')));
    expect(f.text).toBe('</arguments>');
  });

  it('reports a <tool> without </tool> at its start tag', () => {
    const text = withCall('<tool>\n<tool_name>read_file</tool_name>');
    const f = one(text);
    expect([f.text, f.line]).toEqual(['<tool>', 23]);
    expect(f.message).toMatch(/not closed/);
  });

  it('rejects a DOCTYPE and does not expand its entities', () => {
    const text = withCall('<tool>\n<!DOCTYPE tool [<!ENTITY x "boom">]>\n<tool_name>&x;</tool_name>\n</tool>');
    expect(one(text).text).toBe('<!DOCTYPE');
  });

  it('rejects an XML declaration, `--` in a comment, `]]>` in text, `<!` and control characters', () => {
    expect(one(withCall('<tool>\n<?xml version="1.0"?>\n<tool_name>a</tool_name>\n</tool>')).text).toBe('<?xml');
    expect(one(withCall(args('  <a>x</a> <!-- a -- b -->'))).text).toBe('--');
    expect(one(withCall(args('  <a>x ]]> y</a>'))).text).toBe(']]>');
    expect(one(withCall(args('  <a><!ELEMENT a ANY></a>'))).text).toBe('<!');
    expect(one(withCall(args('  <a>x\u0001y</a>'))).text).toBe('\u0001');
  });

  it('reports attribute problems', () => {
    expect(one(withCall(args('  <a x=1>v</a>'))).text).toBe('1');
    expect(one(withCall(args('  <a x>v</a>'))).text).toBe('x');
    expect(one(withCall(args('  <a x="1" x="2">v</a>'))).text).toBe('x');
    expect(one(withCall(args('  <a x="<">v</a>'))).text).toBe('<');
  });

  it('bounds nesting without overflowing', () => {
    const deep = (n: number): string => '<a>'.repeat(n) + 'x' + '</a>'.repeat(n);
    expect(checkRule(R, withCall(args(deep(250))))).toEqual([]);
    const f = one(withCall(args(deep(300))));
    expect(f.message).toMatch(/nested more than 256 deep/);
    expect(f.text).toBe('<a>');
    expect(one(withCall(args(deep(50_000)))).message).toMatch(/nested more than 256/);
  });

  it('checks raw tool elements of agent replies, but not of other cells', () => {
    const bad = '<tool><tool_name>a & b</tool_name></tool>';
    const text = msg(ask('1', `I tried ${'`<tool>`'} and ${bad}.`), reply('2', `I will call:\n\n${bad}`), call(), result('2.k7f3q.1', bad));
    const found = checkRule(R, text);
    expect(found.map((f) => f.line)).toEqual([19]);
  });

  it('gives exact ranges in a CRLF file', () => {
    const text = withCall(args('  <pattern>a & b</pattern>')).replace(/\n/g, '\r\n');
    const f = one(text);
    expect([f.text, f.line, f.column]).toEqual(['&', 26, 14]);
    const fixed = applyFix(text, f.diagnostic, 0);
    expect(toolFindings(fixed)).toEqual([]);
  });

  it('has no automatic fix, so --fix leaves the text alone', () => {
    const text = withCall(args('  <pattern>a & b</pattern>'));
    expect(fixText(text)).toBe(text);
  });
});
