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
  it('the repeated cell’s own metadata line is not a second line for the first', () => {
    expect(findings(build({ result: [...CELLS.call, ...CELLS.result] }))).toEqual(['duplicate-id 29:14 2.k7f3q']);
    expect(findings(build({ out: [...CELLS.result, ...CELLS.out] }))).toEqual(['duplicate-id 43:16 2.k7f3q.1']);
    expect(findings(build({ done: [...CELLS.out, ...CELLS.done] }))).toEqual(['duplicate-id 49:9 3.1']);
    expect(findings(build({ done: edit('done', '4', '2') }))).toEqual(['duplicate-id 49:13 2']);
    expect(findings(build({ done: [...CELLS.code, ...CELLS.done] }))).toEqual(['duplicate-id 49:11 3']);
  });
});
