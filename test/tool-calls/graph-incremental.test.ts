// The tool graph of an editor's version is the previous version's updated
// for the cells the edit replaced or reclassified: it must equal the graph
// of a fresh parse after every keystroke.
import { describe, expect, it } from 'vitest';
import { parse, type Cell } from '../../server/syntax/document.js';
import { toolGraph } from '../../server/tool-calls/graph.js';

function shape(doc: ReturnType<typeof parse>): unknown {
  const g = toolGraph(doc);
  const byKey = (m: Map<string, { cell: Cell }[]>) => [...m].map(([k, v]) => [k, v.map((r) => doc.offsetOf(r.cell))]).sort((a, b) => (a[0]! < b[0]! ? -1 : 1));
  return {
    calls: g.calls.map((c) => [c.id, c.parent, c.nonce, c.parentAt(doc), c.nonceAt(doc), doc.offsetOf(c.cell)]),
    results: g.results.map((r) => [r.callId, r.n, r.callAt(doc), r.nAt(doc), doc.offsetOf(r.cell)]),
    callsById: byKey(g.callsById),
    resultsByCall: byKey(g.resultsByCall),
    callsByNonce: byKey(g.callsByNonce),
    reusedNonces: [...g.reusedNonces].sort(),
    unanswered: [...g.unanswered].map((c) => doc.offsetOf(c.cell)).sort((a, b) => a - b),
  };
}

const text = [
  '# %% Ask[^1]',
  '',
  'Read it.',
  '',
  '## %%% [^1.q]',
  '',
  'A tool call by the shape of its id alone.',
  '',
  '# %%% [^2]',
  '',
  '[^2]: [coder]',
  '',
  'Reading.',
  '',
  '## %%% [^2.abc]',
  '',
  '[^2.abc]: [tool] name="read"',
  '',
  '<tool>',
  '<tool_name>read</tool_name>',
  '</tool>',
  '',
  '## %%% [^2.abc.1]',
  '',
  '[^2.abc.1]: [tool] status="success"',
  '',
  'done',
  '',
  '# %% Notes[^3]',
  '',
  'Notes.',
  '',
].join('\n');

describe('the tool graph after an editor\'s edit', () => {
  // Each edit, typed one character at a time at the end of the given text.
  const edits: [string, string][] = [
    ['a call typed at the end', '## %%% [^3.xyz]\n\n[^3.xyz]: [tool] name="w"\n'],
    ['a result for an earlier call', '## %%% [^2.abc.2]\n\n[^2.abc.2]: [tool]\n'],
    // A second cell with the call's id, typed before its own metadata line: the earlier call's kind may change.
    ['a cell with the call\'s id', '## %%% [^2.abc]\n\n[^2.abc]: [coder]\n'],
    // Another call with the same nonce: nonce-reused reads the nonces of more than one call.
    ['a call reusing a nonce', '## %%% [^3.abc]\n\n[^3.abc]: [tool] name="w"\n'],
    // A metadata line in another cell that makes a cell kept from the previous version an agent's reply.
    ['a metadata line for a call elsewhere', '\n[^1.q]: [coder]\n'],
  ];
  for (const [what, typed] of edits) {
    it(`equals a fresh graph after each character of ${what}`, () => {
      let current = text;
      let doc = parse(current, { fileName: 'a.msg.md' });
      toolGraph(doc);
      for (const ch of typed) {
        const at = current.length;
        current += ch;
        doc = parse(current, { fileName: 'a.msg.md', previous: doc, edit: { start: at, oldEnd: at, text: ch } });
        expect(shape(doc), JSON.stringify(current.slice(-20))).toEqual(shape(parse(current, { fileName: 'a.msg.md' })));
      }
    });
  }

  it('equals a fresh graph after a call cell is deleted, typed in the middle and pasted', () => {
    const call = text.indexOf('## %%% [^2.abc]\n');
    const callEnd = text.indexOf('## %%% [^2.abc.1]');
    const steps = [
      { start: call, oldEnd: callEnd, text: '' },
      { start: call, oldEnd: call, text: text.slice(call, callEnd) },
      { start: text.indexOf('# %% Notes'), oldEnd: text.indexOf('# %% Notes'), text: text.slice(call, callEnd).replace(/abc/g, 'def') },
    ];
    // A call reusing the nonce `def` pasted, then deleted.
    const reuse = '## %%% [^1.def]\n\n[^1.def]: [tool] name="w"\n\n';
    const after = text.length + steps[2]!.text.length;
    steps.push({ start: after, oldEnd: after, text: reuse }, { start: after, oldEnd: after + reuse.length, text: '' });
    let current = text;
    let doc = parse(current, { fileName: 'a.msg.md' });
    toolGraph(doc);
    for (const e of steps) {
      current = current.slice(0, e.start) + e.text + current.slice(e.oldEnd);
      doc = parse(current, { fileName: 'a.msg.md', previous: doc, edit: e });
      expect(!!doc.edit?.replaced).toBe(true);
      expect(shape(doc)).toEqual(shape(parse(current, { fileName: 'a.msg.md' })));
    }
  });
});
