import { describe, expect, it } from 'vitest';
import { checkRule } from '../helpers.js';
import { toolFindings, withCall } from '../tool-calls/helpers.js';

const R = 'legacy-json-invalid';
const one = (body: string) => {
  const found = toolFindings(withCall(`<tool>${body}</tool>`, 't'));
  expect(found.map((f) => f.ruleId)).toEqual([R]);
  return found[0]!;
};

describe(R, () => {
  it('accepts the legacy shape (then only legacy-json-tool-call reports it)', () => {
    expect(checkRule(R, withCall('<tool>{"tool_name": "t", "server_name": "s", "arguments": {"a": [1, {"b": null}]}}</tool>', 't'))).toEqual([]);
  });

  it('reports the exact place where the JSON breaks', () => {
    expect(one('\n{invalid json}\n').text).toBe('i');
    expect(one('{"tool_name": "t",}').text).toBe('}');
    expect(one('{"tool_name": "t"} extra').text).toBe('e');
    expect(one('{"tool_name": "t').message).toMatch(/not closed/);
    expect(one('{"tool_name": "a\nb"}').text).toBe('\n');
    expect(one('{"tool_name": "\\q"}').text).toBe('\\q');
  });

  it('reports values of the wrong type at the value', () => {
    expect(one('{"tool_name": 5}').text).toBe('5');
    expect(one('{"tool_name": ""}').text).toBe('""');
    expect(one('{"tool_name": "t", "server_name": null}').text).toBe('null');
    expect(one('{"tool_name": "t", "arguments": ["a"]}').text).toBe('["a"]');
  });

  it('reports a missing tool_name at the opening brace, and unknown or repeated keys', () => {
    const f = one('{"server_name": "local", "arguments": {}}');
    expect([f.text, f.message]).toEqual(['{', 'The legacy tool call has no `tool_name`.']);
    expect(one('{"tool_name": "t", "tool": "x"}').text).toBe('"tool"');
    expect(one('{"tool_name": "t", "tool_name": "u"}').text).toBe('"tool_name"');
  });

  it('reports a JSON value that is not an object', () => {
    expect(toolFindings(withCall('<tool>[1]</tool>', 't')).map((f) => f.ruleId)).toContain('tool-xml-structure');
    expect(one('{"a": 1}{"b": 2}').text).toBe('{');
  });

  it('bounds nesting without overflowing', () => {
    const deep = '{"tool_name": "t", "arguments": {"a": ' + '['.repeat(100_000) + ']'.repeat(100_000) + '}}';
    expect(one(deep).message).toMatch(/nested more than 256 deep/);
  });
});
