// A real LSP client for the tests: spawns the BUILT server
// (dist/server/lsp/main.js --stdio) and talks JSON-RPC to it over its stdio
// with vscode-languageserver-protocol's client connection.

import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type ClientCapabilities,
  type Diagnostic,
  type InitializeResult,
  type LogMessageParams,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
  type TextDocumentContentChangeEvent,
  type TextEdit,
  type WorkspaceEdit,
} from 'vscode-languageserver-protocol/node';

export const root = fileURLToPath(new URL('../../', import.meta.url));
export const serverMain = path.join(root, 'dist/server/lsp/main.js');
export const fixtures = path.join(root, 'test/fixtures/lsp');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(p));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

let warned = false;

/**
 * Builds dist/ when it is missing (`npm test` builds first). A build older
 * than the sources is only warned about: rebuilding while other test files
 * run servers from dist/ would pull files from under them.
 */
export function ensureBuilt(): void {
  if (existsSync(serverMain)) {
    const built = statSync(serverMain).mtimeMs;
    if (!warned && built < Math.max(newestSource(path.join(root, 'server')), newestSource(path.join(root, 'rules')))) {
      warned = true;
      console.warn('test/lsp: dist/ is older than the sources; run `npx tsc -p tsconfig.json` (npm test does) to test the current code.');
    }
    return;
  }
  const lock = path.join(root, 'dist/.lsp-test-build-lock');
  mkdirSync(path.dirname(lock), { recursive: true });
  let owner = false;
  // A lock left behind by a killed run.
  if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 300_000) rmdirSync(lock);
  try {
    mkdirSync(lock);
    owner = true;
  } catch {
    // Another test file is building: wait for it.
  }
  if (owner) {
    try {
      execFileSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], { cwd: root, stdio: 'inherit' });
    } finally {
      rmdirSync(lock);
    }
  } else {
    const until = Date.now() + 120_000;
    while (existsSync(lock) && Date.now() < until) execFileSync(process.execPath, ['-e', 'setTimeout(()=>{},200)']);
  }
}

/** Capabilities of a modern client: pull diagnostics, snippets, hierarchical symbols, versioned edits. */
export const modernCapabilities: ClientCapabilities = {
  workspace: {
    configuration: true,
    applyEdit: true,
    workspaceEdit: { documentChanges: true },
    didChangeConfiguration: { dynamicRegistration: true },
    didChangeWatchedFiles: { dynamicRegistration: true },
    diagnostics: { refreshSupport: true },
  },
  textDocument: {
    synchronization: { didSave: true },
    diagnostic: { dynamicRegistration: false, relatedDocumentSupport: false },
    publishDiagnostics: { relatedInformation: true, tagSupport: { valueSet: [1, 2] }, versionSupport: true, codeDescriptionSupport: true },
    completion: { completionItem: { snippetSupport: true } },
    hover: { contentFormat: ['markdown', 'plaintext'] },
    documentSymbol: { hierarchicalDocumentSymbolSupport: true },
    rename: { prepareSupport: true },
    codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix', 'source', 'source.fixAll'] } } },
    semanticTokens: { requests: { full: true, range: true }, tokenTypes: [], tokenModifiers: [], formats: ['relative'] },
  },
};

/** A client that only takes pushed diagnostics (no textDocument.diagnostic). */
export const pushCapabilities: ClientCapabilities = {
  ...modernCapabilities,
  textDocument: { ...modernCapabilities.textDocument, diagnostic: undefined },
};

export interface StartOptions {
  capabilities?: ClientCapabilities;
  /** What the client answers to workspace/configuration for section `msglint`. */
  settings?: unknown;
  rootDir?: string;
}

export class LspClient {
  readonly published: PublishDiagnosticsParams[] = [];
  readonly logs: LogMessageParams[] = [];
  readonly shown: LogMessageParams[] = [];
  readonly applied: WorkspaceEdit[] = [];
  /** What the server registered (client/registerCapability), in order. */
  readonly registered: { method: string; registerOptions?: unknown }[] = [];
  refreshes = 0;
  settings: unknown;
  initializeResult!: InitializeResult;
  private readonly waiters: (() => void)[] = [];
  private stderr = '';

  private constructor(
    readonly proc: ChildProcess,
    readonly conn: ProtocolConnection,
  ) {}

