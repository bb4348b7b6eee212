// Issue 46, point 1: an ordinary .md file with a message section and
// containers nested tens of thousands deep. remark overflowed the stack on
// it: the command said `internal error: Maximum call stack size exceeded`
// and exited 2 without the file's report, and the language server published
// no diagnostics for it. Past remark's budget, the line-based reading takes
// over (server/syntax/format/heading-budget.ts).

import { afterAll, describe, expect, it } from 'vitest';
import { deepLists, deepQuotes } from '../../bench/lib/crafted.mjs';
import { cleanupTempDirs, makeTree, run } from '../cli/helpers.js';
import { fixtureUri, LspClient, pushCapabilities } from '../lsp/client.js';

afterAll(cleanupTempDirs);

/** A file with containers nested `n` deep and a malformed marker (`#%%`) in its message section: one cell-marker error. */
const nested = (make: (n: number) => string, n: number) => make(n).replace('# %% Start[^1]', '#%% Start[^1]');

describe('containers nested 50,000 deep in a .md file with a message section', () => {
  it('the command prints the file’s report and exits 1 for its error, with no internal error', () => {
    const dir = makeTree({ 'quotes.md': nested(deepQuotes, 50_000), 'lists.md': nested(deepLists, 50_000) });
    const result = run(['--format', 'json', 'quotes.md', 'lists.md'], { cwd: dir, timeout: 120_000 });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(1);
    const reports = JSON.parse(result.stdout) as { messages: { ruleId: string }[] }[];
    expect(reports.map((r) => r.messages.map((m) => m.ruleId))).toEqual([['cell-marker'], ['cell-marker']]);
  }, 150_000);

  it('the language server publishes the file’s diagnostics', async () => {
    const client = await LspClient.start({ capabilities: pushCapabilities });
    try {
      for (const [name, make] of [['quotes.md', deepQuotes], ['lists.md', deepLists]] as const) {
        const uri = fixtureUri(`deep-${name}`);
        await client.open(uri, nested(make, 50_000));
        const published = await client.pushedFor(uri, (p) => p.diagnostics.length > 0);
        expect(published.diagnostics.map((d) => d.code)).toEqual(['cell-marker']);
      }
      expect(client.errorLogs).toEqual([]);
    } finally {
      await client.stop();
    }
  }, 150_000);
});
