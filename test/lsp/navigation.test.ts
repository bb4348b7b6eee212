// Hover, go to definition, find references and rename, over stdio.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Hover, Location, WorkspaceEdit } from 'vscode-languageserver-protocol';
import { applyTextEdits, editsFor, fixtures, fixtureUri, LspClient, positionOf } from './client.js';

const text = readFileSync(path.join(fixtures, 'session.msg.md'), 'utf8');
const uri = fixtureUri('session.msg.md');
const td = { uri };

let client: LspClient;
beforeAll(async () => {
  client = await LspClient.start();
  await client.open(uri, text);
});
afterAll(async () => {
  await client.stop();
});

const hover = async (needle: string, delta = 0, nth = 0): Promise<string> => {
  const h = await client.request<Hover | null>('textDocument/hover', { textDocument: td, position: positionOf(text, needle, delta, nth) });
  return h ? (h.contents as { value: string }).value : '';
};

/** The text each location covers (all in this document). */
const covered = (locations: Location[] | null, source = text): string[] =>
  (locations ?? []).map((l) => {
    const lines = source.split('\n');
    expect(l.range.start.line).toBe(l.range.end.line);
    return `${l.range.start.line}:${lines[l.range.start.line]!.slice(l.range.start.character, l.range.end.character)}`;
  });

const lineOf = (needle: string, nth = 0) => positionOf(text, needle, 0, nth).line;

describe('hover', () => {
  it('on a tool call id: the kind, the type, the attributes and its results with their status', async () => {
    const value = await hover('[^2.k7f3q]', 5);
    expect(value).toContain('**Tool call** `[^2.k7f3q]`');
    expect(value).toContain('name="read_file"');
    expect(value).toContain('Called by `[^2]`');
    expect(value).toContain('`2.k7f3q.1` success (0.2s)');
  });

  it('on a reply id: its tool calls; on a derived id`s first segment: the parent', async () => {
    expect(await hover('[^2]: [coder]', 2)).toContain('**Agent reply** `[^2]` · type `coder`');
    expect(await hover('[^2.k7f3q.1]', 2)).toContain('**Agent reply** `[^2]`');
    expect(await hover('[^3.1]', 4)).toContain('Output of code cell `[^3]` (python)');
  });

  it('on an agent name: its settings and an excerpt of its system prompt', async () => {
    const value = await hover('[coder]', 2);
    expect(value).toContain('**Agent** `coder` (default agent here)');
    expect(value).toContain('models: `gpt-4o, claude-sonnet-4`');
    expect(value).toContain('context_window: `128000`');
    expect(value).toContain('temperature: `0.2`');
    expect(value).toContain('System prompt: You are a careful coding assistant.');
    const temporary = await hover('[fast]', 2);
    expect(temporary).toContain('Temporary agent declared on line');
    expect(temporary).toContain('models: `gpt-4o-mini`');
  });

  it('on a history value: what the model will see', async () => {
    expect(await hover('history=summary', 10)).toContain('The model sees only the summary: "ran the example".');
  });

  it("on a problem: the rule's summary and a link to its docs", async () => {
    const bad = fixtureUri('hover-bad.msg.md');
    const badText = '# %% Q[^1]\n\n[^1]: [markdown] history=maybe\n\ntext\n';
    await client.open(bad, badText);
    const h = await client.request<Hover>('textDocument/hover', { textDocument: { uri: bad }, position: positionOf(badText, 'maybe', 1) });
    const value = (h.contents as { value: string }).value;
    expect(value).toContain('`maybe` is not a history value');
    expect(value).toContain('**msglint** `history-value`');
    expect(value).toContain('docs/rules/history-value.md');
    await client.close(bad);
  });

  it('on plain text in a cell: only the cell and its place in the LLM view; nothing outside the cells', async () => {
    const value = await hover('Looks right');
    expect(value).toMatch(/^\*\*Agent reply\*\* `\[\^4\]` · type `fast` · line \d+\n\nIn the LLM view: yes \(about \d+ tokens\)$/);
    expect(await client.request('textDocument/hover', { textDocument: td, position: positionOf(text, '---\n\n# %%', 4) })).toBeNull();
  });
});

describe('definition', () => {
  const definition = (needle: string, delta: number) => client.request<Location[]>('textDocument/definition', { textDocument: td, position: positionOf(text, needle, delta) });

  it('goes from a marker`s [^id] to its metadata line and back', async () => {
    expect(covered(await definition('Plan[^2]', 6))).toEqual([`${lineOf('[^2]: [coder]')}:2`]);
    expect(covered(await definition('[^2]: [coder]', 2))).toEqual([`${lineOf('Plan[^2]')}:2`]);
  });

  it('goes from a result to its call, from a call to its reply, from a code output to its code cell', async () => {
    expect(covered(await definition('File contents[^2.k7f3q.1]', 19))).toEqual([`${lineOf('Read the file[^2.k7f3q]')}:2.k7f3q`]);
    expect(covered(await definition('Read the file[^2.k7f3q]', 16))).toEqual([`${lineOf('Plan[^2]')}:2`]);
    expect(covered(await definition('# %%% [^3.1]', 8))).toEqual([`${lineOf('Check it[^3]')}:3`]);
  });

  it('goes from an agent use to its definition', async () => {
    expect(covered(await definition('[^2]: [coder]', 8))).toEqual([`${lineOf('  coder:')}:coder`]);
    expect(covered(await definition('[^4]: [fast]', 8))).toEqual([`${lineOf('[^fast]: [agent]')}:fast`]);
    expect(covered(await definition('default_agent: coder', 16))).toEqual([`${lineOf('  coder:')}:coder`]);
  });
});

