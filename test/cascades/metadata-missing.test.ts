// Root cause: a cell without its metadata line (metadata-missing), or with
// one whose type cannot be read (metadata-syntax). The kind of an output
// cell comes from its type, so without one it is a guess from the id's
// shape: the rules about one kind of cell leave it alone. A guessed tool
// call, result or code output still answers the cells that link to it.
import { describe, expect, it } from 'vitest';
import { build, CELLS, edit, findings } from './conversation.js';

const withoutMetadata = (name: keyof typeof CELLS): string[] => CELLS[name].filter((l) => !l.startsWith('[^'));

describe('cascades of a missing metadata line (metadata-missing)', () => {
  it('a tool call without metadata and without a `<tool>`: no tool-call structure', () => {
    expect(findings(build({ call: ['## %%% Call[^2.k7f3q]', '', 'I will read it.', ''] }))).toEqual(['metadata-missing 20:12 [^2.k7f3q]']);
  });

  it('a tool call with a short nonce and no metadata: the nonce is not checked, its result is answered', () => {
    const t = build({ call: withoutMetadata('call').map((l) => l.replace('2.k7f3q', '2.k7')), result: edit('result', '2.k7f3q', '2.k7') });
    expect(findings(t)).toEqual(['metadata-missing 20:12 [^2.k7]']);
  });

  it('a tool result or code output without metadata: only that', () => {
    expect(findings(build({ result: withoutMetadata('result') }))).toEqual(['metadata-missing 29:14 [^2.k7f3q.1]']);
    expect(findings(build({ out: withoutMetadata('out') }))).toEqual(['metadata-missing 43:7 [^3.1]']);
  });

  it('an empty tool result without metadata: not reported empty', () => {
    expect(findings(build({ result: ['## %%% Result[^2.k7f3q.1]', ''] }))).toEqual(['metadata-missing 29:14 [^2.k7f3q.1]']);
  });

  it('a code cell without metadata: its output is not told its parent is no code cell', () => {
    expect(findings(build({ code: withoutMetadata('code') }))).toEqual(['metadata-missing 35:9 [^3]']);
  });

  it('a code output without metadata between numbered ones still takes its number', () => {
    const outputs = ['# %%% [^3.2]', '', 'stdout> 3', '', '# %%% [^3.3]', '', '[^3.3]: [python]', '', 'stdout> 3', ''];
    expect(findings(build({ out: [...CELLS.out, ...outputs] }))).toEqual(['metadata-missing 49:7 [^3.2]']);
  });

  it('an agent reply without metadata: the tool call it asked for is not told its parent is wrong', () => {
    expect(findings(build({ reply: withoutMetadata('reply') }))).toEqual(['metadata-missing 14:11 [^2]']);
  });
});

describe('cascades of a metadata line whose type cannot be read (metadata-syntax)', () => {
  it('a tool call, a result, a reply or a code cell without a readable type: only the line', () => {
    expect(findings(build({ call: edit('call', ': [tool]', ': tool') }))).toEqual(['metadata-syntax 22:13 tool name="read_file"']);
    expect(findings(build({ result: edit('result', '[tool]', '[tool') }))).toEqual(['metadata-syntax 31:15 [tool status="success"']);
    expect(findings(build({ reply: edit('reply', '[coder]', '[coder') }))).toEqual(['metadata-syntax 16:7 [coder']);
    expect(findings(build({ code: edit('code', '[code]', '[code') }))).toEqual(['metadata-syntax 37:7 [code']);
  });

  it('attributes that cannot be read: no tool name missing', () => {
    expect(findings(build({ call: edit('call', 'name="read_file"', 'name="read_file') }))).toEqual(['metadata-syntax 22:25 "read_file']);
  });

  it('still reports what stands on its own: a value read in spite of brackets', () => {
    // `[name="write"]` is read as name="write" (the fix removes the brackets): the name is wrong either way.
    expect(findings(build({ call: edit('call', 'name="read_file"', '[name="write"]') }))).toEqual([
      'metadata-syntax 22:20 [name="write"]',
      'tool-name-mismatch 22:26 "write"',
    ]);
  });
});
