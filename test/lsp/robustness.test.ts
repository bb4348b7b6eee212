// Nothing a client sends kills the server: unknown or closed documents,
// positions past the end, documents of random bytes, malformed parameters,
// a handler that throws. Errors are logged to the client (window/logMessage).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Hover } from 'vscode-languageserver-protocol';
import { fixtures, fixtureUri, LspClient, positionOf } from './client.js';

const session = readFileSync(path.join(fixtures, 'session.msg.md'), 'utf8');
const sessionUri = fixtureUri('session.msg.md');

let client: LspClient;
beforeAll(async () => {
  client = await LspClient.start();
  await client.open(sessionUri, session);
});
afterAll(async () => {
  await client.stop();
});

/** Every document request the server serves, at a position. */
function everyRequest(uri: string, position: { line: number; character: number }): [string, unknown][] {
  const textDocument = { uri };
  const range = { start: position, end: position };
  return [
    ['textDocument/diagnostic', { textDocument }],
    ['textDocument/hover', { textDocument, position }],
    ['textDocument/completion', { textDocument, position }],
    ['textDocument/definition', { textDocument, position }],
    ['textDocument/references', { textDocument, position, context: { includeDeclaration: true } }],
    ['textDocument/prepareRename', { textDocument, position }],
    ['textDocument/documentSymbol', { textDocument }],
    ['textDocument/foldingRange', { textDocument }],
    ['textDocument/semanticTokens/full', { textDocument }],
    ['textDocument/semanticTokens/range', { textDocument, range: { start: { line: 0, character: 0 }, end: position } }],
    ['textDocument/documentLink', { textDocument }],
    ['textDocument/codeAction', { textDocument, range, context: { diagnostics: [] } }],
    ['textDocument/codeAction', { textDocument, range, context: { diagnostics: [], only: ['source.fixAll'] } }],
    ['textDocument/formatting', { textDocument, options: { tabSize: 2, insertSpaces: true } }],
  ];
}

/** The server still answers a real request correctly. */
async function stillServes(): Promise<void> {
  expect(client.alive).toBe(true);
  const h = await client.request<Hover>('textDocument/hover', { textDocument: { uri: sessionUri }, position: positionOf(session, '[coder]', 2) });
  expect((h.contents as { value: string }).value).toContain('**Agent** `coder`');
}

describe('robustness', () => {
  it('answers requests for unknown and closed documents with empty results', async () => {
    const unknown = fixtureUri('never-opened.msg.md');
    for (const [method, params] of everyRequest(unknown, { line: 0, character: 0 })) {
      const result = await client.request(method, params);
      if (method === 'textDocument/diagnostic') expect(result).toEqual({ kind: 'full', items: [] });
      else if (method === 'textDocument/semanticTokens/full' || method === 'textDocument/semanticTokens/range') expect(result).toEqual({ data: [] });
      else if (method === 'textDocument/codeAction') expect(result).toEqual([]);
      else expect(result).toBeNull();
    }
    const closed = fixtureUri('closed.msg.md');
    await client.open(closed, session);
    await client.close(closed);
    expect(await client.request('textDocument/hover', { textDocument: { uri: closed }, position: { line: 1, character: 3 } })).toBeNull();
    // A change for a document that is not open is ignored.
    await client.change(unknown, 2, [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: 'x' }]);
    await client.notify('textDocument/didSave', { textDocument: { uri: unknown } });
    await stillServes();
  });

  it('clamps positions past the end of a line or of the document', async () => {
    for (const position of [{ line: 10_000, character: 10_000 }, { line: 3, character: 9_999 }, { line: -1, character: -5 }]) {
      for (const [method, params] of everyRequest(sessionUri, position)) {
        await expect(client.request(method, params)).resolves.toBeDefined();
      }
      await expect(client.request('textDocument/rename', { textDocument: { uri: sessionUri }, position, newName: 'x' })).rejects.toThrow('Only ids and agent names can be renamed.');
    }
    await stillServes();
  });

  it('serves a document of random bytes, edited at random, without dying', async () => {
    let seed = 42;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const pieces = ['# %%', '# %%%', '[^', ']: [', ']', '\n', '\r\n', '\r', '```', '~~~', '<tool>', '</tool>', '<![CDATA[', ']]>', '<!--', '-->', '---\n', 'agents:\n', '  x:\n', '"', '=', ' ', '\u0000', '\ud83d', '\ude00', 'é', '\t', '.', 'history=', '%'];
    const randomText = (len: number) => {
      let t = '';
      while (t.length < len) t += random() < 0.5 ? pieces[Math.floor(random() * pieces.length)] : String.fromCharCode(Math.floor(random() * 0x10000));
      return t;
    };
    const uri = fixtureUri('random.msg.md');
    let text = randomText(4000);
    await client.open(uri, text, 1);
    for (let version = 2; version < 40; version++) {
      const lines = text.split('\n').length;
      const position = { line: Math.floor(random() * (lines + 2)), character: Math.floor(random() * 80) };
      for (const [method, params] of everyRequest(uri, position)) await client.request(method, params).catch((e: Error) => e);
      await client.request('textDocument/rename', { textDocument: { uri }, position, newName: 'r7' }).catch((e: Error) => e);
      // The export runs even on a broken view (force), in every format.
      for (const format of ['openai', 'anthropic', 'vercel', 'vercel-legacy', 'context-json', 'console']) {
        const options = { force: true, codeAsTool: version % 2 === 0 };
        await client.request('workspace/executeCommand', { command: 'msglint.exportLLMView', arguments: [uri, format, options] }).catch((e: Error) => e);
      }
      const start = { line: Math.floor(random() * lines), character: Math.floor(random() * 40) };
      const insert = randomText(Math.floor(random() * 60));
      await client.change(uri, version, [{ range: { start, end: start }, text: insert }]);
      // Only the line count matters here (to aim positions); it grows with the inserts.
      text += insert;
    }
    expect(client.alive).toBe(true);
    // Nothing failed inside the server either (a failure would be logged).
    expect(client.errorLogs).toEqual([]);
    await stillServes();
  });

  it('survives malformed parameters and a throwing handler, and logs the error to the client', async () => {
    const before = client.errorLogs.length;
    // No textDocument at all: the handler throws inside.
    expect(await client.request('textDocument/hover', { position: { line: 0, character: 0 } })).toBeNull();
    expect(await client.request('textDocument/documentSymbol', { textDocument: null })).toBeNull();
    await client.notify('textDocument/didChange', { textDocument: { uri: sessionUri, version: 99 }, contentChanges: null });
    await client.until(() => client.errorLogs.length > before, 'an error logged to the client');
    expect(client.errorLogs.slice(before).join('\n')).toMatch(/msglint: textDocument\/(hover|documentSymbol|didChange) failed/);
    // Unknown commands are refused, not fatal.
    await expect(client.request('workspace/executeCommand', { command: 'msglint.nope', arguments: [] })).rejects.toThrow("Unknown command 'msglint.nope'");
    await expect(client.request('workspace/executeCommand', { command: 'msglint.fixAll', arguments: [] })).rejects.toThrow('needs the document');
    await stillServes();
  });
});
