// The language server over stdio: capabilities, document sync and
// diagnostics (pulled and pushed), settings and config files.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRules } from '../../server/linter.js';
import { fixtures, fixtureUri, LspClient, positionOf, pushCapabilities } from './client.js';

const errorsText = readFileSync(path.join(fixtures, 'errors.msg.md'), 'utf8');
const errorsUri = fixtureUri('errors.msg.md');

const codes = (items: { code?: string | number }[] | undefined) => (items ?? []).map((d) => d.code);

describe('initialize', () => {
  it('announces incremental sync, pull diagnostics and every feature to a modern client', async () => {
    const client = await LspClient.start();
    try {
      const caps = client.initializeResult.capabilities;
      expect(client.initializeResult.serverInfo?.name).toBe('msglint-language-server');
      expect(caps.textDocumentSync).toMatchObject({ openClose: true, change: 2 });
      expect(caps.diagnosticProvider).toMatchObject({ interFileDependencies: false, workspaceDiagnostics: true });
      expect((caps.codeActionProvider as { codeActionKinds: string[] }).codeActionKinds).toEqual(expect.arrayContaining(['quickfix', 'source.fixAll.msglint']));
      expect(caps.documentFormattingProvider).toBe(true);
      expect(caps.executeCommandProvider?.commands).toEqual(['msglint.fixAll', 'msglint.exportLLMView', 'msglint.lintWorkspace', 'msglint.showLocation']);
      expect(caps.hoverProvider).toBe(true);
      expect(caps.definitionProvider).toBe(true);
      expect(caps.referencesProvider).toBe(true);
      expect(caps.renameProvider).toEqual({ prepareProvider: true });
      expect(caps.completionProvider?.triggerCharacters).toEqual(expect.arrayContaining(['#', '[', '=']));
      expect(caps.documentSymbolProvider).toBeTruthy();
      expect(caps.foldingRangeProvider).toBe(true);
      expect(caps.semanticTokensProvider?.legend.tokenTypes).toEqual(expect.arrayContaining(['keyword', 'variable', 'type', 'property', 'string']));
      expect(caps.documentLinkProvider).toBeTruthy();
      expect(caps.inlayHintProvider).toBeTruthy();
      expect(caps.codeLensProvider).toBeTruthy();
    } finally {
      await client.stop();
    }
  });

  it('does not announce pull diagnostics to a client that only takes pushed ones', async () => {
    const client = await LspClient.start({ capabilities: pushCapabilities });
    try {
      expect(client.initializeResult.capabilities.diagnosticProvider).toBeUndefined();
    } finally {
      await client.stop();
    }
  });
});