  static async start(options: StartOptions = {}): Promise<LspClient> {
    ensureBuilt();
    const proc = spawn(process.execPath, [serverMain, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
    const conn = createProtocolConnection(new StreamMessageReader(proc.stdout!), new StreamMessageWriter(proc.stdin!));
    const client = new LspClient(proc, conn);
    proc.stderr!.on('data', (d: Buffer) => (client.stderr += d.toString()));
    client.settings = options.settings ?? null;
    conn.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
      client.published.push(p);
      client.wake();
    });
    conn.onNotification('window/logMessage', (p: LogMessageParams) => {
      client.logs.push(p);
      client.wake();
    });
    conn.onNotification('window/showMessage', (p: LogMessageParams) => {
      client.shown.push(p);
      client.wake();
    });
    conn.onRequest('workspace/configuration', (p: { items: { section?: string }[] }) => p.items.map((i) => (i.section === 'msglint' ? client.settings : null)));
    conn.onRequest('client/registerCapability', (p: { registrations: { method: string; registerOptions?: unknown }[] }) => {
      client.registered.push(...p.registrations);
      client.wake();
      return null;
    });
    conn.onRequest('window/workDoneProgress/create', () => null);
    conn.onRequest('workspace/diagnostic/refresh', () => {
      client.refreshes++;
      client.wake();
      return null;
    });
    conn.onRequest('workspace/applyEdit', (p: { edit: WorkspaceEdit }) => {
      client.applied.push(p.edit);
      client.wake();
      return { applied: true };
    });
    conn.listen();
    const rootDir = options.rootDir ?? root;
    client.initializeResult = await conn.sendRequest('initialize', {
      processId: process.pid,
      rootUri: pathToFileURL(rootDir).href,
      workspaceFolders: [{ uri: pathToFileURL(rootDir).href, name: 'test' }],
      capabilities: options.capabilities ?? modernCapabilities,
    });
    await conn.sendNotification('initialized', {});
    return client;
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  /** Waits until `check` returns a value (re-checked on every message from the server). */
  async until<T>(check: () => T | undefined | false, what: string, timeoutMs = 10_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const v = check();
      if (v !== undefined && v !== false) return v;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}; server stderr: ${this.stderr.slice(-2000)}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, Math.min(left, 100));
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  request<R = any>(method: string, params: unknown): Promise<R> {
    return this.conn.sendRequest(method, params) as Promise<R>;
  }

  notify(method: string, params: unknown): Promise<void> {
    return this.conn.sendNotification(method, params);
  }

  async open(uri: string, text: string, version = 1, languageId = 'markdown'): Promise<void> {
    await this.notify('textDocument/didOpen', { textDocument: { uri, languageId, version, text } });
  }

  async change(uri: string, version: number, changes: TextDocumentContentChangeEvent[]): Promise<void> {
    await this.notify('textDocument/didChange', { textDocument: { uri, version }, contentChanges: changes });
  }

  async close(uri: string): Promise<void> {
    await this.notify('textDocument/didClose', { textDocument: { uri } });
  }

  /** Pulls diagnostics (textDocument/diagnostic). */
  async pull(uri: string, previousResultId?: string): Promise<{ kind: string; resultId?: string; items?: Diagnostic[] }> {
    return this.request('textDocument/diagnostic', { textDocument: { uri }, previousResultId });
  }

  /** The latest pushed diagnostics for a URI that satisfy `accept`. */
  async pushedFor(uri: string, accept: (p: PublishDiagnosticsParams) => boolean = () => true): Promise<PublishDiagnosticsParams> {
    return this.until(() => [...this.published].reverse().find((p) => p.uri === uri && accept(p)), `diagnostics for ${uri}`);
  }

  async stop(): Promise<void> {
    try {
      await Promise.race([this.request('shutdown', null), new Promise((r) => setTimeout(r, 2000))]);
      await this.notify('exit', null);
    } catch {
      // already gone
    }
    this.conn.dispose();
    await new Promise<void>((resolve) => {
      if (this.proc.exitCode !== null) return resolve();
      const t = setTimeout(() => {
        this.proc.kill();
        resolve();
      }, 2000);
      this.proc.once('exit', () => {
        clearTimeout(t);
        resolve();
      });
    });
  }

  get alive(): boolean {
    return this.proc.exitCode === null;
  }

  get errorLogs(): string[] {
    return this.logs.filter((l) => l.type === 1).map((l) => l.message);
  }
}

/** Applies LSP text edits to a text (the way an editor does). */
export function applyTextEdits(text: string, edits: TextEdit[]): string {
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') lineStarts.push(i + 1);
  const offset = (p: { line: number; character: number }) => Math.min((lineStarts[p.line] ?? text.length) + p.character, text.length);
  const sorted = [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start));
  let out = text;
  for (const e of sorted) out = out.slice(0, offset(e.range.start)) + e.newText + out.slice(offset(e.range.end));
  return out;
}

/** The edits of a workspace edit for one URI (documentChanges or changes). */
export function editsFor(edit: WorkspaceEdit, uri: string): TextEdit[] {
  const out: TextEdit[] = [];
  for (const dc of edit.documentChanges ?? []) {
    if ('textDocument' in dc && dc.textDocument.uri === uri) out.push(...(dc.edits as TextEdit[]));
  }
  out.push(...(edit.changes?.[uri] ?? []));
  return out;
}

/** A file: URI for a (not necessarily existing) path under test/fixtures/lsp. */
export function fixtureUri(name: string): string {
  return pathToFileURL(path.join(fixtures, name)).href;
}

/** The line/character of the n-th occurrence (0-based) of `needle` in `text`, plus `delta` characters. */
export function positionOf(text: string, needle: string, delta = 0, nth = 0): { line: number; character: number } {
  let at = -1;
  for (let i = 0; i <= nth; i++) {
    at = text.indexOf(needle, at + 1);
    if (at === -1) throw new Error(`'${needle}' not found (${nth})`);
  }
  at += delta;
  const before = text.slice(0, at);
  const line = before.split('\n').length - 1;
  return { line, character: at - (before.lastIndexOf('\n') + 1) };
}
