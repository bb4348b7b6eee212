// Issue 35 in the language server, over stdio: the protocol's lifecycle and
// cancellation (point 10), a folder whose config is a special file (point 1)
// or nests rule options thousands deep (point 3): each answered, never a
// server that hangs or goes silent.

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { generateMessageFile } from '../../bench/generate.mjs';
import { fixes } from '../../bench/lib/crafted.mjs';
import { lint } from '../../server/linter.js';
import { ensureBuilt, LspClient, serverMain } from './client.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(files: Record<string, string>): string {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'msglint-lsp-')));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return dir;
}

type Answer = { id: number | null; result?: unknown; error?: { code: number; message: string; data?: unknown } };
type Notification = { method: string; params: any };

/** The server spoken to byte by byte: what the test writes, and the answers (responses only) it reads. */
function rawServer() {
  ensureBuilt();
  const proc = spawn(process.execPath, [serverMain, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let buffer = Buffer.alloc(0);
  const answers: Answer[] = [];
  const notifications: Notification[] = [];
  /** Woken on every message: a test that answers the server at once must not lose a polling interval. */
  let waiting: (() => void)[] = [];
  const arrived = () => new Promise<void>((resolve) => waiting.push(resolve));
  const within = (ms: number) => Promise.race([arrived(), new Promise((resolve) => setTimeout(resolve, ms))]);
  proc.stdout.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      const end = buffer.indexOf('\r\n\r\n');
      if (end === -1) return;
      const length = Number(/Content-Length: (\d+)/i.exec(buffer.subarray(0, end).toString('latin1'))![1]);
      if (buffer.length < end + 4 + length) return;
      const message = JSON.parse(buffer.subarray(end + 4, end + 4 + length).toString('utf8'));
      buffer = buffer.subarray(end + 4 + length);
      if ('id' in message && !('method' in message)) answers.push(message);
      else if (!('id' in message)) notifications.push(message);
      const wake = waiting;
      waiting = [];
      for (const w of wake) w();
    }
  });
  const frame = (body: unknown) => {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    return `Content-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`;
  };
  return {
    /** Writes the messages in one write, so the server reads them together. */
    send: (...bodies: unknown[]) => proc.stdin.write(bodies.map(frame).join('')),
    answer: async (id: number | null): Promise<Answer> => {
      for (let i = 0; i < 600; i++) {
        const found = answers.find((a) => a.id === id);
        if (found) return found;
        await within(50);
      }
      throw new Error(`no answer to ${id}`);
    },
    /** The answers so far, in the order they came. */
    answers,
    notifications,
    /** Waits for a notification that `pick` chooses. */
    notification: async (pick: (n: Notification) => boolean): Promise<Notification> => {
      for (let i = 0; i < 600; i++) {
        const found = notifications.find(pick);
        if (found) return found;
        await within(50);
      }
      throw new Error('no such notification');
    },
    stop: () => proc.kill(),
  };
}

const initialize = (id: number) => ({ jsonrpc: '2.0', id, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } });
const hover = (id: number) => ({ jsonrpc: '2.0', id, method: 'textDocument/hover', params: { textDocument: { uri: 'file:///nowhere/a.msg.md' }, position: { line: 0, character: 0 } } });

describe('the protocol’s lifecycle (point 10)', () => {
  it('a request before initialize: ServerNotInitialized; a body that is not JSON: a parse error; after shutdown: InvalidRequest', async () => {
    const server = rawServer();
    try {
      server.send(hover(1));
      expect((await server.answer(1)).error?.code).toBe(-32002);
      server.send(initialize(2), { jsonrpc: '2.0', method: 'initialized', params: {} });
      expect((await server.answer(2)).result).toHaveProperty('capabilities');
      server.send('{"jsonrpc": "2.0", "id": 3, "method": ');
      expect((await server.answer(null)).error?.code).toBe(-32700);
      // Still serving.
      server.send(hover(4));
      expect(await server.answer(4)).toEqual({ jsonrpc: '2.0', id: 4, result: null });
      server.send({ jsonrpc: '2.0', id: 5, method: 'shutdown' });
      expect((await server.answer(5)).result).toBeNull();
      server.send(hover(6));
      expect((await server.answer(6)).error?.code).toBe(-32600);
    } finally {
      server.stop();
    }
  });

  it('$/cancelRequest: a formatting request cancelled before it runs is answered RequestCancelled, without its work', async () => {
    const server = rawServer();
    try {
      server.send(initialize(1), { jsonrpc: '2.0', method: 'initialized', params: {} });
      await server.answer(1);
      const uri = 'file:///nowhere/fixes.msg.md';
      server.send({ jsonrpc: '2.0', method: 'textDocument/didOpen', params: { textDocument: { uri, languageId: 'markdown', version: 1, text: fixes(5_000) } } });
      const format = (id: number) => ({ jsonrpc: '2.0', id, method: 'textDocument/formatting', params: { textDocument: { uri }, options: { tabSize: 2, insertSpaces: true } } });
      // Two requests, then the cancel of the second: it is still queued behind the first.
      server.send(format(2), format(3), { jsonrpc: '2.0', method: '$/cancelRequest', params: { id: 3 } });
      expect(((await server.answer(2)).result as unknown[]).length).toBeGreaterThanOrEqual(5_000);
      expect((await server.answer(3)).error?.code).toBe(-32800);
    } finally {
      server.stop();
    }
  }, 120_000);
});