describe('pulled diagnostics', () => {
  let client: LspClient;
  beforeAll(async () => {
    client = await LspClient.start();
  });
  afterAll(async () => {
    await client.stop();
  });

  it('reports each problem with its rule id as code, the source, the docs link and related places', async () => {
    await client.open(errorsUri, errorsText);
    const report = await client.pull(errorsUri);
    expect(report.kind).toBe('full');
    expect(codes(report.items)).toEqual(expect.arrayContaining(['cell-marker', 'history-value', 'duplicate-id']));
    for (const d of report.items!) {
      expect(d.source).toBe('msglint');
      expect(d.codeDescription?.href).toMatch(new RegExp(`docs/rules/${d.code}\\.md$`));
    }
    const marker = report.items!.find((d) => d.code === 'cell-marker')!;
    expect(marker.range.start).toEqual(positionOf(errorsText, '#%%'));
    expect(marker.severity).toBe(1);
    const dup = report.items!.find((d) => d.code === 'duplicate-id')!;
    expect(dup.relatedInformation?.[0]?.location.uri).toBe(errorsUri);
    expect(dup.relatedInformation?.[0]?.location.range.start).toEqual(positionOf(errorsText, '[^1]', 2));
    await client.close(errorsUri);
  });

  it('tags unused metadata as Unnecessary and legacy JSON calls as Deprecated', async () => {
    const uri = fixtureUri('tags.msg.md');
    const text = [
      '---', 'agents:', '  coder:', '    models: [gpt-4o]', '---', '',
      '# %%% Plan[^1]', '', '[^1]: [coder]', '', 'Reading.', '',
      '## %%% Call[^1.k7f3q]', '', '[^1.k7f3q]: [tool] name="read_file"', '',
      '<tool>', '{"tool_name": "read_file", "arguments": {"path": "a.py"}}', '</tool>', '',
      '## %%% Result[^1.k7f3q.1]', '', '[^1.k7f3q.1]: [tool] status="success"', '', 'ok', '',
      '[^8]: [markdown]', '',
    ].join('\n');
    await client.open(uri, text);
    const items = (await client.pull(uri)).items!;
    expect(items.find((d) => d.code === 'metadata-unused')?.tags).toEqual([1]);
    if (allRules.some((r) => r.meta.id === 'legacy-json-tool-call')) expect(items.find((d) => d.code === 'legacy-json-tool-call')?.tags).toEqual([2]);
    await client.close(uri);
  });

  it('answers "unchanged" for the same version and a new report after an edit', async () => {
    await client.open(errorsUri, errorsText, 1);
    const first = await client.pull(errorsUri);
    expect(first.resultId).toBeTruthy();
    const again = await client.pull(errorsUri, first.resultId);
    expect(again).toEqual({ kind: 'unchanged', resultId: first.resultId });
    // Insert the missing space of `#%%`: an incremental edit of one character.
    const at = positionOf(errorsText, '#%%', 1);
    await client.change(errorsUri, 2, [{ range: { start: at, end: at }, text: ' ' }]);
    const second = await client.pull(errorsUri, first.resultId);
    expect(second.kind).toBe('full');
    expect(second.resultId).not.toBe(first.resultId);
    expect(codes(second.items)).not.toContain('cell-marker');
    expect(codes(second.items)).toContain('history-value');
    await client.close(errorsUri);
  });

  it('keeps the text in sync through many incremental edits (several in one notification, line breaks, deletions)', async () => {
    const uri = fixtureUri('incremental.msg.md');
    let text = '# %% A[^1]\n\n[^1]: [markdown]\n\nhello\n';
    await client.open(uri, text, 1);
    expect(codes((await client.pull(uri)).items)).toEqual([]);
    // Two edits in one notification, applied in order: break the marker, then add a cell.
    await client.change(uri, 2, [
      { range: { start: { line: 0, character: 1 }, end: { line: 0, character: 2 } }, text: '' },
      { range: { start: { line: 5, character: 0 }, end: { line: 5, character: 0 } }, text: '# %% B[^2]\r\n\r\n[^2]: [markdwn]\r\n\r\nworld\r\n' },
    ]);
    text = '#%% A[^1]\n\n[^1]: [markdown]\n\nhello\n# %% B[^2]\r\n\r\n[^2]: [markdwn]\r\n\r\nworld\r\n';
    const report = await client.pull(uri);
    expect(codes(report.items).sort()).toEqual(['cell-marker', 'cell-type']);
    const typo = report.items!.find((d) => d.code === 'cell-type')!;
    expect(typo.range.start).toEqual(positionOf(text, 'markdwn'));
    // Delete the second cell again, across lines.
    await client.change(uri, 3, [{ range: { start: { line: 5, character: 0 }, end: { line: 10, character: 0 } }, text: '' }]);
    expect(codes((await client.pull(uri)).items)).toEqual(['cell-marker']);
    // A full-text change is accepted too.
    await client.change(uri, 4, [{ text: '# %% A[^1]\n\n[^1]: [markdown]\n\nhello\n' }]);
    expect(codes((await client.pull(uri)).items)).toEqual([]);
    await client.close(uri);
  });

  it('gives an ordinary Markdown file no diagnostics, and a .md with message_section its own', async () => {
    const plainUri = fixtureUri('plain.md');
    await client.open(plainUri, readFileSync(path.join(fixtures, 'plain.md'), 'utf8'));
    expect((await client.pull(plainUri)).items).toEqual([]);
    const discussionUri = fixtureUri('discussion.md');
    await client.open(discussionUri, readFileSync(path.join(fixtures, 'discussion.md'), 'utf8'));
    expect(codes((await client.pull(discussionUri)).items)).toEqual(['cell-marker']);
    await client.close(plainUri);
    await client.close(discussionUri);
  });

  it('lints nothing when the editor settings say enable: false', async () => {
    const other = await LspClient.start({ settings: { enable: false } });
    try {
      await other.open(errorsUri, errorsText);
      expect((await other.pull(errorsUri)).items).toEqual([]);
    } finally {
      await other.stop();
    }
  });

  it('applies rule overrides from the editor settings', async () => {
    const other = await LspClient.start({ settings: { rules: { 'cell-marker': 'off', 'history-value': 'warn' } } });
    try {
      await other.open(errorsUri, errorsText);
      const report = await other.pull(errorsUri);
      expect(codes(report.items)).not.toContain('cell-marker');
      expect(report.items!.find((d) => d.code === 'history-value')?.severity).toBe(2);
      // Settings change: the server re-reads them and asks the client to pull again.
      other.settings = {};
      const before = other.refreshes;
      await other.notify('workspace/didChangeConfiguration', { settings: { msglint: {} } });
      await other.until(() => other.refreshes > before, 'a diagnostics refresh');
      expect(codes((await other.pull(errorsUri)).items)).toContain('cell-marker');
    } finally {
      await other.stop();
    }
  });
});

