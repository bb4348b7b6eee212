import { describe, expect, it } from 'vitest';
import { check, checkRule } from '../helpers.js';
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
});
