// A document too large to lint, open in an editor (issue 46, point 2): one
// problem at its start, no feature that would parse it, and the server
// answering; edits that bring it back under the limit lint it again.
import { expect, it } from 'vitest';
import { LspClient } from './client.js';

it('reports a document past 1,000,000 cell markers as too large, answers its requests, and lints it once an edit brings it under the limit', async () => {
  const client = await LspClient.start();
  try {
    const uri = 'file:///tmp/msglint-too-large.msg.md';
    const text = '# %%\n'.repeat(1_000_001);
    await client.open(uri, text);
    const report = await client.pull(uri);
    expect(report.items?.map((d) => [d.code, d.range.start.line, d.range.start.character, d.severity])).toEqual([['file-too-large', 0, 0, 1]]);
    expect(await client.request('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 2 } })).toBeNull();
    expect(await client.request('textDocument/documentSymbol', { textDocument: { uri } })).toBeNull();
    // All but 1,500 markers go: the document is linted again.
    await client.change(uri, 2, [{ range: { start: { line: 1500, character: 0 }, end: { line: 1_000_001, character: 0 } }, text: '' }]);
    const again = await client.pull(uri);
    expect(again.items?.some((d) => d.code === 'file-too-large')).toBe(false);
    expect(again.items?.filter((d) => d.code === 'empty-cell')).toHaveLength(1001);
  } finally {
    await client.stop();
  }
}, 120_000);
