// Root cause: a code fence that never closes (unclosed-fence). It holds the
// lines after it up to the next cell marker: what it holds is code, so a
// `<tool>` or a metadata line among them is not one, and the rules that
// would miss it stay quiet. The cells after it are untouched.
import { describe, expect, it } from 'vitest';
import { build, CELLS, insert, findings } from './conversation.js';

describe('cascades of a fence that never closes (unclosed-fence)', () => {
  it('before the `<tool>` of a tool call: not reported as a `<tool>` in a fenced block', () => {
    expect(findings(build({ call: insert('call', 4, '````') }))).toEqual(['unclosed-fence 24:1 ````']);
  });

  it('before the metadata line: no metadata missing, and the cell is not checked as a tool call', () => {
    expect(findings(build({ call: insert('call', 1, '~~~~') }))).toEqual(['unclosed-fence 21:1 ~~~~']);
  });

  it('followed by a fence line of the other character (the case of issue 16): every later cell is still read', () => {
    expect(findings(build({ reply: insert('reply', 4, '~~~python', 'x = 1', '```') }))).toEqual(['unclosed-fence 18:1 ~~~python']);
  });

  it('in a code cell: its output still answers it', () => {
    expect(findings(build({ code: CELLS.code.filter((l, i) => i !== 6) }))).toEqual(['unclosed-fence 39:1 ```python']);
  });

  it('in a tool result or a message: only the fence', () => {
    expect(findings(build({ result: insert('result', 4, '`````') }))).toEqual(['unclosed-fence 33:1 `````']);
    expect(findings(build({ ask: insert('ask', 4, '~~~~ text') }))).toEqual(['unclosed-fence 12:1 ~~~~ text']);
  });

  it('still reports what stands on its own: a fence line in a code output has no stream prefix', () => {
    expect(findings(build({ out: insert('out', 4, '~~~~') }))).toEqual(['code-output-stream 47:1 ~~~~', 'unclosed-fence 47:1 ~~~~']);
  });
});

describe('cascades of an HTML comment that never closes (unclosed-fence)', () => {
  it('before the metadata line: the line is not reported misplaced', () => {
    expect(findings(build({ call: insert('call', 1, '<!-- note') }))).toEqual(['unclosed-fence 21:1 <!--']);
  });

  it('before the `<tool>` of a tool call: the call is still read', () => {
    expect(findings(build({ call: insert('call', 4, '<!-- note') }))).toEqual(['unclosed-fence 24:1 <!--']);
  });

  it('in a code output: the line is not reported without a stream prefix', () => {
    expect(findings(build({ out: insert('out', 4, '<!-- note') }))).toEqual(['unclosed-fence 47:1 <!--']);
  });

  it('inside the `<tool>` of a tool call: an XML error, reported once by tool-xml', () => {
    expect(findings(build({ call: insert('call', 6, '<!-- note') }))).toEqual(['tool-xml 26:1 <!--']);
  });
});
