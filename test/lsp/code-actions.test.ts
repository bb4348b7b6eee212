// Quick fixes, disable comments, fix-all (on save, with no diagnostics in
// the request), formatting and the msglint.fixAll command, over stdio.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CodeAction, TextEdit } from 'vscode-languageserver-protocol';
import { allRules } from '../../server/linter.js';
import { applyTextEdits, editsFor, fixtures, fixtureUri, LspClient, modernCapabilities, positionOf } from './client.js';

const errorsText = readFileSync(path.join(fixtures, 'errors.msg.md'), 'utf8');
const hasLegacyJsonRule = allRules.some((r) => r.meta.id === 'legacy-json-tool-call');
const codes = (items: { code?: string | number }[] | undefined) => (items ?? []).map((d) => d.code);

let client: LspClient;
let version = 1;
let n = 0;

beforeAll(async () => {
  client = await LspClient.start();
});
afterAll(async () => {
  await client.stop();
});

/** Opens a fresh document (a new URI per test) and returns its URI. */
async function openDoc(text: string): Promise<string> {
  const uri = fixtureUri(`actions-${++n}.msg.md`);
  version = 1;
  await client.open(uri, text, version);
  return uri;
}

async function actionsAt(uri: string, text: string, needle: string, only?: string[]): Promise<CodeAction[]> {
  const at = positionOf(text, needle);
  return client.request('textDocument/codeAction', { textDocument: { uri }, range: { start: at, end: at }, context: { diagnostics: [], ...(only ? { only } : {}) } });
}

/** Applies an action's edit in the client and tells the server, like an editor. */
async function apply(uri: string, text: string, edits: TextEdit[]): Promise<string> {
  const next = applyTextEdits(text, edits);
  await client.change(uri, ++version, [{ text: next }]);
  return next;
}

describe('quick fixes', () => {
  it('offer the rule fix, preferred, tied to its diagnostic', async () => {
    const uri = await openDoc(errorsText);
    const actions = await actionsAt(uri, errorsText, '#%%');
    const fix = actions.find((a) => a.title === 'Fix this cell-marker problem')!;
    expect(fix.kind).toBe('quickfix');
    expect(fix.isPreferred).toBe(true);
    expect(fix.diagnostics?.[0]?.code).toBe('cell-marker');
    // Versioned edit: the client supports documentChanges.
    expect(fix.edit?.documentChanges?.[0]).toMatchObject({ textDocument: { uri, version: 1 } });
    // The light bulb also offers fix-all, as a command computed only when chosen.
    const all = actions.find((a) => a.kind === 'source.fixAll.msglint')!;
    expect(all.edit).toBeUndefined();
    expect(all.command).toMatchObject({ command: 'msglint.fixAll', arguments: [uri] });
    const fixed = await apply(uri, errorsText, editsFor(fix.edit!, uri));
    expect(fixed).toContain('\n# %% Question[^1]\n');
    expect(codes((await client.pull(uri)).items)).not.toContain('cell-marker');
  });

  it('offer each suggestion of a rule', async () => {
    const text = '# %% Q[^1]\n\ntext\n';
    const uri = await openDoc(text);
    const actions = await actionsAt(uri, text, '1]');
    const suggestion = actions.find((a) => a.title.startsWith('Insert `[^1]: [markdown]`'))!;
    expect(suggestion.kind).toBe('quickfix');
    expect(suggestion.diagnostics?.[0]?.code).toBe('metadata-missing');
    const fixed = await apply(uri, text, editsFor(suggestion.edit!, uri));
    expect(fixed).toBe('# %% Q[^1]\n\n[^1]: [markdown]\n\ntext\n');
    expect(codes((await client.pull(uri)).items)).toEqual([]);
  });

  it('use the client diagnostic objects when the client sends them', async () => {
    const uri = await openDoc(errorsText);
    const report = await client.pull(uri);
    const diagnostic = report.items!.find((d) => d.code === 'history-value')!;
    const withData = { ...diagnostic, data: { mine: true } };
    const actions: CodeAction[] = await client.request('textDocument/codeAction', { textDocument: { uri }, range: diagnostic.range, context: { diagnostics: [withData] } });
    const fix = actions.find((a) => a.title === 'Fix this history-value problem')!;
    expect(fix.diagnostics).toEqual([withData]);
    expect(applyTextEdits(errorsText, editsFor(fix.edit!, uri))).toContain('history=exclude\n');
  });

  it('disable a rule for the line with a disable-next-line comment', async () => {
    const uri = await openDoc(errorsText);
    const actions = await actionsAt(uri, errorsText, 'excluded');
    const disable = actions.find((a) => a.title === 'Disable history-value for this line')!;
    const text = await apply(uri, errorsText, editsFor(disable.edit!, uri));
    expect(text).toContain('<!-- msglint-disable-next-line history-value -->\n[^1]: [markdown] history=excluded');
    const after = codes((await client.pull(uri)).items);
    expect(after).not.toContain('history-value');
    expect(after).toContain('cell-marker');
  });

  it('disable a rule for the file with a disable-file comment after the frontmatter', async () => {
    const uri = await openDoc(errorsText);
    // Nothing is offered where there is no problem.
    expect((await actionsAt(uri, errorsText, 'Follow-up[^1]')).filter((a) => a.kind === 'quickfix')).toEqual([]);
    const onId = await client.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: { start: positionOf(errorsText, 'Follow-up[^1]', 11), end: positionOf(errorsText, 'Follow-up[^1]', 12) },
      context: { diagnostics: [] },
    });
    const disable = onId.find((a) => a.title === 'Disable duplicate-id for this file')!;
    const text = await apply(uri, errorsText, editsFor(disable.edit!, uri));
    expect(text).toContain('default_agent: coder\n---\n<!-- msglint-disable-file duplicate-id -->\n');
    expect(codes((await client.pull(uri)).items)).not.toContain('duplicate-id');
  });
});

