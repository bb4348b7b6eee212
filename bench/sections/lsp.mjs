// The language server over stdio on one file: open to first diagnostics,
// one-character edits to their diagnostics, completion and hover.

import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { NODE, OUT, ROOT, fmtMs, log, median, round, sleep, target } from '../lib/util.mjs';

/** Runs the section and logs its figures; returns results.lsp. */
export async function lspSection(manifest, o) {
  log('\n## language server (stdio, 5,000-turn file)');
  const r = await benchLsp(manifest.files.turns5000.path, o.lspSamples);
  if (r.skipped) log(`  skipped: ${r.skipped}`);
  else {
    log(`  diagnostics: ${r.diagnosticsMode}`);
    log(`  open -> diagnostics            ${fmtMs(r.openToDiagnosticsMs)}`);
    log(`  edit -> diagnostics            median ${fmtMs(r.editToDiagnosticsMs.median)}, max ${fmtMs(r.editToDiagnosticsMs.max)}`);
    log(`  completion                     median ${fmtMs(r.completionMs.median)}, max ${fmtMs(r.completionMs.max)} (${r.completionMs.items} items)`);
    log(`  hover                          median ${fmtMs(r.hoverMs.median)}, max ${fmtMs(r.hoverMs.max)}${r.hoverMs.found ? '' : ' (no hover)'}`);
    log(`  edit -> completion             median ${fmtMs(r.editToCompletionMs.median)}, max ${fmtMs(r.editToCompletionMs.max)}`);
    if (r.serverPeakRssMB) log(`  server peak RSS                ${r.serverPeakRssMB} MB`);
    if (r.warning) log(`  warning: ${r.warning}`);
  }
  return r;
}