describe('$/cancelRequest stops a lint in progress (point 10)', () => {
  // Large enough that its lint (some 300 ms here) runs over many slices of
  // 5 ms: a request sent with the pull is answered while the pull still
  // lints, which shows the lint paused, and a cancel sent then arrives long
  // before the lint would end. A few problems at the end give diagnostics to compare.
  // Made before the servers start: made between two messages, it would give the lint time to end.
  const [big1, big2] = [1, 2].map((seed) => generateMessageFile({ turns: 1000, seed }) + '#%%\n\n# %% [^zz\n\nText.\n');
  const uri = 'file:///nowhere/big.msg.md';
  const pullCapabilities = { textDocument: { diagnostic: { dynamicRegistration: false } } };
  const start = async (capabilities: unknown) => {
    const server = rawServer();
    server.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities } }, { jsonrpc: '2.0', method: 'initialized', params: {} });
    await server.answer(1);
    return server;
  };
  const pull = (id: number) => ({ jsonrpc: '2.0', id, method: 'textDocument/diagnostic', params: { textDocument: { uri } } });
  const open = (text: string) => ({ jsonrpc: '2.0', method: 'textDocument/didOpen', params: { textDocument: { uri, languageId: 'markdown', version: 1, text } } });
  const replace = (version: number, text: string) => ({ jsonrpc: '2.0', method: 'textDocument/didChange', params: { textDocument: { uri, version }, contentChanges: [{ text }] } });
  const cancel = (id: number) => ({ jsonrpc: '2.0', method: '$/cancelRequest', params: { id } });
  /** What the server must report for `text`: rule, place and message of each diagnostic. */
  const expected = (text: string) => lint(text, { fileName: 'big.msg.md' }).diagnostics.map((d) => [d.ruleId, d.range.start.line, d.range.start.character, d.message]);
  const reported = (items: any[]) => items.map((d) => [d.code, d.range.start.line, d.range.start.character, d.message]);
  /** Answered before the pull `id`: the pull's lint let another message in. */
  const answeredBefore = (server: ReturnType<typeof rawServer>, first: number, then: number) => {
    const order = server.answers.map((a) => a.id);
    return order.indexOf(first) !== -1 && (order.indexOf(then) === -1 || order.indexOf(first) < order.indexOf(then));
  };

  it('a pull cancelled while it lints: RequestCancelled, and the next pull reports the diagnostics', async () => {
    const server = await start(pullCapabilities);
    try {
      const text = big1;
      server.send(open(text), pull(2), hover(3));
      await server.answer(3);
      expect(answeredBefore(server, 3, 2)).toBe(true);
      server.send(cancel(2));
      const answer = await server.answer(2);
      expect(answer.error).toMatchObject({ code: -32800, message: 'textDocument/diagnostic: cancelled while linting' });
      // The lint given up is resumed, and the server keeps answering.
      server.send(pull(4));
      const report = (await server.answer(4)).result as { kind: string; items: any[] };
      expect(report.kind).toBe('full');
      expect(reported(report.items)).toEqual(expected(text));
      expect(reported(report.items).length).toBeGreaterThan(0);
    } finally {
      server.stop();
    }
  }, 120_000);

  it('a pull whose document changes while it lints: ServerCancelled with retriggerRequest, and the new version’s diagnostics next', async () => {
    const server = await start(pullCapabilities);
    try {
      server.send(open(big1), pull(2), hover(3));
      await server.answer(3);
      const text = big2;
      server.send(replace(2, text));
      const answer = await server.answer(2);
      expect(answeredBefore(server, 3, 2)).toBe(true);
      expect(answer.error).toMatchObject({ code: -32802, data: { retriggerRequest: true } });
      server.send(pull(4));
      expect(reported(((await server.answer(4)).result as { items: any[] }).items)).toEqual(expected(text));
    } finally {
      server.stop();
    }
  }, 120_000);

  it('a push whose document changes while it lints is dropped; the new version’s is published', async () => {
    const server = await start({});
    try {
      server.send(open(big1), hover(2));
      await server.answer(2);
      const text = big2;
      server.send(replace(2, text));
      // Not published before the hover's answer: the push of version 1 was still linting.
      expect(server.notifications.some((n) => n.method === 'textDocument/publishDiagnostics' && n.params.version === 1)).toBe(false);
      const published = await server.notification((n) => n.method === 'textDocument/publishDiagnostics');
      expect(published.params.version).toBe(2);
      expect(reported(published.params.diagnostics)).toEqual(expected(text));
    } finally {
      server.stop();
    }
  }, 120_000);
});