describe('disable for a block', () => {
  // A comment inside <tool> would be content: the rule is disabled around the whole element.
  it.skipIf(!allRules.some((r) => r.meta.id === 'tool-xml-structure'))('wraps a <tool> element in disable/enable comments', async () => {
    const text = [
      '---', 'agents:', '  coder:', '    models: [gpt-4o]', '---', '',
      '# %%% Plan[^1]', '', '[^1]: [coder]', '', 'Reading.', '',
      '## %%% Call[^1.k7f3q]', '', '[^1.k7f3q]: [tool] name="read_file"', '',
      '<tool>', '<tool_name>read_file</tool_name>', '<bogus>x</bogus>', '</tool>', '',
      '## %%% Result[^1.k7f3q.1]', '', '[^1.k7f3q.1]: [tool] status="success"', '', 'ok', '',
    ].join('\n');
    const uri = await openDoc(text);
    expect(codes((await client.pull(uri)).items)).toEqual(['tool-xml-structure']);
    const actions = await actionsAt(uri, text, '<bogus>', undefined);
    const disable = actions.find((a) => a.title === 'Disable tool-xml-structure for this block')!;
    const next = await apply(uri, text, editsFor(disable.edit!, uri));
    expect(next).toContain('\n<!-- msglint-disable tool-xml-structure -->\n<tool>\n');
    expect(next).toContain('\n</tool>\n<!-- msglint-enable tool-xml-structure -->\n');
    expect(codes((await client.pull(uri)).items)).toEqual([]);
  });
});

