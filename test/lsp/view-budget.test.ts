// The conversation's budget in the editor, over stdio: inlay hints at the
// end of each marker line (a cell's tokens, the running total at a reply),
// code lenses (export up to a reply, a tool call's result) and the
// msglint/viewTotal request, on the showcase, the coding session and a
// 5,000-turn file. Totals are checked against the view `msglint export`
// builds (toLLMView, what the command runs), counted by the same estimate.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientCapabilities, CodeLens, InlayHint, InlayHintLabelPart } from 'vscode-languageserver-protocol';
import { generateMessageFile } from '../../bench/generate.mjs';
import { applyThinking, toLLMView } from '../../server/export/index.js';
import { cellTokens, estimateTokens, MESSAGE_OVERHEAD_TOKENS } from '../../server/llm-view/tokens.js';
import { historyMode } from '../../server/llm-view/view.js';
import { parse, type MessageDocument } from '../../server/syntax/document.js';
import { fixtureUri, LspClient, modernCapabilities, root } from './client.js';

const showcase = readFileSync(path.join(root, 'test/fixtures/showcase.msg.md'), 'utf8');
const session = readFileSync(path.join(root, 'examples/coding-session.msg.md'), 'utf8');
/** A client like VS Code's: it shows places, and resolves a lens's command when it shows the lens. */
const capabilities: ClientCapabilities = {
  ...modernCapabilities,
  window: { showDocument: { support: true } },
  textDocument: { ...modernCapabilities.textDocument, codeLens: { resolveSupport: { properties: ['command'] } } },
};

/**
 * The tokens of the view `msglint export --until ID --to openai` sends (the whole view without `until`),
 * counted as context-window counts: the system prompt the export sends, and each cell of the exported
 * messages by cellTokens. The export leaves a reply's thinking paragraph out (--thinking omit, the
 * default): such a reply is counted as the same file without that paragraph.
 */
function exportedTokens(text: string, until?: string): number {
  const options = until !== undefined ? { until } : {};
  const sent = applyThinking(toLLMView(parse(text, { fileName: 'a.msg.md' }), options), 'openai');
  const doc = parse(withoutThinking(text), { fileName: 'a.msg.md' });
  const view = toLLMView(doc, options);
  expect(view.messages.some((m) => m.source.thinking !== undefined)).toBe(false);
  expect(view.systemPrompt).toBe(sent.systemPrompt);
  const ids = new Set(sent.messages.flatMap((m) => m.source.cells));
  let n = view.systemPrompt !== null ? MESSAGE_OVERHEAD_TOKENS + estimateTokens(view.systemPrompt) : 0;
  for (const cell of doc.cells) {
    if (cell.id !== undefined && ids.has(cell.id)) n += cellTokens(doc, cell, historyMode(doc, cell) === 'summary' ? 'summary' : 'body');
  }
  return n;
}

/** The text without the replies' thinking paragraphs (one line each in these files) and the blank line after each. */
function withoutThinking(text: string): string {
  return text.replace(/^(\[\^[^\]]+\]: \[(?:coder|reviewer)\][^\n]*\n\n)\[(?!\^)[^\n]*\]\n\n/gm, '$1');
}

const label = (h: InlayHint): string => (typeof h.label === 'string' ? h.label : h.label.map((p) => p.value).join(''));
/** The exact total a reply's hint gives in its tooltip (`about 45,321 tokens`). */
function exactTotal(h: InlayHint): number | undefined {
  const part = (h.label as InlayHintLabelPart[]).find((p) => p.value.startsWith('Σ'));
  const m = /about ([\d,]+) tokens/.exec(String(part?.tooltip ?? ''));
  return m ? Number(m[1]!.replace(/,/g, '')) : undefined;
}
/** The 0-based lines of the cells' markers. */
function markerLines(text: string): number[] {
  const doc = parse(text, { fileName: 'a.msg.md' });
  return doc.cells.map((c) => doc.lines.lineOf(doc.offsetOf(c)));
}
const everything = { start: { line: 0, character: 0 }, end: { line: 1_000_000, character: 0 } };

let client: LspClient;
beforeAll(async () => {
  client = await LspClient.start({ capabilities });
});
afterAll(async () => {
  await client.stop();
});

const hintsOf = (uri: string, range = everything): Promise<InlayHint[]> => client.request('textDocument/inlayHint', { textDocument: { uri }, range });
const lensesOf = (uri: string, on = client): Promise<CodeLens[]> => on.request('textDocument/codeLens', { textDocument: { uri } });
/** The lenses as a client shows them: the list, each lens without a command resolved (codeLens/resolve). */
const resolvedLensesOf = async (uri: string, on = client): Promise<CodeLens[]> => {
  const lenses = await lensesOf(uri, on);
  return Promise.all(lenses.map((l) => (l.command ? l : on.request<CodeLens>('codeLens/resolve', l))));
};

