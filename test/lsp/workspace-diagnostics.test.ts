// Problems in files nobody opened, over stdio: workspace/diagnostic (result
// ids, partial results, progress) and the msglint.lintWorkspace command for
// clients that only take pushed diagnostics. The files are those the command
// lints, with the same config files and `ignores`, and the same findings.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Diagnostic, WorkspaceDiagnosticReport, WorkspaceDocumentDiagnosticReport } from 'vscode-languageserver-protocol';
import { CancellationTokenSource } from 'vscode-languageserver-protocol';
import { afterAll, describe, expect, it } from 'vitest';
import { generateMessageFile } from '../../bench/generate.mjs';
import { writeTree } from '../cli/helpers.js';
import { LspClient, modernCapabilities, pushCapabilities, root } from './client.js';

const CLI = path.join(root, 'dist/cli/main.js');
const BROKEN = '#%% Hi[^1]\n\n[^1]: [markdown]\n\nHello.\n';
const NO_ID = '# %% Hi\n\nHello.\n';
const CLEAN = '# %% Hi[^1]\n\n[^1]: [markdown]\n\nHello.\n';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function workspace(): string {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'msglint-workspace-')));
  dirs.push(dir);
  writeTree(dir, {
    '.msglintrc.json': JSON.stringify({ ignores: ['drafts'], rules: { 'cell-id-missing': 'error' }, overrides: [{ files: ['quiet/**'], rules: { 'cell-id-missing': 'off' } }] }),
    'a.msg.md': BROKEN,
    'docs/b.msg.md': NO_ID,
    'docs/clean.msg.md': CLEAN,
    'quiet/c.msg.md': NO_ID,
    'drafts/d.msg.md': BROKEN,
    'node_modules/pkg/e.msg.md': BROKEN,
    'notes.md': '# Notes\n\n#%% not a message file\n',
    '.gitignore': 'build/\n',
    'build/f.msg.md': BROKEN,
  });
  return dir;
}

const uriOf = (dir: string, file: string) => pathToFileURL(path.join(dir, file)).href;

/** What `msglint --format json .` reports in `dir`: file -> [rule, 1-based line, column] of each problem. */
function cliProblems(dir: string): Record<string, [string, number, number][]> {
  const r = spawnSync(process.execPath, [CLI, '--format', 'json', '.'], { cwd: dir, encoding: 'utf8' });
  const reports = JSON.parse(r.stdout) as { filePath: string; messages: { ruleId: string; line: number; column: number }[] }[];
  return Object.fromEntries(reports.map((f) => [pathToFileURL(f.filePath).href, f.messages.map((m) => [m.ruleId, m.line, m.column] as [string, number, number])]));
}

const asProblems = (items: Diagnostic[]) => items.map((d) => [String(d.code), d.range.start.line + 1, d.range.start.character + 1]);

function fullReports(reports: WorkspaceDocumentDiagnosticReport[]): Record<string, [string, number, number][]> {
  return Object.fromEntries(reports.flatMap((r) => (r.kind === 'full' ? [[r.uri, asProblems(r.items)]] : [])));
}

