// One language server over stdio, as the benchmark drives it: initialize,
// open a document, send one-character changes, pull (or wait for pushed)
// diagnostics, send requests, read the server's resident set.

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { NODE, OUT, ROOT, sleep } from './util.mjs';

/**
 * Starts the server at `script` (a dist/server/lsp/main.js). Returns a
 * session, or `{ skipped }` when the protocol package is missing or the
 * server does not initialize.
 */
export async function startServer(script, { nodeArgs = [] } = {}) {
  let lsp;
  try {
    lsp = (await import('vscode-languageserver-protocol/node')).default;
  } catch (e) {
    return { skipped: `vscode-languageserver-protocol is not installed (${e.message.split('\n')[0]})` };
  }
  const child = spawn(NODE, [...nodeArgs, script, '--stdio'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d) => {
    if (stderr.length < 20_000) stderr += d;
  });
  let exited = null;
  const exitPromise = new Promise((r) => child.on('exit', (code, signal) => r((exited = { code, signal }))));
  child.on('error', () => {});
  child.stdin.on('error', () => {});
  const conn = lsp.createProtocolConnection(new lsp.StreamMessageReader(child.stdout), new lsp.StreamMessageWriter(child.stdin));
  conn.onError(() => {});
  const pushed = [];
  let pushWaiter = null;
  conn.onNotification('textDocument/publishDiagnostics', (p) => {
    pushed.push(p);
    if (pushWaiter && pushWaiter.test(p)) {
      const w = pushWaiter;
      pushWaiter = null;
      w.resolve(p);
    }
  });
  conn.onNotification(() => {});
  // Server-to-client requests: answer configuration with "no settings", everything else with null.
  conn.onRequest((method, params) => (method === 'workspace/configuration' ? (params?.items ?? []).map(() => null) : null));
  conn.listen();

  const withTimeout = (p, ms, what) => {
    let timer;
    const expired = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms / 1000} s`)), ms);
    });
    const died = exitPromise.then((e) => {
      throw new Error(`${what}: the server exited (${e.signal ?? e.code})`);
    });
    died.catch(() => {});
    return Promise.race([p, expired, died]).finally(() => clearTimeout(timer));
  };
  const stop = async () => {
    try {
      await withTimeout(conn.sendRequest('shutdown'), 5000, 'shutdown');
      await conn.sendNotification('exit');
    } catch {
      // killed below
    }
    await Promise.race([exitPromise, sleep(3000)]);
    if (!exited) child.kill('SIGKILL');
    conn.dispose();
  };

  let init;
  try {
    init = await withTimeout(
      conn.sendRequest('initialize', {
        processId: process.pid,
        clientInfo: { name: 'msglint-bench' },
        rootUri: pathToFileURL(OUT).href,
        workspaceFolders: [{ uri: pathToFileURL(OUT).href, name: 'out' }],
        capabilities: {
          textDocument: {
            synchronization: { dynamicRegistration: false, didSave: true },
            diagnostic: { dynamicRegistration: false, relatedDocumentSupport: false },
            publishDiagnostics: { versionSupport: true },
            completion: { completionItem: { snippetSupport: true } },
            hover: { contentFormat: ['markdown', 'plaintext'] },
          },
          workspace: {},
        },
      }),
      30_000,
      'initialize',
    );
    await conn.sendNotification('initialized', {});
  } catch (e) {
    await stop();
    return { skipped: `the language server did not initialize: ${e.message}${stderr ? ` (${stderr.trim().split('\n')[0]})` : ''}` };
  }
  const pull = !!init?.capabilities?.diagnosticProvider;

  /** One open document: its URI, version and last result id. */
  const docs = new Map();
  const session = {
    pid: child.pid,
    diagnosticsMode: pull ? 'pull' : 'push',
    stderr: () => stderr,
    withTimeout,
    stop,
    async open(file, text) {
      const uri = pathToFileURL(file).href;
      docs.set(uri, { version: 1, resultId: undefined });
      await conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'markdown', version: 1, text } });
      return uri;
    },
    async close(uri) {
      docs.delete(uri);
      await conn.sendNotification('textDocument/didClose', { textDocument: { uri } });
    },
    /** One didChange with the given content changes (ranges in line/character). */
    async change(uri, contentChanges) {
      const d = docs.get(uri);
      d.version++;
      pushed.length = 0;
      await conn.sendNotification('textDocument/didChange', { textDocument: { uri, version: d.version }, contentChanges });
    },
    /** The diagnostics of the document's current version: a pull, or the next push for this version. */
    async diagnostics(uri, what = 'diagnostics') {
      const d = docs.get(uri);
      if (pull) {
        const r = await withTimeout(conn.sendRequest('textDocument/diagnostic', { textDocument: { uri }, previousResultId: d.resultId }), 120_000, what);
        if (r?.resultId) d.resultId = r.resultId;
        return r?.kind === 'full' ? r.items : null;
      }
      const v = d.version;
      const test = (x) => x.uri === uri && (x.version === v || x.version === undefined);
      const seen = pushed.find(test);
      if (seen) return seen.diagnostics;
      const p = await withTimeout(new Promise((resolve) => (pushWaiter = { test, resolve })), 120_000, what);
      return p.diagnostics;
    },
    request(method, params, what = method) {
      return withTimeout(conn.sendRequest(method, params), 60_000, what);
    },
    /** Resident set (VmRSS) and its high-water mark (VmHWM) in MB, or null off Linux. */
    memory() {
      try {
        const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
        const kb = (k) => Number(new RegExp(`${k}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN) / 1024;
        return { rssMB: kb('VmRSS'), peakMB: kb('VmHWM') };
      } catch {
        return null;
      }
    },
  };
  return session;
}

/** Line and UTF-16 character of `offset` in `text` (scans from the start: call it outside timed code). */
export function positionAt(text, offset) {
  let line = 0;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, character: offset - lineStart };
}
