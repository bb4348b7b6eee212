// The facts of the tree that keep rules from reporting a cascade
// (test/cascades/): whether a cell's id fits it, whether its kind is known
// or guessed, whether the file's agents could be read. Versions parsed from
// an earlier one (a prose edit) carry the same facts.
import { describe, expect, it } from 'vitest';
import { borrowsMetadata, parse } from '../../server/syntax/document.js';
import { build, CELLS, edit } from '../cascades/conversation.js';

const facts = (text: string) => {
  const doc = parse(text, { fileName: 'x.msg.md' });
  return doc.cells.map((c) => [c.id, doc.kindOf(c), doc.idFits(c), doc.kindKnown(c)]);
};

describe('facts of cells', () => {
  it('in a valid conversation every id fits and every kind is known', () => {
    expect(facts(build())).toEqual([
      ['1', 'message', true, true],
      ['2', 'agent-reply', true, true],
      ['2.k7f3q', 'tool-call', true, true],
      ['2.k7f3q.1', 'tool-result', true, true],
      ['3', 'message', true, true],
      ['3.1', 'code-output', true, true],
      ['4', 'agent-reply', true, true],
    ]);
  });

  it('a `[tool]` id of neither shape: the id does not fit and the kind is a guess', () => {
    expect(facts(build({ result: edit('result', '2.k7f3q.1', '2.k7f3q.1.1') }))[3]).toEqual(['2.k7f3q.1.1', 'tool-call', false, false]);
    expect(facts(build({ result: edit('result', '2.k7f3q.1', '2.k7f3q.0') }))[3]).toEqual(['2.k7f3q.0', 'tool-result', false, false]);
  });

  it('a reply or a code output by its language keeps its kind when its id does not fit', () => {
    expect(facts(build({ reply: edit('reply', '[^2]', '[^2.answer]') }))[1]).toEqual(['2.answer', 'agent-reply', false, true]);
    expect(facts(build({ out: edit('out', '3.1', '3.x') }))[5]).toEqual(['3.x', 'code-output', false, true]);
  });

  it('a message cell keeps its kind; a cell without an id or with an empty one has no id that fits', () => {
    expect(facts(build({ ask: edit('ask', '[^1]', '[^1 x]') }))[0]).toEqual(['1 x', 'message', false, true]);
    expect(facts(build({ call: edit('call', 'Call[^2.k7f3q]', 'Call') }))[2]).toEqual([undefined, 'untyped-output', false, false]);
    expect(facts(build({ call: edit('call', '2.k7f3q', '') }))[2]).toEqual(['', 'tool-call', false, false]);
  });

  it('without a metadata type, the kind of an output cell is a guess', () => {
    const noMeta = (name: keyof typeof CELLS) => CELLS[name].filter((l) => !l.startsWith('[^'));
    expect(facts(build({ result: noMeta('result') }))[3]).toEqual(['2.k7f3q.1', 'tool-result', true, false]);
    expect(facts(build({ out: noMeta('out') }))[5]).toEqual(['3.1', 'code-output', true, false]);
    expect(facts(build({ reply: edit('reply', '[coder]', '[coder') }))[1]).toEqual(['2', 'untyped-output', true, false]);
  });

  it('a type that names nothing leaves the kind unknown', () => {
    expect(facts(build({ reply: edit('reply', '[coder]', '[nobody]') }))[1]).toEqual(['2', 'unknown-output', true, false]);
  });

  it('an output cell typed by the metadata line of another cell with its id: the kind is a guess', () => {
    // The result takes the call's id: the call's line, first for that id, types both.
    const doc = parse(build({ result: edit('result', '2.k7f3q.1', '2.k7f3q') }), { fileName: 'x.msg.md' });
    expect(doc.cells.slice(2, 4).map((c) => [c.id, doc.kindOf(c), doc.kindKnown(c), borrowsMetadata(doc, c)])).toEqual([
      ['2.k7f3q', 'tool-call', true, false],
      ['2.k7f3q', 'tool-call', false, true],
    ]);
    // A first cell without a line of its own borrows the later one's.
    const first = parse(build({ reply: CELLS.reply.filter((l) => !l.startsWith('[^')), done: edit('done', '4', '2') }), { fileName: 'x.msg.md' });
    expect([first.cells[1], first.cells[6]].map((c) => [c!.id, first.kindKnown(c!), borrowsMetadata(first, c!)])).toEqual([
      ['2', false, true],
      ['2', true, false],
    ]);
  });

  it('a version parsed from an earlier one after a prose edit has the same facts', () => {
    const text = build({ result: edit('result', '2.k7f3q.1', '2.k7f3q.1.1') });
    const first = parse(text, { fileName: 'x.msg.md' });
    const at = text.indexOf('Reading.') + 'Reading'.length;
    const next = parse(text.replace('Reading.', 'Reading it.'), { fileName: 'x.msg.md', previous: first, edit: { start: at, oldEnd: at, text: ' it' } });
    expect(next.edit?.replaced).toBeDefined();
    expect(next.cells.map((c) => [next.idFits(c), next.kindKnown(c)])).toEqual(first.cells.map((c) => [first.idFits(c), first.kindKnown(c)]));
    expect(next.kindKnown(next.cells[3]!)).toBe(false);
  });
});

describe('whether the agents are known', () => {
  const agentsKnown = (frontmatter: string[]) => parse(build({}, frontmatter), { fileName: 'x.msg.md' }).agentsKnown;
  it('with a frontmatter that reads, or none', () => {
    expect(agentsKnown(['---', 'agents:', '  coder:', '    models: [gpt-4o]', '---', ''])).toBe(true);
    expect(agentsKnown(['---', 'title: x', '---', ''])).toBe(true);
    expect(agentsKnown(['---', 'agents:', '---', ''])).toBe(true);
    expect(agentsKnown([])).toBe(true);
  });
  it('not with YAML that does not read, a frontmatter that is not a mapping or never closes, or `agents` that is not a mapping', () => {
    expect(agentsKnown(['---', 'agents:', '  coder:', '    models: [gpt-4o', '---', ''])).toBe(false);
    expect(agentsKnown(['---', '- a', '---', ''])).toBe(false);
    expect(agentsKnown(['---', 'agents:', '  coder:', ''])).toBe(false);
    expect(agentsKnown(['---', 'agents: coder', '---', ''])).toBe(false);
  });
});
