// Root causes: a cell without an id (cell-id-missing) and an id used twice
// (duplicate-id). The metadata line under an id-less marker is unused only
// because the reference is missing; the own metadata line of a cell that
// repeats an id is not a second line for the first cell; and a link that
// names no cell may be to the cell without an id.
import { describe, expect, it } from 'vitest';
import { build, CELLS, edit, findings } from './conversation.js';

describe('cascades of a cell without an id (cell-id-missing)', () => {
  it('its metadata line is not reported unused, nor are the links to it broken', () => {
    expect(findings(build({ call: edit('call', 'Call[^2.k7f3q]', 'Call') }))).toEqual(['cell-id-missing 20:1 ## %%% Call']);
    expect(findings(build({ reply: edit('reply', 'Plan[^2]', 'Plan') }))).toEqual(['cell-id-missing 14:1 # %%% Plan']);
    expect(findings(build({ code: edit('code', 'Run[^3]', 'Run') }))).toEqual(['cell-id-missing 35:1 # %% Run']);
  });
});

describe('cascades of an id used twice (duplicate-id)', () => {
  // A later cell with an id already used is typed by the first cell's
  // metadata line: its kind is a guess. And which of the two a link names is
  // not known: a link to an id that no cell has may be to either.
  it('a tool result given its call’s id: not checked as a tool call, and the call is not unanswered', () => {
    expect(findings(build({ result: edit('result', '2.k7f3q.1', '2.k7f3q') }))).toEqual(['duplicate-id 29:16 2.k7f3q']);
  });

  it('a reply given the id of an earlier message: the tool call it asked for is not told its parent is missing', () => {
    expect(findings(build({ reply: edit('reply', '[^2]', '[^1]') }))).toEqual(['duplicate-id 14:13 1']);
  });

  it('a reply given the id of a later cell: the link to it is not reported broken either', () => {
    expect(findings(build({ reply: edit('reply', '[^2]', '[^4]') }))).toEqual(['duplicate-id 49:13 4']);
  });

  it('two cells before a code output with its code cell’s id: which one runs the code is not known', () => {
    expect(findings(build({ ask: edit('ask', '[^1]', '[^3]') }))).toEqual(['duplicate-id 35:11 3']);
  });

  it('a cell without its metadata line, whose id a later cell repeats with one: not reported misplaced', () => {
    expect(findings(build({ ask: CELLS.ask.filter((l) => !l.startsWith('[^')), done: edit('done', '4', '1') }))).toEqual(['duplicate-id 48:13 1']);
  });

  it('the repeated cell’s own metadata line is not a second line for the first', () => {
    expect(findings(build({ result: [...CELLS.call, ...CELLS.result] }))).toEqual(['duplicate-id 29:14 2.k7f3q']);
    expect(findings(build({ out: [...CELLS.result, ...CELLS.out] }))).toEqual(['duplicate-id 43:16 2.k7f3q.1']);
    expect(findings(build({ done: [...CELLS.out, ...CELLS.done] }))).toEqual(['duplicate-id 49:9 3.1']);
    expect(findings(build({ done: edit('done', '4', '2') }))).toEqual(['duplicate-id 49:13 2']);
    expect(findings(build({ done: [...CELLS.code, ...CELLS.done] }))).toEqual(['duplicate-id 49:11 3']);
  });
});