describe('pushed diagnostics', () => {
  it('publishes with the document version, and after fast typing only for the last version', async () => {
    const client = await LspClient.start({ capabilities: pushCapabilities });
    try {
      await client.open(errorsUri, errorsText, 1);
      const first = await client.pushedFor(errorsUri);
      expect(first.version).toBe(1);
      expect(codes(first.diagnostics)).toEqual(expect.arrayContaining(['cell-marker', 'history-value', 'duplicate-id']));
      // Type "abc" in a body, one character per version, then fix the marker.
      let at = positionOf(errorsText, 'Please fix');
      for (const [i, ch] of ['a', 'b', 'c'].entries()) {
        await client.change(errorsUri, 2 + i, [{ range: { start: at, end: at }, text: ch }]);
        at = { line: at.line, character: at.character + 1 };
      }
      const m = positionOf(errorsText, '#%%', 1);
      await client.change(errorsUri, 5, [{ range: { start: m, end: m }, text: ' ' }]);
      const last = await client.pushedFor(errorsUri, (p) => p.version === 5);
      expect(codes(last.diagnostics)).not.toContain('cell-marker');
      // Nothing is published for an intermediate version after a later one.
      const versions = client.published.filter((p) => p.uri === errorsUri).map((p) => p.version!);
      expect(versions).toEqual([...versions].sort((a, b) => a - b));
      expect(versions.at(-1)).toBe(5);
      // Closing clears the diagnostics.
      await client.close(errorsUri);
      const cleared = await client.pushedFor(errorsUri, (p) => p.diagnostics.length === 0);
      expect(cleared.diagnostics).toEqual([]);
    } finally {
      await client.stop();
    }
  });

  it('with run: onSave, lints on open and save only', async () => {
    const client = await LspClient.start({ capabilities: pushCapabilities, settings: { run: 'onSave' } });
    try {
      await client.open(errorsUri, errorsText, 1);
      await client.pushedFor(errorsUri, (p) => p.version === 1);
      const m = positionOf(errorsText, '#%%', 1);
      await client.change(errorsUri, 2, [{ range: { start: m, end: m }, text: ' ' }]);
      await new Promise((r) => setTimeout(r, 400));
      expect(client.published.some((p) => p.version === 2)).toBe(false);
      await client.notify('textDocument/didSave', { textDocument: { uri: errorsUri } });
      const saved = await client.pushedFor(errorsUri, (p) => p.version === 2);
      expect(codes(saved.diagnostics)).not.toContain('cell-marker');
    } finally {
      await client.stop();
    }
  });
});

describe('config files', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'msglint-lsp-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('uses the nearest config file and re-lints when a watched config file changes', async () => {
    const configPath = path.join(dir, '.msglintrc.json');
    writeFileSync(configPath, JSON.stringify({ rules: { 'cell-marker': 'off' } }));
    const file = path.join(dir, 'chat.msg.md');
    writeFileSync(file, errorsText);
    const uri = pathToFileURL(file).href;
    const client = await LspClient.start({ rootDir: dir });
    try {
      await client.open(uri, errorsText);
      const before = await client.pull(uri);
      expect(codes(before.items)).not.toContain('cell-marker');
      expect(codes(before.items)).toContain('history-value');

      writeFileSync(configPath, JSON.stringify({ rules: { 'history-value': 'off' } }));
      const refreshes = client.refreshes;
      await client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(configPath).href, type: 2 }] });
      await client.until(() => client.refreshes > refreshes, 'a diagnostics refresh');
      const after = await client.pull(uri);
      expect(codes(after.items)).toContain('cell-marker');
      expect(codes(after.items)).not.toContain('history-value');

      // Files the config ignores get no diagnostics.
      writeFileSync(configPath, JSON.stringify({ ignores: ['chat.msg.md'] }));
      await client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(configPath).href, type: 2 }] });
      expect((await client.pull(uri)).items).toEqual([]);

      // A broken config is reported to the user and the defaults apply.
      writeFileSync(configPath, '{ "rules": ');
      await client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(configPath).href, type: 2 }] });
      const broken = await client.pull(uri);
      expect(codes(broken.items)).toEqual(expect.arrayContaining(['cell-marker', 'history-value']));
      await client.until(() => client.shown.some((m) => m.message.includes('.msglintrc.json')), 'a config error message');
    } finally {
      await client.stop();
    }
  });

  it('reads a .msglintrc.jsonc, comments and trailing commas, and watches it', async () => {
    const folder = path.join(dir, 'jsonc');
    mkdirSync(folder);
    writeFileSync(path.join(folder, '.msglintrc.jsonc'), '{\n  // the markers are checked elsewhere\n  "rules": { "cell-marker": "off", },\n}\n');
    const file = path.join(folder, 'chat.msg.md');
    writeFileSync(file, errorsText);
    const uri = pathToFileURL(file).href;
    const client = await LspClient.start({ rootDir: folder });
    try {
      await client.open(uri, errorsText);
      const items = (await client.pull(uri)).items;
      expect(codes(items)).not.toContain('cell-marker');
      expect(codes(items)).toContain('history-value');
      await client.until(() => client.registered.some((r) => r.method === 'workspace/didChangeWatchedFiles'), 'the config watchers');
      const watched = client.registered.filter((r) => r.method === 'workspace/didChangeWatchedFiles');
      const globs = watched.flatMap((r) => (r.registerOptions as { watchers: { globPattern: string }[] }).watchers.map((w) => w.globPattern));
      expect(globs).toContain('**/.msglintrc.jsonc');
    } finally {
      await client.stop();
    }
  });
});
