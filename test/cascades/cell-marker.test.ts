// Root cause: a malformed cell marker (cell-marker). With four `%` the kind
// of the cell is a guess; when its type is a message type it has none, and
// the cells that link to it are not told it is the wrong kind.
import { describe, expect, it } from 'vitest';
import { build, edit, findings } from './conversation.js';

describe('cascades of a malformed marker (cell-marker)', () => {
  it('a code cell written `%%%%`: its output is not told its parent is an output cell', () => {
    expect(findings(build({ code: edit('code', '# %% Run', '# %%%% Run') }))).toEqual(['cell-marker 35:3 %%%%']);
  });

  it('a reply or a tool call written `%%%%`: the type says what it is, only the marker is reported', () => {
    expect(findings(build({ reply: edit('reply', '# %%% Plan', '# %%%% Plan') }))).toEqual(['cell-marker 14:3 %%%%']);
    expect(findings(build({ call: edit('call', '## %%% Call', '## %%%% Call') }))).toEqual(['cell-marker 20:4 %%%%']);
  });

  it('no space, glued text, indented, too many `#`: only the marker', () => {
    expect(findings(build({ call: edit('call', '## %%% Call', '##%%% Call') }))).toEqual(['cell-marker 20:2 #%']);
    expect(findings(build({ call: edit('call', '## %%% Call', '## %%%Call') }))).toEqual(['cell-marker 20:7 Call']);
    expect(findings(build({ call: edit('call', '## %%% Call', '  ## %%% Call') }))).toEqual(['cell-marker 20:1   ']);
    expect(findings(build({ call: edit('call', '## %%% Call', '####### %%% Call') }))).toEqual(['cell-marker 20:1 #######']);
  });
});