describe('workspace/diagnostic', () => {
  it('reports every message file the command lints, with its findings, honouring config files, ignores and overrides', async () => {
    const dir = workspace();
    const client = await LspClient.start({ rootDir: dir });
    try {
      expect(client.initializeResult.capabilities.diagnosticProvider).toMatchObject({ workspaceDiagnostics: true });
      const report = await client.request<WorkspaceDiagnosticReport>('workspace/diagnostic', { previousResultIds: [] });
      expect(fullReports(report.items)).toEqual(cliProblems(dir));
      expect(Object.keys(fullReports(report.items)).sort()).toEqual(['a.msg.md', 'docs/b.msg.md', 'docs/clean.msg.md', 'quiet/c.msg.md'].map((f) => uriOf(dir, f)).sort());
      expect(report.items.every((r) => r.version === null && typeof r.resultId === 'string')).toBe(true);
    } finally {
      await client.stop();
    }
  });

  it('answers "unchanged" for result ids the client still has, and sends what changed, appeared or went', async () => {
    const dir = workspace();
    const client = await LspClient.start({ rootDir: dir });
    try {
      const first = await client.request<WorkspaceDiagnosticReport>('workspace/diagnostic', { previousResultIds: [] });
      const previousResultIds = first.items.map((r) => ({ uri: r.uri, value: r.resultId! }));
      writeFileSync(path.join(dir, 'docs/b.msg.md'), CLEAN);
      writeTree(dir, { 'new.msg.md': BROKEN });
      rmSync(path.join(dir, 'a.msg.md'));
      const second = await client.request<WorkspaceDiagnosticReport>('workspace/diagnostic', { previousResultIds });
      const byUri = Object.fromEntries(second.items.map((r) => [r.uri, r]));
      expect(byUri[uriOf(dir, 'docs/clean.msg.md')]!.kind).toBe('unchanged');
      expect(byUri[uriOf(dir, 'quiet/c.msg.md')]!.kind).toBe('unchanged');
      expect(byUri[uriOf(dir, 'docs/b.msg.md')]).toMatchObject({ kind: 'full', items: [] });
      expect(asProblems((byUri[uriOf(dir, 'new.msg.md')] as { items: Diagnostic[] }).items)).toEqual([['cell-marker', 1, 1]]);
      // Gone: an empty report, so the client drops what it showed.
      expect(byUri[uriOf(dir, 'a.msg.md')]).toMatchObject({ kind: 'full', items: [] });
    } finally {
      await client.stop();
    }
  });

  it('leaves open documents to the document pull, and reports a closed one in full again', async () => {
    const dir = workspace();
    const client = await LspClient.start({ rootDir: dir });
    try {
      const first = await client.request<WorkspaceDiagnosticReport>('workspace/diagnostic', { previousResultIds: [] });
      const previousResultIds = first.items.map((r) => ({ uri: r.uri, value: r.resultId! }));
      const a = uriOf(dir, 'a.msg.md');
      await client.open(a, CLEAN);
      const whileOpen = await client.request<WorkspaceDiagnosticReport>('workspace/diagnostic', { previousResultIds });
      expect(whileOpen.items.map((r) => r.uri)).not.toContain(a);
      await client.close(a);
      const afterClose = await client.request<WorkspaceDiagnosticReport>('workspace/diagnostic', { previousResultIds });
      expect(afterClose.items.find((r) => r.uri === a)).toMatchObject({ kind: 'full', items: [expect.objectContaining({ code: 'cell-marker' })] });
    } finally {
      await client.stop();
    }
  });

  it('reads a UTF-16 file by its byte order mark and reports bytes that are not text, as the command does', async () => {
    const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'msglint-workspace-')));
    dirs.push(dir);
    const token = `glpat-${'Xy7wV3kQ9z'.repeat(2)}Ab`; // made, not written out: no key-shaped literal in the repository
    writeTree(dir, {
      'utf16.msg.md': Buffer.from(`\ufeff${CLEAN}${token}\n`, 'utf16le'),
      'latin1.msg.md': Buffer.concat([Buffer.from(`${CLEAN}caf`), Buffer.from([0xe9, 0x0a])]),
      'binary.msg.md': Buffer.from(`${CLEAN}\0`),
    });
    const client = await LspClient.start({ rootDir: dir });
    try {
      const report = await client.request<WorkspaceDiagnosticReport>('workspace/diagnostic', { previousResultIds: [] });
      const problems = fullReports(report.items);
      expect(problems).toEqual(cliProblems(dir));
      expect(problems[uriOf(dir, 'utf16.msg.md')]).toEqual([['secret', 6, 1]]);
      expect(problems[uriOf(dir, 'latin1.msg.md')]).toEqual([['file-encoding', 6, 4]]);
      expect(problems[uriOf(dir, 'binary.msg.md')]).toEqual([['file-encoding', 1, 1]]);
    } finally {
      await client.stop();
    }
  });

  it('streams partial results and reports progress on the tokens the client gives', async () => {
    const dir = workspace();
    writeTree(dir, Object.fromEntries(Array.from({ length: 120 }, (_, i) => [`many/m${i}.msg.md`, NO_ID])));
    const client = await LspClient.start({ rootDir: dir });
    const partials: WorkspaceDocumentDiagnosticReport[][] = [];
    const progress: { kind: string; percentage?: number }[] = [];
    client.conn.onNotification('$/progress', (p: { token: string; value: unknown }) => {
      if (p.token === 'partial') partials.push((p.value as { items: WorkspaceDocumentDiagnosticReport[] }).items);
      else if (p.token === 'work') progress.push(p.value as { kind: string });
    });
    try {
      const final = await client.request<WorkspaceDiagnosticReport>('workspace/diagnostic', { previousResultIds: [], partialResultToken: 'partial', workDoneToken: 'work' });
      expect(final.items).toEqual([]);
      expect(partials.length).toBeGreaterThan(2);
      const streamed = partials.flat();
      expect(streamed).toHaveLength(124);
      expect(fullReports(streamed)).toEqual(cliProblems(dir));
      expect(progress[0]!.kind).toBe('begin');
      expect(progress.at(-1)!.kind).toBe('end');
      expect(progress.filter((p) => p.kind === 'report').length).toBeGreaterThan(1);
    } finally {
      await client.stop();
    }
  });

  it('a cancel is heeded while a file is linted: RequestCancelled, and the next request reports every file', async () => {
    // 50 files make the first partial result; it is sent as the large file after them begins (some 300 ms of lint).
    const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'msglint-workspace-')));
    dirs.push(dir);
    writeTree(dir, {
      ...Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`a/f${String(i).padStart(2, '0')}.msg.md`, CLEAN])),
      'b/big.msg.md': `${generateMessageFile({ turns: 1000 })}#%%\n`,
    });
    const client = await LspClient.start({ rootDir: dir });
    const cancel = new CancellationTokenSource();
    client.conn.onNotification('$/progress', (p: { token: string }) => {
      if (p.token === 'partial') cancel.cancel();
    });
    try {
      const answer = await client.conn.sendRequest('workspace/diagnostic', { previousResultIds: [], partialResultToken: 'partial' }, cancel.token).then(
        () => undefined,
        (e: { code: number; message: string }) => e,
      );
      expect(answer).toMatchObject({ code: -32800, message: 'workspace/diagnostic: cancelled while linting' });
      const report = await client.request<WorkspaceDiagnosticReport>('workspace/diagnostic', { previousResultIds: [] });
      expect(fullReports(report.items)).toEqual(cliProblems(dir));
      expect(fullReports(report.items)[uriOf(dir, 'b/big.msg.md')]!.length).toBeGreaterThan(0);
    } finally {
      await client.stop();
    }
  }, 120_000);
});

