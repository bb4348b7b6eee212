// Incremental equals full, through the real language server: random edit
// sequences (inserts, deletes, pastes of whole cells, a fence or
// `<![CDATA[` typed one character at a time in the middle of the file) are
// sent as incremental didChange notifications, and after every change the
// diagnostics the server gives for a pull equal lint() of the same text (the
// client keeps its own copy of the text, as an editor does), and after every
// step the server's semantic tokens, symbols and folding ranges (all derived
// from its tree) equal those of the same text opened as a new document. The
// server parses each version with the previous version's parse, so this
// compares its incremental state with a fresh parse after every edit.

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LspClient } from '../lsp/client.js';
import { corpus, messageFile, runs } from './gen.js';
import { comparable, expectedDiagnostics, Mirror, removeWorkspaces, step, uriIn, workspace, type Step } from './lsp.js';

let client: LspClient;
let dir: string;
let serial = 0;

beforeAll(async () => {
  dir = workspace();
  client = await LspClient.start({ rootDir: dir });
});
afterAll(async () => {
  await client?.stop();
  removeWorkspaces();
});

async function pullEquals(uri: string, mirror: Mirror, context: () => string): Promise<void> {
  const report = await client.pull(uri);
  expect(report.kind).toBe('full');
  const fileName = fileURLToPath(uri);
  expect(comparable(report.items ?? []), context()).toEqual(expectedDiagnostics(uri, fileName, mirror.text));
}

/** What the server derives from its tree, which must be the same for the edited document as for the same text opened fresh. */
async function treeViews(uri: string): Promise<unknown[]> {
  const textDocument = { uri };
  return Promise.all([
    client.request('textDocument/semanticTokens/full', { textDocument }),
    client.request('textDocument/documentSymbol', { textDocument }),
    client.request('textDocument/foldingRange', { textDocument }),
  ]);
}

async function treeEqualsFresh(uri: string, mirror: Mirror, context: () => string): Promise<void> {
  const fresh = uriIn(dir, `fresh-${++serial}${uri.endsWith('.msg.md') ? '.msg.md' : '.md'}`);
  await client.open(fresh, mirror.text, 1);
  try {
    expect(await treeViews(uri), context()).toEqual(await treeViews(fresh));
  } finally {
    await client.close(fresh);
  }
}

describe('language server: incremental state equals a fresh lint', () => {
  /** Opens `base` as `name`, then makes each step's edits, comparing the server's state with a fresh one after each. */
  async function editAndCompare(name: string, base: string, steps: Step[]): Promise<void> {
    const uri = uriIn(dir, name);
    const mirror = new Mirror(uri, base);
    await client.open(uri, base, 1);
    try {
      await pullEquals(uri, mirror, () => 'after opening');
      for (const [i, s] of steps.entries()) {
        for (const changes of mirror.batches(s)) {
          mirror.apply(changes);
          await client.change(uri, mirror.doc.version, changes);
          await pullEquals(uri, mirror, () => `after step ${i} (${JSON.stringify(s)}): ${JSON.stringify(mirror.text.slice(0, 300))}`);
        }
        // The tree itself (through what the server derives from it: tokens, symbols, folding).
        await treeEqualsFresh(uri, mirror, () => `tree after step ${i} (${JSON.stringify(s)})`);
      }
    } finally {
      await client.close(uri);
    }
  }

  it('after every edit of random edit sequences', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.constantFrom(...corpus), messageFile), fc.array(step, { minLength: 1, maxLength: 8 }), async (base, steps) => {
        await editAndCompare(`doc-${++serial}.msg.md`, base, steps);
      }),
      { numRuns: runs(40) },
    );
    expect(client.alive).toBe(true);
    expect(client.errorLogs).toEqual([]);
  });

  // Issue 46: the headings of an edited .md file are read again only where the edit may change them.
  it('after every edit of an ordinary Markdown file with a message section', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.constantFrom(...corpus), messageFile), fc.array(step, { minLength: 1, maxLength: 8 }), async (body, steps) => {
        const base = `---\nmessage_section: true\n---\n\n# Notes\n\nText.\n\nMore\n----\n\n# Discussion\n\n${body}\n\n# After\n\nText.\n`;
        await editAndCompare(`notes-${++serial}.md`, base, steps);
      }),
      { numRuns: runs(25) },
    );
    expect(client.alive).toBe(true);
    expect(client.errorLogs).toEqual([]);
  });

  it('with several changes in one didChange notification', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.constantFrom(...corpus), messageFile), fc.array(fc.array(step, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 4 }), async (base, groups) => {
        const uri = uriIn(dir, `batch-${++serial}.msg.md`);
        const mirror = new Mirror(uri, base);
        await client.open(uri, base, 1);
        try {
          for (const group of groups) {
            // Changes in one notification apply in order, each to the text the previous one left.
            const changes = [];
            for (const s of group) {
              for (const batch of mirror.batches(s)) {
                mirror.apply(batch);
                changes.push(...batch);
              }
            }
            await client.change(uri, mirror.doc.version, changes);
            await pullEquals(uri, mirror, () => `after ${JSON.stringify(group)}`);
          }
        } finally {
          await client.close(uri);
        }
      }),
      { numRuns: runs(30) },
    );
    expect(client.errorLogs).toEqual([]);
  });

  it('for an ordinary Markdown file that gains and loses message_section', async () => {
    const uri = uriIn(dir, 'notes.md');
    const text = '# Notes\n\nText.\n\n## Discussion\n\n# %% Q[^1]\n\n[^1]: [markdown]\n\nHi.\n\n#%% broken\n';
    const mirror = new Mirror(uri, text);
    await client.open(uri, text, 1);
    await pullEquals(uri, mirror, () => 'plain');
    expect((await client.pull(uri)).items).toEqual([]);
    for (const insert of ['---\nmessage_section: true\n---\n\n', '']) {
      const changes = insert
        ? [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: insert }]
        : [{ range: { start: { line: 0, character: 0 }, end: { line: 4, character: 0 } }, text: '' }];
      mirror.apply(changes);
      await client.change(uri, mirror.doc.version, changes);
      await pullEquals(uri, mirror, () => `after ${JSON.stringify(insert)}`);
    }
    await client.close(uri);
    expect(path.basename(fileURLToPath(uri))).toBe('notes.md');
  });
});
