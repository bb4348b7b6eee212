// Completion, document symbols, folding ranges, semantic tokens and
// document links, over stdio.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompletionItem, CompletionList, DocumentLink, DocumentSymbol, FoldingRange, SemanticTokens, SymbolInformation, TextEdit } from 'vscode-languageserver-protocol';
import { applyTextEdits, fixtures, fixtureUri, LspClient, modernCapabilities, positionOf } from './client.js';

const session = readFileSync(path.join(fixtures, 'session.msg.md'), 'utf8');
const sessionUri = fixtureUri('session.msg.md');

let client: LspClient;
let n = 0;
beforeAll(async () => {
  client = await LspClient.start();
  await client.open(sessionUri, session);
});
afterAll(async () => {
  await client.stop();
});

/** Opens `text` with the cursor at `|` and returns the completion items there. */
async function completeAt(marked: string): Promise<{ items: CompletionItem[]; text: string; apply: (label: string) => string }> {
  const at = marked.indexOf('|');
  const text = marked.slice(0, at) + marked.slice(at + 1);
  const uri = fixtureUri(`complete-${++n}.msg.md`);
  await client.open(uri, text);
  const list = await client.request<CompletionList>('textDocument/completion', { textDocument: { uri }, position: positionOf(text, marked.slice(0, at), marked.slice(0, at).length) });
  await client.close(uri);
  const items = list?.items ?? [];
  return {
    items,
    text,
    apply: (label) => {
      const item = items.find((i) => i.label === label);
      if (!item) throw new Error(`no item '${label}' in ${items.map((i) => i.label).join(', ')}`);
      return applyTextEdits(text, [item.textEdit as TextEdit]);
    },
  };
}

const labels = (items: CompletionItem[]) => items.map((i) => i.label);