describe('files a folder should not be trusted with (issue 45, point 5)', () => {
  it('a link to /proc/self/pagemap named like a message file: answered, with one problem for it; a link to /dev/zero: named in the log; the others linted', async (context) => {
    if (!existsSync('/proc/self/pagemap') || !existsSync('/dev/zero')) return context.skip('no /proc or /dev here');
    const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'msglint-workspace-')));
    dirs.push(dir);
    writeTree(dir, { 'a.msg.md': BROKEN });
    symlinkSync('/proc/self/pagemap', path.join(dir, 'pagemap.msg.md'));
    symlinkSync('/dev/zero', path.join(dir, 'zero.msg.md'));
    const client = await LspClient.start({ rootDir: dir });
    try {
      const report = await client.request<WorkspaceDiagnosticReport>('workspace/diagnostic', { previousResultIds: [] });
      const full = Object.fromEntries(report.items.flatMap((r) => (r.kind === 'full' ? [[r.uri, r.items]] : [])));
      expect(Object.keys(full).sort()).toEqual([uriOf(dir, 'a.msg.md'), uriOf(dir, 'pagemap.msg.md')].sort());
      expect(full[uriOf(dir, 'pagemap.msg.md')]).toEqual([
        { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, severity: 1, source: 'msglint', message: 'not linted: larger than 64 MiB' },
      ]);
      expect(asProblems(full[uriOf(dir, 'a.msg.md')]!)).toEqual([['cell-marker', 1, 1]]);
      expect(client.logs.map((l) => l.message)).toContain('msglint: zero.msg.md: not a regular file');
      // Asked again with the result ids it has: unchanged, not read again.
      const again = await client.request<WorkspaceDiagnosticReport>('workspace/diagnostic', { previousResultIds: report.items.map((r) => ({ uri: r.uri, value: r.resultId! })) });
      expect(again.items.map((r) => r.kind)).toEqual(['unchanged', 'unchanged']);
    } finally {
      await client.stop();
    }
  }, 60_000);
});

describe('msglint.lintWorkspace', () => {
  it('publishes the problems of files nobody opened to a client without pull diagnostics, and clears them once fixed', async () => {
    const dir = workspace();
    const client = await LspClient.start({ rootDir: dir, capabilities: pushCapabilities });
    try {
      expect(client.initializeResult.capabilities.diagnosticProvider).toBeUndefined();
      const result = await client.request('workspace/executeCommand', { command: 'msglint.lintWorkspace', arguments: [] });
      const expected = Object.fromEntries(Object.entries(cliProblems(dir)).filter(([, problems]) => problems.length));
      expect(result).toEqual({ files: 2, problems: 2 });
      const published = Object.fromEntries(client.published.map((p) => [p.uri, asProblems(p.diagnostics)]));
      expect(published).toEqual(expected);
      writeFileSync(path.join(dir, 'a.msg.md'), CLEAN);
      client.published.length = 0;
      expect(await client.request('workspace/executeCommand', { command: 'msglint.lintWorkspace' })).toEqual({ files: 1, problems: 1 });
      expect(client.published.find((p) => p.uri === uriOf(dir, 'a.msg.md'))?.diagnostics).toEqual([]);
    } finally {
      await client.stop();
    }
  });

  it('asks a client that pulls workspace diagnostics to pull again', async () => {
    const client = await LspClient.start({ rootDir: workspace(), capabilities: modernCapabilities });
    try {
      const before = client.refreshes;
      expect(await client.request('workspace/executeCommand', { command: 'msglint.lintWorkspace' })).toEqual({ refreshed: true });
      expect(client.refreshes).toBe(before + 1);
    } finally {
      await client.stop();
    }
  });
});
