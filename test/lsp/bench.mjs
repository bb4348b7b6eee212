// Language server latency benchmark (not a test: timings vary by machine).
//   npx tsc -p tsconfig.json && node test/lsp/bench.mjs [TURNS=5000] [EDITS=30]
// Generates a message file with bench/generate.mjs --turns N (or the file
// named by MSGLINT_BENCH_FILE), opens it in the built server over stdio and
// measures, after one-character edits in the middle of the file: pulled
// diagnostics, pushed diagnostics (debounce excluded), completion, hover,
// and the on-request features once per version.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver-protocol/node';

const root = fileURLToPath(new URL('../../', import.meta.url));
const turns = Number(process.argv[2] ?? 5000);
const edits = Number(process.argv[3] ?? 30);
const generator = path.join(root, 'bench/generate.mjs');
const text = process.env.MSGLINT_BENCH_FILE
  ? readFileSync(process.env.MSGLINT_BENCH_FILE, 'utf8')
  : execFileSync(process.execPath, [generator, '--turns', String(turns)], { encoding: 'utf8', maxBuffer: 1 << 30 });
const uri = pathToFileURL(path.join(root, 'bench.msg.md')).href;
const server = path.join(root, 'dist/server/lsp/main.js');
if (!existsSync(server)) throw new Error('build first: npx tsc -p tsconfig.json');

const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))].toFixed(1);
  return `median ${q(0.5)} ms, p90 ${q(0.9)} ms, max ${s[s.length - 1].toFixed(1)} ms (n=${s.length})`;
};

async function start(pull) {
  const proc = spawn(process.execPath, [server, '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const conn = createProtocolConnection(new StreamMessageReader(proc.stdout), new StreamMessageWriter(proc.stdin));
  const published = [];
  let wake = () => {};
  conn.onNotification('textDocument/publishDiagnostics', (p) => {
    published.push({ ...p, at: performance.now() });
    wake();
  });
  conn.onRequest('workspace/configuration', (p) => p.items.map(() => null));
  conn.onRequest('client/registerCapability', () => null);
  conn.listen();
  await conn.sendRequest('initialize', {
    processId: process.pid,
    rootUri: pathToFileURL(root).href,
    capabilities: {
      workspace: { configuration: true },
      textDocument: { ...(pull ? { diagnostic: {} } : {}), completion: { completionItem: { snippetSupport: true } }, documentSymbol: { hierarchicalDocumentSymbolSupport: true } },
    },
  });
  await conn.sendNotification('initialized', {});
  const waitPublished = (version) =>
    new Promise((resolve) => {
      const check = () => {
        const p = published.find((x) => x.version === version);
        if (p) resolve(p);
        else wake = check;
      };
      check();
    });
  return { proc, conn, waitPublished };
}

const lines = text.split('\n');
const mid = Math.floor(lines.length / 2);
// A body line in the middle of the file (plain text of a message cell).
let editLine = mid;
while (!/^[a-z]/.test(lines[editLine])) editLine++;
const replyLine = lines.findIndex((l, i) => i > mid && /^\[\^\d+\]: \[coder\]/.test(l));

console.log(`file: ${(text.length / 1e6).toFixed(1)} MB, ${lines.length} lines; edits at line ${editLine}`);

{
  const { proc, conn } = await start(true);
  let t = performance.now();
  await conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'markdown', version: 1, text } });
  let r = await conn.sendRequest('textDocument/diagnostic', { textDocument: { uri } });
  console.log(`open + first pull: ${(performance.now() - t).toFixed(0)} ms (${r.items.length} diagnostics)`);
  const pulls = [];
  const completions = [];
  const hovers = [];
  for (let v = 2; v < edits + 2; v++) {
    await conn.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: v },
      contentChanges: [{ range: { start: { line: editLine, character: 0 }, end: { line: editLine, character: 0 } }, text: 'x' }],
    });
    t = performance.now();
    r = await conn.sendRequest('textDocument/diagnostic', { textDocument: { uri } });
    pulls.push(performance.now() - t);
    t = performance.now();
    await conn.sendRequest('textDocument/completion', { textDocument: { uri }, position: { line: replyLine, character: lines[replyLine].indexOf(']: [') + 4 } });
    completions.push(performance.now() - t);
    t = performance.now();
    await conn.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: replyLine, character: 3 } });
    hovers.push(performance.now() - t);
  }
  console.log(`pull diagnostics after a 1-char edit: ${stats(pulls)}`);
  console.log(`completion (same version, after the pull): ${stats(completions)}`);
  console.log(`hover (same version): ${stats(hovers)}`);

  // Completion and hover right after an edit (they pay for the parse themselves).
  const cold = [];
  for (let v = edits + 2; v < edits + 12; v++) {
    await conn.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: v },
      contentChanges: [{ range: { start: { line: editLine, character: 0 }, end: { line: editLine, character: 0 } }, text: 'y' }],
    });
    t = performance.now();
    await conn.sendRequest('textDocument/completion', { textDocument: { uri }, position: { line: replyLine, character: lines[replyLine].indexOf(']: [') + 4 } });
    cold.push(performance.now() - t);
  }
  console.log(`completion right after an edit (includes the re-parse): ${stats(cold)}`);

  for (const [method, params] of [
    ['textDocument/documentSymbol', { textDocument: { uri } }],
    ['textDocument/foldingRange', { textDocument: { uri } }],
    ['textDocument/semanticTokens/full', { textDocument: { uri } }],
    ['textDocument/semanticTokens/range', { textDocument: { uri }, range: { start: { line: editLine - 40, character: 0 }, end: { line: editLine + 40, character: 0 } } }],
    ['textDocument/formatting', { textDocument: { uri }, options: { tabSize: 2, insertSpaces: true } }],
  ]) {
    t = performance.now();
    await conn.sendRequest(method, params);
    const first = performance.now() - t;
    t = performance.now();
    await conn.sendRequest(method, params);
    console.log(`${method}: ${first.toFixed(1)} ms first, ${(performance.now() - t).toFixed(1)} ms cached`);
  }
  proc.kill();
}

{
  const { proc, conn, waitPublished } = await start(false);
  await conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'markdown', version: 1, text } });
  await waitPublished(1);
  const pushes = [];
  for (let v = 2; v < edits + 2; v++) {
    const t = performance.now();
    await conn.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: v },
      contentChanges: [{ range: { start: { line: editLine, character: 0 }, end: { line: editLine, character: 0 } }, text: 'x' }],
    });
    await waitPublished(v);
    pushes.push(performance.now() - t);
  }
  console.log(`push diagnostics after a 1-char edit (includes the 120 ms typing pause): ${stats(pushes)}`);
  proc.kill();
}
process.exit(0);