describe('inlay hints', () => {
  it('are advertised, with code lenses, resolved by a client that says it resolves them', async () => {
    expect(client.initializeResult.capabilities).toMatchObject({ inlayHintProvider: { resolveProvider: false }, codeLensProvider: { resolveProvider: true } });
    const plain = await LspClient.start();
    try {
      expect(plain.initializeResult.capabilities.codeLensProvider).toEqual({ resolveProvider: false });
    } finally {
      await plain.stop();
    }
    expect(client.initializeResult.capabilities.executeCommandProvider?.commands).toContain('msglint.showLocation');
  });

  it("on the showcase: one at the end of each cell's marker line, with the cell's tokens, its summary's or `excluded`", async () => {
    const uri = fixtureUri('budget-showcase.msg.md');
    await client.open(uri, showcase);
    const hints = await hintsOf(uri);
    const lines = showcase.split('\n');
    expect(hints.map((h) => h.position.line)).toEqual(markerLines(showcase));
    for (const h of hints) {
      expect(h.position.character).toBe(lines[h.position.line]!.length);
      expect(h.paddingLeft).toBe(true);
      expect(label(h)).toMatch(/^(≈ \d+ tok|summary ≈ \d+ tok|excluded)$/);
    }
    const at = (marker: string): string => label(hints.find((h) => lines[h.position.line] === marker)!);
    // history=summary without a summary or a title: the message overhead alone.
    expect(at('# %% [^10]')).toBe('summary ≈ 4 tok');
    const doc = parse(showcase, { fileName: 'budget-showcase.msg.md' });
    expect(at('# %% Code without a block[^11]')).toBe(`≈ ${cellTokens(doc, doc.cellsById.get('11')![0]!, 'body')} tok`);
    // No reply of a known agent ([cdoer] is a typo): no total, and no lens.
    expect(hints.some((h) => label(h).includes('Σ'))).toBe(false);
    expect(await lensesOf(uri)).toEqual([]);
  });

  it("at each reply, the view's total against the agent's window: a hint's total equals msglint export's view counted by the same estimate", async () => {
    const uri = fixtureUri('budget-session.msg.md');
    await client.open(uri, session);
    const hints = await hintsOf(uri);
    const lines = session.split('\n');
    const replies = hints.filter((h) => label(h).includes('Σ'));
    expect(replies.map((h) => lines[h.position.line])).toEqual(['# %%% Plan[^2]', '# %%% Fix[^3]', '# %%% Looks good[^6]']);
    const plan = replies[0]!;
    expect(label(plan)).toMatch(/^≈ \d+ tok · Σ \d+ \/ 128k · <1%$/);
    // Plan has a thinking paragraph, which the export leaves out: so does the total, at Plan and after it.
    expect(withoutThinking(session)).not.toBe(session);
    expect(exactTotal(plan)).toBe(exportedTokens(session, '2'));
    expect(exactTotal(replies[1]!)).toBe(exportedTokens(session, '3'));
    const planPart = (plan.label as InlayHintLabelPart[])[0]!;
    const bare = parse(withoutThinking(session), { fileName: 'a.msg.md' });
    expect(planPart.value).toBe(`≈ ${cellTokens(bare, bare.cellsById.get('2')![0]!, 'body')} tok`);
    expect(String(planPart.tooltip)).toMatch(/thinking paragraph \(about \d+ tokens\) is left out/);
    // reviewer has no system prompt: the export sends none, and the total counts none.
    expect(exactTotal(replies[2]!)).toBe(exportedTokens(session, '6'));
    expect(label(replies[2]!)).toMatch(/Σ \d+ \/ 64k · 1%$/);
  });

  it('only in the range asked for', async () => {
    const uri = fixtureUri('budget-session.msg.md');
    const hints = await hintsOf(uri, { start: { line: 30, character: 0 }, end: { line: 60, character: 0 } });
    expect(hints.map((h) => h.position.line + 1)).toEqual([33, 45, 54, 60]);
  });

  it('follow msglint.inlayHints: `replies` gives only the totals, `off` none; a wrong value is shown', async () => {
    const other = await LspClient.start({ capabilities, settings: { inlayHints: 'replies' } });
    try {
      const uri = fixtureUri('budget-session.msg.md');
      await other.open(uri, session);
      const replies: InlayHint[] = await other.request('textDocument/inlayHint', { textDocument: { uri }, range: everything });
      expect(replies.map(label)).toEqual([expect.stringMatching(/^Σ \d+ \/ 128k · <1%$/), expect.stringMatching(/^Σ/), expect.stringMatching(/^Σ/)]);
      other.settings = { inlayHints: 'off' };
      await other.notify('workspace/didChangeConfiguration', { settings: null });
      expect(await other.request('textDocument/inlayHint', { textDocument: { uri }, range: everything })).toEqual([]);
      other.settings = { inlayHints: 'some' };
      await other.notify('workspace/didChangeConfiguration', { settings: null });
      expect((await other.request<InlayHint[]>('textDocument/inlayHint', { textDocument: { uri }, range: everything })).length).toBe(markerLines(session).length);
      const shown = await other.until(() => other.shown.find((m) => m.message.includes('msglint.inlayHints')), 'the settings problem');
      expect(shown.message).toContain('expected "all", "replies", "off", got "some"');
    } finally {
      await other.stop();
    }
  });
});