describe('references', () => {
  it('of an id: every marker and metadata line, derived ids included', async () => {
    const refs = await client.request<Location[]>('textDocument/references', { textDocument: td, position: positionOf(text, 'Plan[^2]', 6), context: { includeDeclaration: true } });
    expect(covered(refs)).toEqual([
      `${lineOf('Plan[^2]')}:2`,
      `${lineOf('[^2]: [coder]')}:2`,
      `${lineOf('Read the file[^2.k7f3q]')}:2`,
      `${lineOf('[^2.k7f3q]: [tool]')}:2`,
      `${lineOf('File contents[^2.k7f3q.1]')}:2`,
      `${lineOf('[^2.k7f3q.1]: [tool]')}:2`,
    ]);
    const withoutDeclaration = await client.request<Location[]>('textDocument/references', { textDocument: td, position: positionOf(text, 'Plan[^2]', 6), context: { includeDeclaration: false } });
    expect(covered(withoutDeclaration)).not.toContain(`${lineOf('[^2]: [coder]')}:2`);
    expect(withoutDeclaration.length).toBe(5);
  });

  it('of a tool call: its results', async () => {
    const refs = await client.request<Location[]>('textDocument/references', { textDocument: td, position: positionOf(text, 'Read the file[^2.k7f3q]', 18), context: { includeDeclaration: true } });
    expect(covered(refs)).toEqual([
      `${lineOf('Read the file[^2.k7f3q]')}:2.k7f3q`,
      `${lineOf('[^2.k7f3q]: [tool]')}:2.k7f3q`,
      `${lineOf('File contents[^2.k7f3q.1]')}:2.k7f3q`,
      `${lineOf('[^2.k7f3q.1]: [tool]')}:2.k7f3q`,
    ]);
  });

  it('of an agent: its definition, default_agent and every use', async () => {
    const refs = await client.request<Location[]>('textDocument/references', { textDocument: td, position: positionOf(text, '[coder]', 2), context: { includeDeclaration: true } });
    expect(covered(refs)).toEqual([`${lineOf('  coder:')}:coder`, `${lineOf('default_agent')}:coder`, `${lineOf('[^2]: [coder]')}:coder`]);
  });
});

describe('rename', () => {
  const rename = (needle: string, delta: number, newName: string) =>
    client.request<WorkspaceEdit>('textDocument/rename', { textDocument: td, position: positionOf(text, needle, delta), newName });

  it('prepareRename gives the id segment under the cursor, and nothing off ids', async () => {
    const prep = await client.request('textDocument/prepareRename', { textDocument: td, position: positionOf(text, 'Read the file[^2.k7f3q]', 18) });
    expect(prep).toEqual({ range: { start: positionOf(text, 'Read the file[^2.k7f3q]', 17), end: positionOf(text, 'Read the file[^2.k7f3q]', 22) }, placeholder: 'k7f3q' });
    expect(await client.request('textDocument/prepareRename', { textDocument: td, position: positionOf(text, 'Looks right') })).toBeNull();
  });

  it('renames an id and the ids derived from it: 2 -> 7 renames 2.k7f3q and 2.k7f3q.1', async () => {
    const edit = await rename('Plan[^2]', 6, '7');
    const renamed = applyTextEdits(text, editsFor(edit, uri));
    expect(renamed).toContain('# %%% Plan[^7]\n\n[^7]: [coder] reasoning=1');
    expect(renamed).toContain('## %%% Read the file[^7.k7f3q]\n\n[^7.k7f3q]: [tool] name="read_file"');
    expect(renamed).toContain('## %%% File contents[^7.k7f3q.1]\n\n[^7.k7f3q.1]: [tool] status="success"');
    expect(renamed).not.toMatch(/\[\^2[\].]/);
    // The result still lints clean.
    const other = fixtureUri('renamed.msg.md');
    await client.open(other, renamed);
    expect((await client.pull(other)).items).toEqual([]);
    await client.close(other);
  });

  it('renames a nonce from a result`s id', async () => {
    const edit = await rename('File contents[^2.k7f3q.1]', 19, 'zz9qa');
    const renamed = applyTextEdits(text, editsFor(edit, uri));
    expect(renamed.match(/2\.zz9qa/g)?.length).toBe(4);
    expect(renamed).not.toContain('k7f3q');
  });

  it('refuses a taken or invalid name with a clear message', async () => {
    await expect(rename('Plan[^2]', 6, '1')).rejects.toThrow("The id '1' is already used in this file.");
    await expect(rename('Plan[^2]', 6, 'a b')).rejects.toThrow("'a b' is not a valid id segment");
    await expect(rename('Plan[^2]', 6, '2.x')).rejects.toThrow('rename one id segment at a time');
    await expect(rename('[^fast]', 3, 'reviewer')).rejects.toThrow("An agent named 'reviewer' already exists.");
    await expect(rename('[coder]', 2, 'tool')).rejects.toThrow("'tool' is a reserved type name");
  });

  it('renames an agent: frontmatter key, default_agent and every use', async () => {
    const edit = await rename('[^2]: [coder]', 8, 'dev');
    const renamed = applyTextEdits(text, editsFor(edit, uri));
    expect(renamed).toContain('\n  dev:\n    models: [gpt-4o, claude-sonnet-4]');
    expect(renamed).toContain('default_agent: dev\n');
    expect(renamed).toContain('[^2]: [dev] reasoning=1');
    expect(renamed).not.toMatch(/\bcoder\b(?! assistant)/);
  });

  it('renames a temporary agent: its declaration and its uses', async () => {
    const edit = await rename('[^fast]', 3, 'quick');
    const renamed = applyTextEdits(text, editsFor(edit, uri));
    expect(renamed).toContain('[^quick]: [agent] models="gpt-4o-mini"');
    expect(renamed).toContain('[^4]: [quick]');
    expect(renamed).not.toContain('fast');
  });
});
