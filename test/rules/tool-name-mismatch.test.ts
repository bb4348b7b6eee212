import { describe, expect, it } from 'vitest';
import { applyFix, check, checkRule, fixText } from '../helpers.js';
import { ask, call, msg, reply, result, withCall, XML_READ } from '../tool-calls/helpers.js';

const R = 'tool-name-mismatch';

describe(R, () => {
  it('accepts a name equal to the tool name, in the XML and the legacy form', () => {
    expect(check(withCall(XML_READ))).toEqual([]);
    const legacy = withCall('<tool>{"tool_name": "read_file", "arguments": {"path": "app.py"}}</tool>');
    expect(checkRule(R, legacy)).toEqual([]);
  });

  it('reports a different name at its value and fixes it', () => {
    const text = withCall(XML_READ, 'read');
    const found = checkRule(R, text);
    expect(found.map((f) => [f.text, f.line])).toEqual([['"read"', 21]]);
    expect(found[0]!.message).toBe('The metadata `name` is `read` but the `<tool_name>` is `read_file`.');
    expect(found[0]!.diagnostic.related?.[0]?.range.start.line).toBe(23);
    const fixed = applyFix(text, found[0]!.diagnostic);
    expect(fixed).toBe(withCall(XML_READ));
    expect(fixText(text)).toBe(fixed);
    expect(fixText(fixed)).toBe(fixed);
  });

  it('keeps a bare value bare', () => {
    const text = withCall(XML_READ).replace('name="read_file"', 'name=readfile');
    const found = checkRule(R, text);
    expect(found.map((f) => f.text)).toEqual(['readfile']);
    expect(fixText(text)).toBe(withCall(XML_READ).replace('name="read_file"', 'name=read_file'));
  });

  it('reports a missing name at the type and inserts it', () => {
    const text = msg(ask(), reply(), call('2.k7f3q', null), result());
    const found = checkRule(R, text);
    expect(found.map((f) => [f.text, f.line])).toEqual([['[tool]', 21]]);
    expect(found[0]!.message).toMatch(/no `name` attribute; its `<tool_name>` is `read_file`/);
    expect(fixText(text)).toBe(withCall(XML_READ));
  });

  it('inserts the name before other attributes', () => {
    const text = msg(ask(), reply(), call('2.k7f3q', null), result()).replace('[^2.k7f3q]: [tool]', '[^2.k7f3q]: [tool] time="2025-05-30T09:00:04+08:00"');
    expect(fixText(text)).toContain('[^2.k7f3q]: [tool] name="read_file" time="2025-05-30T09:00:04+08:00"');
  });

  it('reports a missing name without a fix when the XML has no tool name', () => {
    const body = '<tool>\n<arguments>\n  <path>app.py</path>\n</arguments>\n</tool>';
    const found = checkRule(R, msg(ask(), reply(), call('2.k7f3q', null, body), result()));
    expect(found).toHaveLength(1);
    expect(found[0]!.diagnostic.fix).toBeUndefined();
    expect(found[0]!.message).toBe('The tool call has no `name` attribute.');
  });

  it('escapes quotes and backslashes in the fixed value', () => {
    const body = XML_READ.replace('read_file', 'say "hi" \\o/');
    const text = withCall(body, 'x');
    const fixed = fixText(text);
    expect(fixed).toContain('name="say \\"hi\\" \\\\o/"');
    expect(checkRule(R, fixed)).toEqual([]);
  });

  it('compares the legacy tool_name', () => {
    const text = withCall('<tool>{"tool_name": "read_file"}</tool>', 'write_file');
    expect(checkRule(R, text).map((f) => f.text)).toEqual(['"write_file"']);
  });

  it('says nothing when the cell does not have exactly one readable call', () => {
    expect(checkRule(R, withCall(XML_READ + '\n' + XML_READ, 'other'))).toEqual([]);
    expect(checkRule(R, withCall('<tool>\n<tool_name>a & b</tool_name>\n</tool>', 'other'))).toEqual([]);
    expect(checkRule(R, withCall('No call here.', 'other'))).toEqual([]);
  });

  it('leaves a metadata line that does not parse to metadata-syntax', () => {
    const text = withCall(XML_READ).replace('name="read_file"', 'name="read_file');
    expect(checkRule(R, text)).toEqual([]);
  });
});