describe('fix all', () => {
  const expected = errorsText.replace('#%% Question', '# %% Question').replace('history=excluded', 'history=exclude');

  it('source.fixAll.msglint works with an empty context.diagnostics, as sent on save', async () => {
    const uri = await openDoc(errorsText);
    const actions: CodeAction[] = await client.request('textDocument/codeAction', {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      context: { diagnostics: [], only: ['source.fixAll'], triggerKind: 2 },
    });
    expect(actions.map((a) => a.kind)).toEqual(['source.fixAll.msglint']);
    const edits = editsFor(actions[0]!.edit!, uri);
    // Only what the fixes change is edited, not the whole text.
    expect(edits.length).toBe(2);
    expect(applyTextEdits(errorsText, edits)).toBe(expected);
  });

  it('is not offered for quickfix-only requests, and nothing is offered when there is nothing to fix', async () => {
    const uri = await openDoc(expected);
    const quick: CodeAction[] = await client.request('textDocument/codeAction', {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      context: { diagnostics: [], only: ['quickfix'] },
    });
    expect(quick.filter((a) => a.kind === 'source.fixAll.msglint')).toEqual([]);
    const all: CodeAction[] = await client.request('textDocument/codeAction', {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      context: { diagnostics: [], only: ['source.fixAll.msglint'] },
    });
    expect(all).toEqual([]);
  });

  it('formatting applies every safe fix, in passes, as small edits', async () => {
    // Fixing the marker reveals nothing new here; the missing id is a second, independent fix.
    const text = '#%% Q\n\nhello\n\n# %% R[^1]\n\n[^1]: [markdown] history=excluded\n\nworld\n';
    const uri = await openDoc(text);
    const edits: TextEdit[] = await client.request('textDocument/formatting', { textDocument: { uri }, options: { tabSize: 2, insertSpaces: true } });
    const formatted = applyTextEdits(text, edits);
    expect(formatted).toBe('# %% Q[^2]\n\n[^2]: [markdown]\n\nhello\n\n# %% R[^1]\n\n[^1]: [markdown] history=exclude\n\nworld\n');
    await apply(uri, text, edits);
    const left = (await client.pull(uri)).items ?? [];
    expect(left).toEqual([]);
    // Formatting again changes nothing.
    expect(await client.request('textDocument/formatting', { textDocument: { uri }, options: { tabSize: 2, insertSpaces: true } })).toEqual([]);
  });

  // The rule is written separately; until it lands there is nothing to rewrite.
  it.skipIf(!hasLegacyJsonRule)('rewrites a legacy JSON tool call (legacy-json-tool-call)', async () => {
    const text = [
      '# %%% Plan[^1]', '', '[^1]: [coder]', '', 'Reading.', '',
      '## %%% Call[^1.k7f3q]', '', '[^1.k7f3q]: [tool] name="read_file"', '',
      '<tool>', '{"server_name": "local", "tool_name": "read_file", "arguments": {"path": "a.py"}}', '</tool>', '',
      '## %%% Result[^1.k7f3q.1]', '', '[^1.k7f3q.1]: [tool] status="success"', '', 'ok', '',
    ].join('\n');
    const uri = await openDoc('---\nagents:\n  coder:\n    models: [gpt-4o]\n---\n\n' + text);
    const full = '---\nagents:\n  coder:\n    models: [gpt-4o]\n---\n\n' + text;
    const edits: TextEdit[] = await client.request('textDocument/formatting', { textDocument: { uri }, options: { tabSize: 2, insertSpaces: true } });
    const formatted = applyTextEdits(full, edits);
    expect(formatted).not.toContain('"tool_name"');
    expect(formatted).toMatch(/<tool_name>read_file<\/tool_name>/);
    expect(formatted).toMatch(/<path>a\.py<\/path>/);
  });

  it('msglint.fixAll asks the client to apply the fixes (workspace/applyEdit)', async () => {
    const uri = await openDoc(errorsText);
    const before = client.applied.length;
    const result = await client.request('workspace/executeCommand', { command: 'msglint.fixAll', arguments: [uri] });
    expect(result).toMatchObject({ applied: true, edits: 2 });
    expect(client.applied.length).toBe(before + 1);
    const edit = client.applied.at(-1)!;
    expect(edit.documentChanges?.[0]).toMatchObject({ textDocument: { uri, version: 1 } });
    expect(applyTextEdits(errorsText, editsFor(edit, uri))).toBe(expected);
    // Also accepted: { uri } as the argument.
    const again = await client.request('workspace/executeCommand', { command: 'msglint.fixAll', arguments: [{ uri }] });
    expect(again).toMatchObject({ applied: true });
  });

  it('uses plain `changes` for clients without versioned document changes', async () => {
    const other = await LspClient.start({ capabilities: { ...modernCapabilities, workspace: { ...modernCapabilities.workspace, workspaceEdit: {} } } });
    try {
      const uri = fixtureUri('plain-changes.msg.md');
      await other.open(uri, errorsText);
      const actions: CodeAction[] = await other.request('textDocument/codeAction', {
        textDocument: { uri },
        range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
        context: { diagnostics: [], only: ['source.fixAll.msglint'] },
      });
      expect(actions[0]!.edit!.documentChanges).toBeUndefined();
      expect(applyTextEdits(errorsText, actions[0]!.edit!.changes![uri]!)).toBe(expected);
    } finally {
      await other.stop();
    }
  });
});