/**
 * Opens a document in `dir`, pulls its diagnostics (which must be answered)
 * and waits for the config error naming `problem`; `then` runs before the server stops.
 */
async function expectConfigError(dir: string, problem: string, then?: (client: LspClient, uri: string) => Promise<void>): Promise<void> {
  const client = await LspClient.start({ rootDir: dir });
  try {
    const uri = pathToFileURL(path.join(dir, 'a.msg.md')).href;
    await client.open(uri, '#%% [^1]\n\n[^1]: [markdown]\n\nHi.\n');
    expect((await client.pull(uri)).kind).toBe('full');
    await client.until(() => client.shown.find((m) => m.message.includes(problem)), 'the config error');
    await then?.(client, uri);
  } finally {
    await client.stop();
  }
}

describe('configs a folder should not be trusted with', () => {
  it('a config that links to /dev/zero: the error shown, diagnostics answered (point 1)', async (context) => {
    if (!existsSync('/dev/zero')) return context.skip('no /dev/zero here');
    const dir = tempDir({});
    symlinkSync('/dev/zero', path.join(dir, '.msglintrc.json'));
    // Out of the workspace folder: not even opened (issue 45).
    await expectConfigError(dir, 'a link to a file outside the workspace folder');
  }, 60_000);

  it('rule options nested 5,000 deep: a config error, and the features still answer (point 3)', async () => {
    let options = '1';
    for (let i = 0; i < 5000; i++) options = `{"a":${options}}`;
    const dir = tempDir({ '.msglintrc.json': `{"rules":{"cell-marker":["error",${options}]}}` });
    await expectConfigError(dir, 'invalid JSON: nested more than 200 levels deep (line 1, column 1019)', async (client, uri) => {
      const symbols = await client.request('textDocument/documentSymbol', { textDocument: { uri } });
      expect(symbols.length).toBeGreaterThan(0);
    });
  }, 60_000);
});

describe('a workspace runs no code and reaches nothing outside its folder (issue 45)', () => {
  it('a config extending a CommonJS module: the error shown, the module never run, the server answering', async () => {
    const script = `require('node:fs').writeFileSync(require('node:path').join(__dirname, 'RAN'), 'x');\nmodule.exports = {};\n`;
    const dir = tempDir({ '.msglintrc.json': '{"extends": "./shared.cjs"}', 'shared.cjs': script });
    await expectConfigError(dir, '"./shared.cjs" is a JavaScript module; msglint reads configs as data', async (client, uri) => {
      const symbols = await client.request('textDocument/documentSymbol', { textDocument: { uri } });
      expect(symbols.length).toBeGreaterThan(0);
    });
    expect(existsSync(path.join(dir, 'RAN'))).toBe(false);
  }, 60_000);

  it('a config extending a file outside the workspace folder: refused, nothing of it shown', async () => {
    const outside = tempDir({ 'secret.yaml': 'token: S3CRET-VALUE-42\n' });
    const dir = tempDir({ '.msglintrc.json': JSON.stringify({ extends: path.join(outside, 'secret.yaml') }) });
    await expectConfigError(dir, 'leads outside the workspace folder', async (client) => {
      expect(JSON.stringify(client.shown)).not.toContain('S3CRET');
    });
  }, 60_000);
});