describe('completion', () => {
  it('offers cell marker snippets with the next free id and its metadata line', async () => {
    const { items, apply } = await completeAt(session + '\n#|');
    expect(labels(items)).toEqual(['# %% message cell', '# %%% agent reply', '## %%% tool call', '## %%% tool result', '# %%% code output']);
    for (const i of items) expect(i.insertTextFormat).toBe(2);
    expect(apply('# %% message cell')).toMatch(/\n# %% \$\{1:Title\}\[\^6\]\n\n\[\^6\]: \[\$\{2\|markdown,code,raw\|\}\]\n\n\$0$/);
    // A reply offers the default agent first.
    expect(apply('# %%% agent reply')).toContain('[^6]: [${2|coder,reviewer,fast|}]');
  });

  it('offers a tool call of the last reply with a fresh nonce, a result and a code output with the next N', async () => {
    const { apply } = await completeAt(session + '\n# %|');
    const call = apply('## %%% tool call');
    const nonce = /\[\^5\.([a-z0-9]+)\]\n/.exec(call)?.[1];
    expect(nonce).toMatch(/^[a-z][a-z0-9]{4}$/);
    expect(call).toContain(`[^5.${nonce}]: [tool] name="\${2:tool_name}"`);
    expect(call).toContain('<tool>\n<tool_name>$2</tool_name>\n<arguments>');
    expect(apply('## %%% tool result')).toContain('## %%% ${1:Tool result}[^2.k7f3q.2]\n\n[^2.k7f3q.2]: [tool] status="${2|success,error|}"');
    expect(apply('# %%% code output')).toContain('# %%% [^3.2]\n\n[^3.2]: [python] status="${1|success,error|}"\n\nstdout> $0');
  });

  it('gives plain text to clients without snippet support', async () => {
    const other = await LspClient.start({ capabilities: { ...modernCapabilities, textDocument: { ...modernCapabilities.textDocument, completion: {} } } });
    try {
      const uri = fixtureUri('plain-completion.msg.md');
      const text = '# %% Q[^1]\n\n[^1]: [markdown]\n\ntext\n\n';
      await other.open(uri, text);
      const list = await other.request<CompletionList>('textDocument/completion', { textDocument: { uri }, position: { line: 6, character: 0 } });
      const item = list.items.find((i) => i.label === '# %% message cell')!;
      expect(item.insertTextFormat).toBe(1);
      expect((item.textEdit as TextEdit).newText).toBe('# %% Title[^2]\n\n[^2]: [markdown]\n\n');
    } finally {
      await other.stop();
    }
  });

  it('offers types after `[^id]: [` for the cell`s kind', async () => {
    const message = await completeAt('# %% Q[^1]\n\n[^1]: [|\n\ntext\n');
    expect(labels(message.items)).toEqual(['markdown', 'code', 'raw']);
    expect(message.apply('code')).toContain('[^1]: [code]\n');
    const output = await completeAt(session.replace('[^5]: [reviewer]', '[^5]: [rev|'));
    expect(labels(output.items)).toEqual(expect.arrayContaining(['coder', 'reviewer', 'fast']));
    expect(labels(output.items)).not.toContain('markdown');
    expect(output.apply('reviewer')).toContain('[^5]: [reviewer]\n');
    const code = await completeAt(session.replace('[^3.1]: [python]', '[^3.1]: [|]'));
    expect(labels(code.items)[0]).toBe('python');
  });

  it('offers attribute keys for the cell`s kind, without those already there', async () => {
    const result = await completeAt(session.replace('[^2.k7f3q.1]: [tool] status="success" duration=0.2s', '[^2.k7f3q.1]: [tool] status="success" |'));
    expect(labels(result.items)).toEqual(['history', 'summary', 'time', 'duration']);
    expect(result.apply('duration')).toContain('[^2.k7f3q.1]: [tool] status="success" duration=\n');
    const output = await completeAt(session.replace('[^3.1]: [python] status="success" duration=0.1s output_file="out/run-3.txt"', '[^3.1]: [python] mi|'));
    expect(labels(output.items)).toEqual(expect.arrayContaining(['mime_type', 'output_file', 'status', 'duration']));
    const agent = await completeAt(session.replace('[^fast]: [agent] models="gpt-4o-mini" temperature=0.3', '[^fast]: [agent] models="gpt-4o-mini" |'));
    expect(labels(agent.items)).toEqual(expect.arrayContaining(['context_window', 'temperature', 'default']));
    expect(labels(agent.items)).not.toContain('models');
  });

  it('offers values for history, status, reasoning and mime_type', async () => {
    const history = await completeAt('# %% Q[^1]\n\n[^1]: [markdown] history=|\n\ntext\n');
    expect(labels(history.items)).toEqual(['include', 'exclude', 'summary']);
    expect(history.apply('exclude')).toContain('history=exclude\n');
    const status = await completeAt(session.replace('status="success" duration=0.2s', 'status="|'));
    expect(labels(status.items)).toEqual(['success', 'error']);
    expect(status.apply('error')).toContain('[^2.k7f3q.1]: [tool] status="error"\n');
    const reasoning = await completeAt(session.replace('[^2]: [coder] reasoning=1', '[^2]: [coder] reasoning=|'));
    expect(labels(reasoning.items)).toEqual(['1', '0', 'true', 'false']);
    const mime = await completeAt(session.replace('output_file="out/run-3.txt"', 'mime_type=image/|'));
    expect(labels(mime.items)).toContain('image/png');
    expect(mime.apply('image/png')).toContain('mime_type=image/png\n');
  });

  it('offers the tool names used in the file inside <tool_name> and name=', async () => {
    const inXml = await completeAt(session + '\n## %%% Again[^5.abcd9]\n\n[^5.abcd9]: [tool] name="read_file"\n\n<tool>\n<tool_name>re|</tool_name>\n</tool>\n');
    expect(labels(inXml.items)).toEqual(['read_file']);
    expect(inXml.apply('read_file')).toContain('<tool_name>read_file</tool_name>');
    const inName = await completeAt(session.replace('[^2.k7f3q]: [tool] name="read_file"', '[^2.k7f3q]: [tool] name="|"'));
    expect(labels(inName.items)).toEqual(['read_file']);
    expect(inName.apply('read_file')).toContain('[^2.k7f3q]: [tool] name="read_file"\n');
  });

  it('offers agent keys and values in the frontmatter', async () => {
    const keys = await completeAt(session.replace('    context_window: 64000\n', '    context_window: 64000\n    |\n'));
    expect(labels(keys.items)).toEqual(expect.arrayContaining(['temperature', 'system_prompt', 'max_output_tokens']));
    expect(labels(keys.items)).not.toContain('models');
    const def = await completeAt(session.replace('default_agent: coder', 'default_agent: |'));
    expect(labels(def.items)).toEqual(['coder', 'reviewer']);
    const top = await completeAt(session.replace('default_agent: coder\n', 'default_agent: coder\n|\n'));
    expect(labels(top.items)).toEqual(expect.arrayContaining(['message_section', 'title']));
    expect(labels(top.items)).not.toContain('agents');
  });

  it('offers nothing inside fenced code or plain text', async () => {
    expect((await completeAt(session.replace('print(page_count(25, 10))', '#|'))).items).toEqual([]);
    expect((await completeAt(session.replace('Looks right.', 'Looks |right.'))).items).toEqual([]);
  });
});

describe('document symbols', () => {
  it('are a tree: message > replies > tool calls > results, code output under its code cell', async () => {
    const symbols = await client.request<DocumentSymbol[]>('textDocument/documentSymbol', { textDocument: { uri: sessionUri } });
    const shape = (s: DocumentSymbol): unknown => (s.children?.length ? { [s.name]: s.children.map(shape) } : s.name);
    expect(symbols.map(shape)).toEqual([
      { agents: ['coder', 'reviewer'] },
      { 'The last page is missing [^1]': [{ 'Plan [^2]': [{ 'Read the file [^2.k7f3q]': ['File contents [^2.k7f3q.1]'] }] }] },
      { 'Check it [^3]': ['[^3.1]', 'Quick check [^4]', 'Review [^5]'] },
    ]);
    const plan = symbols[1]!.children![0]!;
    expect(plan.detail).toBe('reply · coder');
    expect(plan.selectionRange.start).toEqual(positionOf(session, 'Plan[^2]', 4));
    // Every child lies inside its parent.
    const inside = (s: DocumentSymbol) => {
      for (const c of s.children ?? []) {
        expect(c.range.start.line).toBeGreaterThanOrEqual(s.range.start.line);
        expect(c.range.end.line).toBeLessThanOrEqual(s.range.end.line);
        inside(c);
      }
    };
    symbols.forEach(inside);
  });

  it('are flat with container names for clients without hierarchical symbols', async () => {
    const other = await LspClient.start({ capabilities: { ...modernCapabilities, textDocument: { ...modernCapabilities.textDocument, documentSymbol: {} } } });
    try {
      await other.open(sessionUri, session);
      const symbols = await other.request<SymbolInformation[]>('textDocument/documentSymbol', { textDocument: { uri: sessionUri } });
      expect(symbols.find((s) => s.name === 'File contents [^2.k7f3q.1]')?.containerName).toBe('Read the file [^2.k7f3q]');
    } finally {
      await other.stop();
    }
  });
});

describe('folding, semantic tokens, links', () => {
  it('folds the frontmatter, every cell and multi-line blocks', async () => {
    const ranges = await client.request<FoldingRange[]>('textDocument/foldingRange', { textDocument: { uri: sessionUri } });
    const lines = session.split('\n');
    const start = (needle: string) => lines.findIndex((l) => l.startsWith(needle));
    expect(ranges).toContainEqual({ startLine: 0, endLine: start('default_agent') + 1 });
    expect(ranges).toContainEqual({ startLine: start('# %%% Plan'), endLine: start("I'll read"), kind: 'region' });
    expect(ranges).toContainEqual({ startLine: start('<tool>'), endLine: start('</tool>') });
    expect(ranges).toContainEqual({ startLine: start('```python'), endLine: start('```python') + 2 });
  });

  it('gives semantic tokens for markers, ids, types, agents, keys and values', async () => {
    const result = await client.request<SemanticTokens>('textDocument/semanticTokens/full', { textDocument: { uri: sessionUri } });
    const legend = client.initializeResult.capabilities.semanticTokensProvider!.legend;
    const lines = session.split('\n');
    const tokens: string[] = [];
    let line = 0;
    let char = 0;
    for (let i = 0; i < result.data.length; i += 5) {
      const [dl, dc, len, type, mods] = result.data.slice(i, i + 5) as [number, number, number, number, number];
      line += dl;
      char = dl ? dc : char + dc;
      tokens.push(`${lines[line]!.slice(char, char + len)}:${legend.tokenTypes[type]}${mods & 1 ? '+decl' : ''}`);
    }
    expect(tokens).toEqual(expect.arrayContaining(['coder:class+decl', '# %%%:keyword', '2:variable', '2:variable+decl', 'coder:class', 'reasoning:property', '1:number', 'tool:type', 'name:property', '"read_file":string', 'fast:class+decl']));
    // Range requests give the tokens of the cells in the range only.
    const planLine = lines.findIndex((l) => l.startsWith('# %%% Plan'));
    const range = await client.request<SemanticTokens>('textDocument/semanticTokens/range', {
      textDocument: { uri: sessionUri },
      range: { start: { line: planLine, character: 0 }, end: { line: planLine + 2, character: 0 } },
    });
    expect(range.data.length).toBeGreaterThan(0);
    expect(range.data.length).toBeLessThan(result.data.length);
  });

  it('links output_file paths relative to the file', async () => {
    const links = await client.request<DocumentLink[]>('textDocument/documentLink', { textDocument: { uri: sessionUri } });
    expect(links).toEqual([
      {
        range: { start: positionOf(session, 'out/run-3.txt'), end: positionOf(session, 'out/run-3.txt', 'out/run-3.txt'.length) },
        target: pathToFileURL(path.join(fixtures, 'out/run-3.txt')).href,
        tooltip: 'Open out/run-3.txt',
      },
    ]);
  });
});