describe('code lenses', () => {
  it('export up to a reply (the server command with `until`) and go to a call\'s result, which the client is asked to show', async () => {
    const uri = fixtureUri('budget-session.msg.md');
    const lenses = await resolvedLensesOf(uri);
    const lines = session.split('\n');
    expect(lenses.map((l) => [lines[l.range.start.line], l.command?.title])).toEqual([
      ['# %%% Plan[^2]', 'Export view up to here'],
      ['## %%% Read the file[^2.k7f3q]', 'Go to result'],
      ['# %%% Fix[^3]', 'Export view up to here'],
      ['## %%% Write the fix[^3.m2x9w]', 'Go to result'],
      ['# %%% Looks good[^6]', 'Export view up to here'],
    ]);
    const exportLens = lenses[0]!.command!;
    expect(exportLens).toMatchObject({ command: 'msglint.exportLLMView', arguments: [uri, 'openai', { until: '2' }] });
    // The command runs as it stands: the view up to the reply.
    const view = await client.request('workspace/executeCommand', exportLens);
    // Its thinking paragraph is left out, as `msglint export --to openai` leaves it (docs/export.md, Thinking).
    expect(view).toEqual(expect.arrayContaining([expect.objectContaining({ role: 'assistant', content: "I'll read `paging.py` first." })]));
    expect(JSON.stringify(view)).not.toContain('ceiling division');

    const go = lenses[1]!.command!;
    expect(lines[go.arguments![1].start.line]).toBe('## %%% File contents[^2.k7f3q.1]');
    const shown: unknown[] = [];
    client.conn.onRequest('window/showDocument', (p: unknown) => {
      shown.push(p);
      return { success: true };
    });
    expect(await client.request('workspace/executeCommand', go)).toEqual({ success: true });
    expect(shown).toEqual([{ uri, selection: go.arguments![1], takeFocus: true }]);
  });

  it('say "No result yet" for a call without one, and the result\'s line to a client that cannot show documents (and gets the commands in the list)', async () => {
    const text = session.replace(/## %%% Written\[\^3\.m2x9w\.1\][\s\S]*?(?=# %% Check it)/, '');
    const plain = await LspClient.start();
    try {
      const uri = fixtureUri('budget-unanswered.msg.md');
      await plain.open(uri, text);
      const lenses = await lensesOf(uri, plain);
      expect(lenses.every((l) => l.command !== undefined && l.data === undefined)).toBe(true);
      expect(lenses.filter((l) => l.command?.command !== 'msglint.exportLLMView').map((l) => l.command)).toEqual([
        { title: 'Result at line 45', command: '' },
        { title: 'No result yet', command: '' },
      ]);
    } finally {
      await plain.stop();
    }
  });
});

describe('msglint/viewTotal', () => {
  it("is the whole view's tokens against the default agent's window, as export builds the view", async () => {
    const uri = fixtureUri('budget-session.msg.md');
    const total = await client.request('msglint/viewTotal', { textDocument: { uri } });
    expect(total).toMatchObject({ tokens: exportedTokens(session), agent: 'coder', window: 128000, label: `Σ ${exportedTokens(session)} / 128k · <1%` });
    expect(await client.request('msglint/viewTotal', { textDocument: { uri: fixtureUri('not-open.msg.md') } })).toBeNull();
  });
});

describe('on a 5,000-turn file', () => {
  const text = generateMessageFile({ turns: 5000 });
  const lines = text.split('\n');
  const uri = fixtureUri('budget-5000.msg.md');
  const middle = lines.findIndex((l) => l.startsWith('# %% Question 2500['));
  const screen = (from: number) => ({ start: { line: from, character: 0 }, end: { line: from + 60, character: 0 } });

  it('gives the hints of one screen at marker line ends, totals equal to the exported view up to each reply', async () => {
    await client.open(uri, text);
    const hints = await hintsOf(uri, screen(middle));
    expect(hints.map((h) => h.position.line)).toEqual(markerLines(text).filter((l) => l >= middle && l < middle + 60));
    for (const h of hints) expect(h.position.character).toBe(lines[h.position.line]!.length);
    const reply = hints.find((h) => label(h).includes('Σ'))!;
    const id = /\[\^(\d+)\]$/.exec(lines[reply.position.line]!)![1]!;
    expect(label(reply)).toMatch(/^≈ \d+ tok · Σ \d+(\.\d)?k \/ 200M · <1%$/);
    expect(exactTotal(reply)).toBe(exportedTokens(text, id));
  }, 120_000);

  it('after an edit before a reply, its total is that of the new text', async () => {
    const before = exactTotal((await hintsOf(uri, screen(middle))).find((h) => label(h).includes('Σ'))!)!;
    // The prose of a question in the view, some cells before the screen.
    let q = middle - 100;
    while (!(lines[q]!.startsWith('# %% Question') && lines[q + 2]!.includes('history=include'))) q--;
    const at = q + 4;
    await client.change(uri, 2, [{ range: { start: { line: at, character: 0 }, end: { line: at, character: 0 } }, text: 'Many more words here, typed in the middle. ' }]);
    const edited = text.split('\n');
    edited[at] = 'Many more words here, typed in the middle. ' + edited[at];
    const after = edited.join('\n');
    const reply = (await hintsOf(uri, screen(middle))).find((h) => label(h).includes('Σ'))!;
    const id = /\[\^(\d+)\]$/.exec(edited[reply.position.line]!)![1]!;
    expect(exactTotal(reply)).toBe(exportedTokens(after, id));
    expect(exactTotal(reply)).toBeGreaterThan(before);
  }, 120_000);

  it('lists a lens on every reply and tool call, without its command, which a resolve gives; a result lens points at the result', async () => {
    const lenses = await lensesOf(uri);
    const isReply = (l: string): boolean => /^# %%% Answer/.test(l);
    const isCall = (l: string): boolean => /^## %%% .*\[\^\d+\.[a-z0-9]+\]$/.test(l);
    // The edit of the test before added words to one line: the lines are where they were.
    const now = lines;
    expect(lenses.map((l) => l.range.start.line)).toEqual(now.flatMap((l, i) => (isReply(l) || isCall(l) ? [i] : [])));
    // The list says only where: each lens is resolved when the client shows it.
    expect(lenses.every((l) => l.command === undefined && l.range.start.character === 0)).toBe(true);
    const screen = lenses.filter((l) => l.range.start.line > middle && l.range.start.line < middle + 60);
    const resolved = await Promise.all(screen.map((l) => client.request<CodeLens>('codeLens/resolve', l)));
    expect(resolved.map((l) => l.command?.title)).toEqual(screen.map((l) => (isReply(now[l.range.start.line]!) ? 'Export view up to here' : 'Go to result')));
    const go = resolved.find((l) => l.command?.title === 'Go to result')!;
    const callId = /\[\^([^\]]+)\]$/.exec(now[go.range.start.line]!)![1]!;
    expect(now[go.command!.arguments![1].start.line]).toContain(`[^${callId}.1]`);
  }, 120_000);

  it('answers a resolve whose line no longer holds the lens ContentModified, and resolves the list of the new version', async () => {
    const before = (await lensesOf(uri)).find((l) => l.range.start.line > middle)!;
    // A blank line above it: the lens's line is now the line before its marker.
    await client.change(uri, 3, [{ range: { start: { line: middle, character: 0 }, end: { line: middle, character: 0 } }, text: '\n' }]);
    await expect(client.request('codeLens/resolve', before)).rejects.toMatchObject({ code: -32801 });
    const after = (await lensesOf(uri)).find((l) => l.range.start.line > middle)!;
    expect(after.range.start.line).toBe(before.range.start.line + 1);
    expect((await client.request<CodeLens>('codeLens/resolve', after)).command?.title).toMatch(/^(Export view up to here|Go to result)$/);
    // A lens of no open document (its `data` stands for the document): ContentModified too.
    await expect(client.request('codeLens/resolve', { ...after, data: 1e9 })).rejects.toMatchObject({ code: -32801 });
  }, 120_000);
});
