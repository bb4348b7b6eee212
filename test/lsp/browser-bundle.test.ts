// The language server's Web Worker bundle (dist/browser/server.js, made by
// server/lsp/bundle-browser.mjs): nothing of Node in it, and it serves LSP
// over postMessage in a context that has only what a worker has (no
// require, no process, no Buffer). The playground's tests (test/playground/)
// run it in a real browser.

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, LspClient, modernCapabilities, root } from './client.js';

const BUNDLE = path.join(root, 'dist/browser/server.js');

/**
 * Module specifiers the bundle still loads at run time: imports, and require
 * calls with a literal name (esbuild's `__require("fs")` for one it could not
 * bundle included). A bundle for the browser has none, of Node's built-ins
 * (fs, path, url, crypto, child_process, worker_threads, ...) or any other.
 */
function loadedModules(code: string): string[] {
  const found = new Set<string>();
  const patterns = [/require\s*\(\s*(['"`])([^'"`]+)\1\s*\)/g, /\bimport\s*\(\s*(['"`])([^'"`]+)\1\s*\)/g, /^\s*import\s[^;]*?from\s*(['"])([^'"]+)\1/gm, /^\s*export\s[^;]*?from\s*(['"])([^'"]+)\1/gm];
  for (const pattern of patterns) for (const m of code.matchAll(pattern)) found.add(m[2]!);
  return [...found];
}

interface Message {
  jsonrpc: '2.0';
  id?: number;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: unknown;
}

/** The bundle run as a worker would run it: `self` with postMessage and message events, and the web platform's globals. */
function startWorker(code: string) {
  const toServer: ((event: { data: unknown }) => void)[] = [];
  const onError: ((event: unknown) => void)[] = [];
  const fromServer: Message[] = [];
  const waiting: (() => void)[] = [];
  const self = {
    postMessage: (data: Message) => {
      fromServer.push(data);
      for (const wake of waiting.splice(0)) wake();
    },
    set onmessage(listener: (event: { data: unknown }) => void) {
      toServer.push(listener);
    },
    addEventListener: (type: string, listener: (event: { data: unknown }) => void) => {
      if (type === 'message') toServer.push(listener);
      if (type === 'error') onError.push(listener as (event: unknown) => void);
    },
    removeEventListener: () => undefined,
  };
  const context = vm.createContext({
    self,
    console,
    setTimeout,
    clearTimeout,
    setInterval,
    clearInterval,
    queueMicrotask,
    TextEncoder,
    TextDecoder,
    URL,
    crypto: globalThis.crypto,
    // A worker has these: a long lint pauses by a message to itself, timed by performance.now().
    MessageChannel,
    performance,
  });
  (context as { globalThis: unknown }).globalThis = context;
  vm.runInContext(code, context, { filename: BUNDLE });
  let nextId = 1;
  const send = (message: Message) => {
    for (const listener of toServer) listener({ data: message });
  };
  const next = async (match: (m: Message) => boolean): Promise<Message> => {
    for (;;) {
      const i = fromServer.findIndex(match);
      if (i !== -1) return fromServer.splice(i, 1)[0]!;
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
  };
  return {
    notify: (method: string, params: unknown) => send({ jsonrpc: '2.0', method, params }),
    request: async (method: string, params: unknown): Promise<unknown> => {
      const id = nextId++;
      send({ jsonrpc: '2.0', id, method, params });
      const answer = await next((m) => m.id === id && m.method === undefined);
      if (answer.error) throw new Error(JSON.stringify(answer.error));
      return answer.result;
    },
    next,
    /** Dispatches an error event as the worker's global scope does for an uncaught exception; returns whether it was handled. */
    uncaught: (error: Error): boolean => {
      let handled = false;
      for (const listener of onError) listener({ error, message: error.message, preventDefault: () => (handled = true) });
      return handled;
    },
    /** Answers the server's requests: workspace/configuration with `settings`, any other with null. */
    answerRequests: (settings: unknown) => {
      void (async () => {
        for (;;) {
          const m = await next((x) => x.method !== undefined && x.id !== undefined);
          send({ jsonrpc: '2.0', id: m.id, result: m.method === 'workspace/configuration' ? [settings] : null });
        }
      })();
    },
  };
}

beforeAll(() => ensureBuilt());

describe('the Web Worker bundle', () => {
  it('is built', () => {
    expect(existsSync(BUNDLE), 'npm run build makes dist/browser/server.js').toBe(true);
  });

  it('loads no module at run time, and none of Node', () => {
    const code = readFileSync(BUNDLE, 'utf8');
    expect(loadedModules(code)).toEqual([]);
    expect(code).not.toMatch(/['"`]node:[a-z_/]+['"`]/);
    // A worker has no DOM: remark's entity decoder must be its `worker` entry (bundle-browser.mjs).
    expect(code).not.toMatch(/\bdocument\.createElement\b/);
  });

  it('the check sees a require and an import of a built-in', () => {
    expect(loadedModules('const fs = require("fs");\nconst os = __require("os");\nimport path from "node:path";\nawait import(`node:url`);')).toEqual(['fs', 'os', 'node:url', 'node:path']);
  });

  it('serves diagnostics, with the client`s msglint.rules, over postMessage', async () => {
    const worker = startWorker(readFileSync(BUNDLE, 'utf8'));
    worker.answerRequests({ rules: { 'empty-cell': 'off' } });
    const init = (await worker.request('initialize', { processId: null, rootUri: null, capabilities: { workspace: { configuration: true } } })) as {
      serverInfo: { name: string; version: string };
      capabilities: Record<string, unknown>;
    };
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
    expect(init.serverInfo).toEqual({ name: 'msglint-language-server', version: pkg.version });
    expect(Object.keys(init.capabilities)).toEqual(expect.arrayContaining(['hoverProvider', 'completionProvider', 'renameProvider', 'semanticTokensProvider', 'documentFormattingProvider', 'executeCommandProvider']));
    worker.notify('initialized', {});
    const text = readFileSync(path.join(root, 'test/fixtures/showcase.msg.md'), 'utf8');
    const uri = 'inmemory://playground/showcase.msg.md';
    worker.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'markdown', version: 1, text } });
    const published = await worker.next((m) => m.method === 'textDocument/publishDiagnostics');
    const diagnostics = (published.params as { diagnostics: { code: string }[] }).diagnostics;
    const codes = diagnostics.map((d) => d.code);
    expect(codes).toContain('cell-marker');
    expect(codes).toContain('unclosed-fence');
    expect(codes, 'msglint.rules turns empty-cell off').not.toContain('empty-cell');
    const exported = await worker.request('workspace/executeCommand', { command: 'msglint.exportLLMView', arguments: [uri, 'openai', { force: true }] });
    expect(Array.isArray(exported)).toBe(true);
    // The import of VS Code for the Web's "Import conversation…": done by the worker.
    const imported = (await worker.request('msglint/importConversation', { text: JSON.stringify([{ role: 'user', content: 'Hi.' }, { role: 'assistant', content: 'Hello.' }]) })) as { text: string; format: string };
    expect(imported).toMatchObject({ format: 'openai', text: expect.stringContaining('Hello.') });
    // An uncaught error is logged to the client and handled: the server keeps serving.
    expect(worker.uncaught(new Error('boom'))).toBe(true);
    const logged = await worker.next((m) => m.method === 'window/logMessage' && JSON.stringify(m.params).includes('boom'));
    expect(JSON.stringify(logged.params)).toContain('msglint: uncaught exception: Error: boom');
    expect(await worker.request('textDocument/hover', { textDocument: { uri }, position: { line: 8, character: 1 } })).not.toBeNull();
  });
});

/**
 * The requests of every feature, at positions all over a file: each line's
 * start, its fifth column and its end (hover, completion, definition,
 * references, rename), and the whole-document ones.
 */
function requestsFor(uri: string, text: string): [string, unknown][] {
  const textDocument = { uri };
  const requests: [string, unknown][] = [
    ['textDocument/diagnostic', { textDocument }],
    ['textDocument/documentSymbol', { textDocument }],
    ['textDocument/semanticTokens/full', { textDocument }],
    ['textDocument/foldingRange', { textDocument }],
    ['textDocument/documentLink', { textDocument }],
    ['textDocument/formatting', { textDocument, options: { tabSize: 2, insertSpaces: true } }],
  ];
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    const range = { start: { line: i, character: 0 }, end: { line: i, character: line.length } };
    requests.push(['textDocument/codeAction', { textDocument, range, context: { diagnostics: [] } }]);
    for (const character of new Set([0, Math.min(4, line.length), line.length])) {
      const position = { line: i, character };
      requests.push(['textDocument/hover', { textDocument, position }]);
      requests.push(['textDocument/completion', { textDocument, position }]);
      requests.push(['textDocument/definition', { textDocument, position }]);
      requests.push(['textDocument/references', { textDocument, position, context: { includeDeclaration: true } }]);
      requests.push(['textDocument/prepareRename', { textDocument, position }]);
      requests.push(['textDocument/rename', { textDocument, position, newName: 'renamed' }]);
    }
  });
  for (const format of ['openai', 'anthropic', 'vercel', 'vercel-legacy', 'console']) {
    requests.push(['workspace/executeCommand', { command: 'msglint.exportLLMView', arguments: [uri, format, { force: true }] }]);
  }
  return requests;
}

/** A result, or the error's message: both servers must fail alike too. */
async function outcome(request: () => Promise<unknown>): Promise<unknown> {
  try {
    return { result: await request() };
  } catch (e) {
    const message = (e as { message?: string }).message ?? String(e);
    return { error: message.replace(/^\{.*"message":"(.*?)".*\}$/, '$1') };
  }
}

describe('the Web Worker bundle against the server over stdio', () => {
  for (const file of ['test/fixtures/showcase.msg.md', 'examples/coding-session.msg.md', 'examples/temporary-agents.msg.md']) {
    it(`answers every feature's requests as over stdio: ${file}`, async () => {
      const text = readFileSync(path.join(root, file), 'utf8');
      // Not a file: URI, so the stdio server reads no config file either.
      const uri = `untitled:${path.basename(file)}`;
      const settings = { rules: { 'empty-cell': 'off' } };
      const stdio = await LspClient.start({ capabilities: modernCapabilities, settings });
      const worker = startWorker(readFileSync(BUNDLE, 'utf8'));
      worker.answerRequests(settings);
      try {
        await worker.request('initialize', { processId: null, rootUri: null, capabilities: modernCapabilities });
        worker.notify('initialized', {});
        await stdio.open(uri, text);
        worker.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'markdown', version: 1, text } });
        const requests = requestsFor(uri, text);
        const fromStdio: unknown[] = [];
        const fromWorker: unknown[] = [];
        // New tool-call ids in completions are random (completion.ts): the same shape is enough.
        const comparable = (method: string, o: unknown) =>
          method === 'textDocument/completion' ? JSON.parse(JSON.stringify(o).replace(/(\[\^[\w.-]*\.)[a-z][a-z0-9]{4}\]/g, '$1(nonce)]')) : o;
        for (const [method, params] of requests) {
          fromStdio.push(comparable(method, await outcome(() => stdio.request(method, params))));
          fromWorker.push(comparable(method, await outcome(() => worker.request(method, params))));
        }
        const answered = fromStdio.filter((o) => (o as { result?: unknown }).result != null).length;
        expect(answered, 'most requests have an answer').toBeGreaterThan(requests.length / 3);
        requests.forEach(([method, params], i) => {
          expect(fromWorker[i], `${method} ${JSON.stringify(params).slice(0, 160)}`).toEqual(fromStdio[i]);
        });
      } finally {
        await stdio.stop();
      }
    }, 120_000);
  }
});