export async function benchLsp(file, samples) {
  let lsp;
  try {
    lsp = (await import('vscode-languageserver-protocol/node')).default;
  } catch (e) {
    return { skipped: `vscode-languageserver-protocol is not installed (${e.message.split('\n')[0]})` };
  }
  if (!existsSync(target.lsp)) return { skipped: `${path.relative(ROOT, target.lsp)} is missing` };
  const text = readFileSync(file, 'utf8');
  const uri = pathToFileURL(file).href;
  const lines = text.split('\n');
  const mid = lines.length >> 1;
  // The reply metadata line nearest the middle: hover on the agent name, complete after `[`.
  let metaLine = -1;
  for (let d = 0; d < lines.length && metaLine === -1; d++) {
    for (const l of [mid + d, mid - d]) if (/^\[\^\d+\]: \[coder\]/.test(lines[l] ?? '')) metaLine = l;
  }
  // A prose line of a user message near the middle: the edits type there.
  let proseLine = -1;
  for (let l = mid; l < lines.length && proseLine === -1; l++) {
    if (/^\[\^\d+\]: \[markdown\]/.test(lines[l]) && /^[A-Z]/.test(lines[l + 2] ?? '')) proseLine = l + 2;
  }
  if (metaLine === -1 || proseLine === -1) return { skipped: 'no reply metadata or prose line found in the middle of the file' };
  const bracket = lines[metaLine].indexOf('[coder]');
  const hoverPos = { line: metaLine, character: bracket + 3 };
  const completionPos = { line: metaLine, character: bracket + 1 };

  // BENCH_LSP_NODE_ARGS: extra node options for the server (say, `--cpu-prof --cpu-prof-dir=/tmp/p` to profile it).
  const nodeArgs = (process.env.BENCH_LSP_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
  const child = spawn(NODE, [...nodeArgs, target.lsp, '--stdio'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
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
    if (p.uri !== uri) return;
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

  const result = { file: path.relative(ROOT, file), bytes: Buffer.byteLength(text) };
  try {
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
    result.diagnosticsMode = pull ? 'pull' : 'push';
    let version = 1;
    let resultId;

    /** The diagnostics of the current version: a pull, or the next push for this version. */
    const diagnosticsNow = async (what) => {
      if (pull) {
        const r = await withTimeout(conn.sendRequest('textDocument/diagnostic', { textDocument: { uri }, previousResultId: resultId }), 120_000, what);
        if (r?.resultId) resultId = r.resultId;
        return r?.kind === 'full' ? r.items : null;
      }
      const v = version;
      const seen = pushed.find((p) => p.version === v || p.version === undefined);
      if (seen) return seen.diagnostics;
      const p = await withTimeout(new Promise((resolve) => (pushWaiter = { test: (x) => x.version === v || x.version === undefined, resolve })), 120_000, what);
      return p.diagnostics;
    };
    const edit = async (line, character, newText, removeLength = 0) => {
      version++;
      pushed.length = 0;
      await conn.sendNotification('textDocument/didChange', {
        textDocument: { uri, version },
        contentChanges: [{ range: { start: { line, character }, end: { line, character: character + removeLength } }, text: newText }],
      });
    };

    // open -> first diagnostics
    let t0 = performance.now();
    await conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'markdown', version, text } });
    const first = await diagnosticsNow('first diagnostics');
    result.openToDiagnosticsMs = round(performance.now() - t0, 1);
    result.firstDiagnostics = first?.length ?? null;
    if (first?.length) result.warning = `the server reports ${first.length} diagnostic(s) on a clean file: ${first[0].message}`;

    // one-character edits, each followed by the diagnostics of the new version
    let col = lines[proseLine].length;
    const editMs = [];
    for (let i = 0; i < samples; i++) {
      await sleep(30); // a typist's pause: no work of the previous keystroke left over
      t0 = performance.now();
      await edit(proseLine, col, 'x');
      await diagnosticsNow(`diagnostics after edit ${i + 1}`);
      editMs.push(performance.now() - t0);
      col++;
    }
    result.editToDiagnosticsMs = { median: round(median(editMs), 1), max: round(Math.max(...editMs), 1), samples: editMs.map((x) => round(x, 1)) };

    // completion and hover on the current (already analysed) version
    const timeRequest = async (method, params) => {
      const ms = [];
      let last;
      for (let i = 0; i < samples; i++) {
        t0 = performance.now();
        last = await withTimeout(conn.sendRequest(method, params), 60_000, method);
        ms.push(performance.now() - t0);
      }
      return { median: round(median(ms), 1), max: round(Math.max(...ms), 1), samples: ms.map((x) => round(x, 1)), last };
    };
    const comp = await timeRequest('textDocument/completion', { textDocument: { uri }, position: completionPos, context: { triggerKind: 2, triggerCharacter: '[' } });
    const items = Array.isArray(comp.last) ? comp.last.length : comp.last?.items?.length ?? 0;
    delete comp.last;
    result.completionMs = { ...comp, items, position: completionPos };
    const hov = await timeRequest('textDocument/hover', { textDocument: { uri }, position: hoverPos });
    const hoverFound = !!hov.last;
    delete hov.last;
    result.hoverMs = { ...hov, found: hoverFound, position: hoverPos };

    // completion right after a keystroke (the document changed, nothing analysed yet)
    const afterEdit = [];
    for (let i = 0; i < samples; i++) {
      await sleep(30);
      t0 = performance.now();
      await edit(proseLine, col, 'x');
      await withTimeout(conn.sendRequest('textDocument/completion', { textDocument: { uri }, position: completionPos, context: { triggerKind: 1 } }), 60_000, 'completion');
      afterEdit.push(performance.now() - t0);
      col++;
      if (!pull) await diagnosticsNow('push after edit'); // let the debounced push settle
    }
    result.editToCompletionMs = { median: round(median(afterEdit), 1), max: round(Math.max(...afterEdit), 1) };

    // sanity: a deliberate error must be reported, or the figures above measured nothing
    await edit(metaLine, bracket + 1, 'cdoer', 5);
    const broken = await diagnosticsNow('diagnostics of a broken file');
    result.reportsErrors = !!broken?.length;
    if (!result.reportsErrors) result.warning = 'the server reported nothing for a deliberate error ([cdoer]): the latencies may measure no linting';

    try {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const hwm = /VmHWM:\s+(\d+) kB/.exec(status);
      if (hwm) result.serverPeakRssMB = round(Number(hwm[1]) / 1024, 1);
    } catch {
      // not Linux
    }
  } catch (e) {
    await stop();
    return { ...result, skipped: `the language server failed: ${e.message}${stderr ? `\n${stderr.trim().split('\n').slice(0, 10).join('\n')}` : ''}` };
  }
  await stop();
  return result;
}
