import { describe, expect, it } from 'vitest';
import { applyFix, check, checkRule, fixText } from '../helpers.js';
import { toolFindings, withCall } from '../tool-calls/helpers.js';
import { parse } from '../../server/syntax/document.js';
import { toolCallsOf } from '../../server/tool-calls/index.js';

const R = 'cdata-placeholder';
const SEED = [
  '<tool>',
  '<tool_name>write_to_file</tool_name>',
  '<arguments>',
  '  <path>example.go</path>',
  '  <content>CDATA-START[package main',
  '',
  'func main() {',
  '\tif a < b && c { fmt.Println("Hello, World!") }',
  '}]CDATA-END</content>',
  '</arguments>',
  '</tool>',
].join('\n');
const CODE = 'package main\n\nfunc main() {\n\tif a < b && c { fmt.Println("Hello, World!") }\n}';

describe(R, () => {
  it('reports the placeholder of seed 000 once, at the opener, and nothing else', () => {
    const text = withCall(SEED, 'write_to_file');
    const found = toolFindings(text);
    expect(found.map((f) => [f.ruleId, f.text, f.line, f.column])).toEqual([[R, 'CDATA-START[', 27, 12]]);
    expect(found[0]!.diagnostic.related?.[0]?.range.start.line).toBe(30);
    // The call is read as meant.
    expect(toolCallsOf(parse(text).cells[2]!)[0]!.arguments).toEqual({ path: 'example.go', content: CODE });
  });

  it('fixes both markers, and the value stays the same', () => {
    const text = withCall(SEED, 'write_to_file');
    const fixed = applyFix(text, checkRule(R, text)[0]!.diagnostic);
    expect(fixed).toBe(withCall(SEED.replace('CDATA-START[', '<![CDATA[').replace(']CDATA-END', ']]>'), 'write_to_file'));
    expect(check(fixed)).toEqual([]);
    expect(toolCallsOf(parse(fixed).cells[2]!)[0]!.arguments).toEqual({ path: 'example.go', content: CODE });
    expect(fixText(text)).toBe(fixed);
    expect(fixText(fixed)).toBe(fixed);
  });

  it('fixes every pair', () => {
    const body = '<tool>\n<tool_name>t</tool_name>\n<arguments>\n  <a>CDATA-START[1]CDATA-END</a>\n  <b>CDATA-START[2]CDATA-END</b>\n</arguments>\n</tool>';
    const text = withCall(body, 't');
    expect(checkRule(R, text)).toHaveLength(2);
    expect(check(fixText(text))).toEqual([]);
  });

  it('reports lone markers without a fix', () => {
    const opener = withCall('<tool>\n<tool_name>t</tool_name>\n<arguments>\n  <a>CDATA-START[x</a>\n</arguments>\n</tool>', 't');
    const closer = withCall('<tool>\n<tool_name>t</tool_name>\n<arguments>\n  <a>x]CDATA-END</a>\n</arguments>\n</tool>', 't');
    for (const [text, marker] of [[opener, 'CDATA-START['], [closer, ']CDATA-END']] as const) {
      const found = checkRule(R, text);
      expect(found.map((f) => f.text)).toEqual([marker]);
      expect(found[0]!.diagnostic.fix).toBeUndefined();
    }
  });

  it('offers no fix when the text holds ]]>', () => {
    const text = withCall('<tool>\n<tool_name>t</tool_name>\n<arguments>\n  <a>CDATA-START[x ]]> y]CDATA-END</a>\n</arguments>\n</tool>', 't');
    const found = checkRule(R, text);
    expect(found).toHaveLength(1);
    expect(found[0]!.diagnostic.fix).toBeUndefined();
  });

  it('ignores the spelling inside real CDATA, comments and text outside <tool>', () => {
    const body = 'Seed 000 writes CDATA-START[ for <![CDATA[.\n\n<tool>\n<tool_name>t</tool_name>\n<!-- CDATA-START[x]CDATA-END -->\n<arguments>\n  <a><![CDATA[CDATA-START[x]CDATA-END]]></a>\n</arguments>\n</tool>';
    expect(check(withCall(body, 't'))).toEqual([]);
  });
});
