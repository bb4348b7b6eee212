// Packs the extension once per test file (client/build.mjs --package, into a
// temporary folder), unpacks it, and talks LSP over stdio to the server
// bundled in it.

import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type ApplyWorkspaceEditParams,
  type ClientCapabilities,
  type InitializeResult,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol/node';
import { ZipFile } from './zip.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CLIENT = path.join(ROOT, 'client');

export interface Packed {
  dir: string;
  vsixPath: string;
  zip: ZipFile;
  /** Where the archive's `extension/` folder was unpacked. */
  extensionDir: string;
  cleanup(): void;
}

/** Packs the .vsix with the project's own script and unpacks it. */
export async function packExtension(): Promise<Packed> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'msglint-client-test-'));
  const vsixPath = path.join(dir, 'msglint.vsix');
  await promisify(execFile)(process.execPath, [path.join(CLIENT, 'build.mjs'), '--package', '--out', vsixPath], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
  const zip = new ZipFile(readFileSync(vsixPath));
  const unpacked = path.join(dir, 'unpacked');
  for (const name of zip.names) {
    if (name.endsWith('/')) continue;
    const file = path.join(unpacked, name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, zip.read(name));
  }
  return { dir, vsixPath, zip, extensionDir: path.join(unpacked, 'extension'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface ServerSession {
  connection: ProtocolConnection;
  process: ChildProcess;
  initializeResult: InitializeResult;
  published: PublishDiagnosticsParams[];
  appliedEdits: ApplyWorkspaceEditParams[];
  stderr: () => string;
  /** The first publishDiagnostics for `uri` that satisfies `accept`. */
  waitForPublished(uri: string, accept?: (p: PublishDiagnosticsParams) => boolean, timeoutMs?: number): Promise<PublishDiagnosticsParams>;
  close(): Promise<void>;
}

/**
 * Starts `node SERVER --stdio` in `cwd` with an environment that cannot
 * reach the repository's node_modules (NODE_PATH cleared), initializes it
 * and answers the requests a client answers.
 */
export async function startServer(serverJs: string, cwd: string, capabilities: ClientCapabilities, settings: Record<string, unknown> = {}): Promise<ServerSession> {
  const env = { ...process.env };
  delete env.NODE_PATH;
  delete env.NODE_OPTIONS;
  const child = spawn(process.execPath, [serverJs, '--stdio'], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const connection = createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  const published: PublishDiagnosticsParams[] = [];
  const waiters: { uri: string; accept: (p: PublishDiagnosticsParams) => boolean; resolve: (p: PublishDiagnosticsParams) => void }[] = [];
  connection.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
    published.push(p);
    for (const w of [...waiters]) {
      if (w.uri === p.uri && w.accept(p)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(p);
      }
    }
  });
  const appliedEdits: ApplyWorkspaceEditParams[] = [];
  connection.onRequest('workspace/applyEdit', (p: ApplyWorkspaceEditParams) => {
    appliedEdits.push(p);
    return { applied: true };
  });
  connection.onRequest('workspace/configuration', (p: { items: { section?: string }[] }) => p.items.map((i) => (i.section === 'msglint' ? settings : null)));
  connection.onRequest('client/registerCapability', () => null);
  connection.onRequest('client/unregisterCapability', () => null);
  connection.onRequest('workspace/diagnostic/refresh', () => null);
  connection.onRequest('workspace/semanticTokens/refresh', () => null);
  connection.onRequest('window/workDoneProgress/create', () => null);
  connection.onNotification('window/logMessage', () => undefined);
  connection.onNotification('window/showMessage', () => undefined);
  connection.listen();

  const initializeResult = (await connection.sendRequest('initialize', {
    processId: process.pid,
    rootUri: null,
    workspaceFolders: null,
    capabilities,
  })) as InitializeResult;
  await connection.sendNotification('initialized', {});

  return {
    connection,
    process: child,
    initializeResult,
    published,
    appliedEdits,
    stderr: () => stderr,
    waitForPublished(uri, accept = () => true, timeoutMs = 15_000) {
      const already = published.find((p) => p.uri === uri && accept(p));
      if (already) return Promise.resolve(already);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`No publishDiagnostics for ${uri} in ${timeoutMs} ms; stderr: ${stderr}`)), timeoutMs);
        waiters.push({
          uri,
          accept,
          resolve: (p) => {
            clearTimeout(timer);
            resolve(p);
          },
        });
      });
    },
    async close() {
      try {
        await Promise.race([connection.sendRequest('shutdown'), new Promise((r) => setTimeout(r, 2000))]);
        await connection.sendNotification('exit');
      } catch {
        // Already gone.
      }
      connection.dispose();
      await new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const timer = setTimeout(() => {
          child.kill();
          resolve();
        }, 2000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
  };
}
