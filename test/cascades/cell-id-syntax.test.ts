// Root cause: an id that does not fit its cell (cell-id-syntax). The kind of
// a `[tool]` cell or of a code output rests on its id, so with a misfit id
// the kind is unknown: the rules about tool calls, tool results and code
// outputs leave the cell alone, and a link that names no cell may be to it,
// so the rules about broken links stay quiet too.
import { describe, expect, it } from 'vitest';
import { build, edit, findings } from './conversation.js';

describe('cascades of an id that does not fit (cell-id-syntax)', () => {
  it('a tool result with four segments: no tool-call structure, tool name, or unanswered call', () => {
    // The cell has type `tool` and no `<tool>`: read as a tool call, it held
    // none and had no `name`, and the call `2.k7f3q` had no result.
    expect(findings(build({ result: edit('result', '2.k7f3q.1', '2.k7f3q.1.1') }))).toEqual(['cell-id-syntax 29:16 2.k7f3q.1.1']);
  });

  it('a tool call with four segments, one segment or a bad character: its result is no orphan', () => {
    for (const id of ['2.k7f3q.x.y', 'k7f3q', '2.k7f-3q!', '2.k7f 3q']) {
      const found = findings(build({ call: edit('call', '2.k7f3q', id) }));
      expect(found, id).toHaveLength(1);
      expect(found[0], id).toMatch(/^cell-id-syntax 20:/);
    }
  });

  it('an empty id: only the id is reported', () => {
    expect(findings(build({ call: edit('call', '2.k7f3q', '') }))).toEqual(['cell-id-syntax 20:12 [^]']);
  });

  it('a tool result with an empty segment: its call is not unanswered', () => {
    expect(findings(build({ result: edit('result', '2.k7f3q.1', '2..1') }))).toEqual(['cell-id-syntax 29:16 2..1']);
  });

  it('a tool call id with a third segment that is no number: no orphan, neither it nor its result', () => {
    expect(findings(build({ call: edit('call', '2.k7f3q', '2.k7f3q.0') }))).toEqual(['cell-id-syntax 20:14 2.k7f3q.0']);
  });

  it('a result numbered out of order next to one whose number is no number: no gap reported', () => {
    const second = ['## %%% Result[^2.k7f3q.x]', '', '[^2.k7f3q.x]: [tool] status="success"', '', 'ok', '', '## %%% Result[^2.k7f3q.3]', '', '[^2.k7f3q.3]: [tool] status="success"', '', 'ok', ''];
    expect(findings(build({ result: [...edit('result', '', ''), ...second] }))).toEqual(['cell-id-syntax 35:16 2.k7f3q.x']);
  });

  it('an agent reply or a code cell whose id does not fit: the links to it are not reported broken', () => {
    expect(findings(build({ reply: edit('reply', '[^2]', '[^2!]') }))).toEqual(['cell-id-syntax 14:13 2!']);
    expect(findings(build({ code: edit('code', '[^3]', '[^3!]') }))).toEqual(['cell-id-syntax 35:11 3!']);
  });

  it('a code output with three segments or an N that is no number: only the id', () => {
    expect(findings(build({ out: edit('out', '3.1', '3.1.1') }))).toEqual(['cell-id-syntax 43:9 3.1.1']);
    expect(findings(build({ out: edit('out', '3.1', '3.x') }))).toEqual(['cell-id-syntax 43:9 3.x']);
  });

  it('a code output whose N is no number, between two numbered ones: no gap reported', () => {
    const outputs = ['# %%% [^3.x]', '', '[^3.x]: [python]', '', 'stdout> 3', '', '# %%% [^3.3]', '', '[^3.3]: [python]', '', 'stdout> 3', ''];
    expect(findings(build({ out: [...edit('out', '', ''), ...outputs] }))).toEqual(['cell-id-syntax 49:9 3.x']);
  });

  it('a `[tool]` cell of unknown kind is not checked as a tool call, also when it is empty', () => {
    const t = build({ result: ['## %%% Result[^2.k7f3q.1.1]', '', '[^2.k7f3q.1.1]: [tool]', ''] });
    expect(findings(t)).toEqual(['cell-id-syntax 29:16 2.k7f3q.1.1']);
  });

  it('still reports what stands on its own: a duplicate of a misfit id', () => {
    const t = build({ call: edit('call', '2.k7f3q', '2.k7f3q.x.y'), result: edit('result', '2.k7f3q.1', '2.k7f3q.x.y') });
    expect(findings(t)).toEqual(['cell-id-syntax 20:14 2.k7f3q.x.y', 'cell-id-syntax 29:16 2.k7f3q.x.y', 'duplicate-id 29:16 2.k7f3q.x.y']);
  });

  it('still reports what stands on its own: a message cell keeps its kind', () => {
    // `%%` makes it a message cell whatever its id: its type is still checked.
    expect(findings(build({ ask: edit('ask', '1', '1.x').map((l) => l.replace('[markdown]', '[coder]')) }))).toEqual([
      'cell-id-syntax 8:11 1.x',
      'cell-type 10:10 coder',
    ]);
  });

  it('two empty ids are not a duplicate, and the second metadata line is not reported', () => {
    const t = build({ call: edit('call', '2.k7f3q', ''), result: edit('result', '2.k7f3q.1', '') });
    expect(findings(t)).toEqual(['cell-id-syntax 20:12 [^]', 'cell-id-syntax 29:14 [^]']);
  });
});
