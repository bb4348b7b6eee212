// The LLM view in the editor, over stdio: the msglint.exportLLMView command
// (every format, options, errors) and hover on a cell (in the view or not,
// and its estimated tokens).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Hover } from 'vscode-languageserver-protocol';
import { formatLLMView, toLLMView } from '../../server/export/index.js';
import { cellTokens } from '../../server/llm-view/tokens.js';
import { parse } from '../../server/syntax/document.js';
import { fixtureUri, LspClient, positionOf } from './client.js';

const COMMAND = 'msglint.exportLLMView';

const chat = `---
agents:
  coder:
    system_prompt: You are a careful coding assistant.
default_agent: coder
---

# %% Question[^1]

[^1]: [markdown]

What is in paging.py?

# %%% Plan[^2]

[^2]: [coder]

I'll read it.

## %%% Read the file[^2.k7f3q]

[^2.k7f3q]: [tool] name="read_file"

<tool>
<server_name>local</server_name>
<tool_name>read_file</tool_name>
<arguments>
  <path>paging.py</path>
</arguments>
</tool>

## %%% File contents[^2.k7f3q.1]

[^2.k7f3q.1]: [tool] status="success"

def page_count(total, size):
    return total // size

# %% Aside[^3]

[^3]: [markdown] history=exclude

A note for myself, not for the model.

# %% Earlier run[^4]

[^4]: [markdown] history=summary summary="ran the tests, all green"

A long log that the model only sees as a summary.

# %%% Answer[^5]

[^5]: [coder]

It divides without rounding up.
`;

const chatUri = fixtureUri('llm-view-chat.msg.md');
const tokensOf = (id: string, contributes: 'body' | 'summary' = 'body') => {
  const doc = parse(chat, { fileName: 'llm-view-chat.msg.md' });
  return cellTokens(doc, doc.cellsById.get(id)![0]!, contributes);
};

let client: LspClient;
beforeAll(async () => {
  client = await LspClient.start();
  await client.open(chatUri, chat);
});
afterAll(async () => {
  await client.stop();
});

const run = <R = unknown>(...args: unknown[]): Promise<R> => client.request<R>('workspace/executeCommand', { command: COMMAND, arguments: args });
/** The ResponseError a request is refused with. */
const refusal = async (p: Promise<unknown>): Promise<{ code: number; message: string; data?: any }> => {
  const e = await p.then(
    (v) => {
      throw new Error(`expected a refusal, got ${JSON.stringify(v)}`);
    },
    (err: { code: number; message: string; data?: unknown }) => err,
  );
  return e;
};

describe('msglint.exportLLMView', () => {
  it('is advertised among the commands', () => {
    expect(client.initializeResult.capabilities.executeCommandProvider?.commands).toEqual(expect.arrayContaining(['msglint.fixAll', COMMAND]));
  });

  it('exports OpenAI Chat Completions messages: system first, tool_calls with JSON arguments, the tool message after', async () => {
    const out = await run<any[]>(chatUri, 'openai');
    expect(out).toEqual([
      { role: 'system', content: 'You are a careful coding assistant.' },
      { role: 'user', content: 'What is in paging.py?' },
      {
        role: 'assistant',
        content: "I'll read it.",
        tool_calls: [{ id: '2.k7f3q', type: 'function', function: { name: 'read_file', arguments: '{"path":"paging.py"}' } }],
      },
      { role: 'tool', tool_call_id: '2.k7f3q', content: 'def page_count(total, size):\n    return total // size' },
      { role: 'user', content: 'ran the tests, all green' },
      { role: 'assistant', content: 'It divides without rounding up.' },
    ]);
    // history=exclude: the aside is not there.
    expect(JSON.stringify(out)).not.toContain('A note for myself');
    // What the library (and so the CLI) gives for the same text.
    expect(out).toEqual(formatLLMView(toLLMView(chat), 'openai'));
  });

  it('exports Anthropic {system, messages}: tool_use in the assistant message, tool_result in the next user message', async () => {
    const out = await run<{ system?: string; messages: { role: string; content: any[] }[] }>(chatUri, 'anthropic');
    expect(out.system).toBe('You are a careful coding assistant.');
    expect(out.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(out.messages[1]!.content).toEqual([
      { type: 'text', text: "I'll read it." },
      { type: 'tool_use', id: '2_k7f3q', name: 'read_file', input: { path: 'paging.py' } },
    ]);
    // The result comes first in the user message, merged with the summary that follows it.
    expect(out.messages[2]!.content).toEqual([
      { type: 'tool_result', tool_use_id: '2_k7f3q', content: 'def page_count(total, size):\n    return total // size' },
      { type: 'text', text: 'ran the tests, all green' },
    ]);
    expect(out).toEqual(formatLLMView(toLLMView(chat), 'anthropic'));
  });

  it('exports the other formats: vercel, vercel-legacy and context-json as JSON, console as uncoloured text', async () => {
    expect(await run(chatUri, 'vercel')).toEqual(formatLLMView(toLLMView(chat), 'vercel'));
    expect(await run(chatUri, 'vercel-legacy')).toEqual(formatLLMView(toLLMView(chat), 'vercel-legacy'));
    // The file has no `time`: every entry has the time of the request, marked as estimated.
    const entries = await run<{ timestamp: string; timestampEstimated?: boolean }[]>(chatUri, 'context-json');
    expect(new Set(entries.map((e) => e.timestamp)).size).toBe(1);
    expect(entries.every((e) => e.timestampEstimated === true && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(e.timestamp))).toBe(true);
    expect(entries).toEqual(formatLLMView(toLLMView(chat), 'context-json', { time: entries[0]!.timestamp }));
    const text = await run<string>(chatUri, 'console');
    expect(typeof text).toBe('string');
    expect(text).toBe(formatLLMView(toLLMView(chat), 'console', { color: false }));
    expect(text).not.toContain('\u001b[');
  });

  it('takes the options agent, until and codeAsTool', async () => {
    const until = await run<any[]>(chatUri, 'openai', { until: '2.k7f3q.1' });
    expect(until.at(-1)).toMatchObject({ role: 'tool', tool_call_id: '2.k7f3q' });
    expect(until).toHaveLength(4);
    expect(await run(chatUri, 'openai', { agent: 'coder', codeAsTool: true })).toEqual(formatLLMView(toLLMView(chat, { agent: 'coder', codeAsTool: true }), 'openai'));
    const noAgent = await refusal(run(chatUri, 'openai', { agent: 'nobody' }));
    expect(noAgent.code).toBe(-32602);
    expect(noAgent.message).toContain("no agent 'nobody' in the file");
    expect((await refusal(run(chatUri, 'openai', { until: '9' }))).message).toContain("no cell has the id '9'");
    expect((await refusal(run(chatUri, 'openai', { until: 9 }))).message).toContain("the option 'until' must be a string");
    expect((await refusal(run(chatUri, 'openai', 'fast'))).message).toContain('must be an object of options');
  });

  it("exports the open document's current version", async () => {
    const uri = fixtureUri('llm-view-edited.msg.md');
    const text = '# %% Q[^1]\n\n[^1]: [markdown]\n\nfirst\n';
    await client.open(uri, text, 1);
    expect(await run(uri, 'openai')).toEqual([{ role: 'user', content: 'first' }]);
    const at = positionOf(text, 'first');
    await client.change(uri, 2, [{ range: { start: at, end: { line: at.line, character: at.character + 5 } }, text: 'second' }]);
    expect(await run({ textDocument: { uri } }, 'openai')).toEqual([{ role: 'user', content: 'second' }]);
    await client.close(uri);
  });

  it('refuses an unknown document, a file that is not a message file, and a bad format, with a clear message', async () => {
    const unknown = fixtureUri('never-opened.msg.md');
    const e1 = await refusal(run(unknown, 'openai'));
    expect(e1.code).toBe(-32602);
    expect(e1.message).toBe(`${COMMAND}: no open document has the URI ${unknown} (open it in the editor first)`);

    const plain = fixtureUri('llm-view-notes.md');
    await client.open(plain, '# Notes\n\nJust notes.\n');
    expect((await refusal(run(plain, 'openai'))).message).toContain(`${plain} is not a message file`);
    await client.close(plain);

    const e2 = await refusal(run(chatUri, 'gemini'));
    expect(e2.code).toBe(-32602);
    expect(e2.message).toBe(`${COMMAND}: unknown format 'gemini': use one of openai, anthropic, vercel, vercel-legacy, context-json, console`);
    expect((await refusal(run(chatUri))).message).toContain('the second argument must be the format');
    expect((await refusal(run())).message).toContain("the first argument must be the document's URI");
    expect((await refusal(client.request('workspace/executeCommand', { command: COMMAND }))).message).toContain("document's URI");

    // Nothing of that was a failure inside the server.
    expect(client.alive).toBe(true);
    expect(client.errorLogs).toEqual([]);
  });

  it('refuses, like the CLI, a file whose problems make the view invalid, unless force is given', async () => {
    const uri = fixtureUri('llm-view-split.msg.md');
    const text = chat.replace('[^2.k7f3q.1]: [tool] status="success"', '[^2.k7f3q.1]: [tool] status="success" history=exclude');
    await client.open(uri, text);
    const e = await refusal(run(uri, 'openai'));
    expect(e.code).toBe(-32602);
    expect(e.message).toContain('not exported, 1 problem makes the LLM view invalid (fix it, or pass { force: true }): line ');
    expect(e.message).toContain('force');
    expect(e.data.problems.map((p: { code: string }) => p.code)).toContain('history-split-pair');
    const forced = await run<any[]>(uri, 'openai', { force: true });
    // The call without its result is left out, so calls and results still pair.
    expect(JSON.stringify(forced)).not.toContain('tool_call');
    await client.close(uri);
  });
});

describe('hover: the LLM view', () => {
  const hover = async (needle: string, delta = 0, text = chat, uri = chatUri): Promise<Hover | null> =>
    client.request<Hover | null>('textDocument/hover', { textDocument: { uri }, position: positionOf(text, needle, delta) });
  const value = (h: Hover | null): string => (h ? (h.contents as { value: string }).value : '');

  it("on a marker line: the cell, that it is in the view and its estimated tokens", async () => {
    const h = await hover('# %%% Plan');
    const v = value(h);
    expect(v).toContain('**Agent reply** `[^2]` · type `coder`');
    expect(v).toContain(`In the LLM view: yes (about ${tokensOf('2')} tokens)`);
    expect(v).toMatch(/about \d+ tokens/);
    // The hover is about the marker line.
    const line = positionOf(chat, '# %%% Plan').line;
    expect(h!.range).toEqual({ start: { line, character: 0 }, end: { line, character: '# %%% Plan[^2]'.length } });
  });

  it('in the body of a cell where nothing more specific applies', async () => {
    expect(value(await hover('return total'))).toContain(`**Tool result** \`[^2.k7f3q.1]\` · type \`tool\``);
    expect(value(await hover('return total'))).toContain(`In the LLM view: yes (about ${tokensOf('2.k7f3q.1')} tokens)`);
  });

  it('on a history=exclude cell: left out, and why', async () => {
    for (const needle of ['# %% Aside', 'A note for myself']) {
      const v = value(await hover(needle));
      expect(v).toContain('**Message cell** `[^3]`');
      expect(v).toContain(`In the LLM view: no, left out by \`history=exclude\` (about ${tokensOf('3')} tokens if included)`);
      expect(v).not.toContain('In the LLM view: yes');
    }
  });

  it('on a history=summary cell: only its summary, and what the summary costs', async () => {
    expect(value(await hover('A long log'))).toContain(`In the LLM view: only its summary, by \`history=summary\` (about ${tokensOf('4', 'summary')} tokens)`);
  });

  it('appended to the hovers of ids and history values, which stay as they were', async () => {
    const id = value(await hover('[^2.k7f3q]: [tool]', 5));
    expect(id).toContain('**Tool call** `[^2.k7f3q]`');
    expect(id).toContain('Results: `2.k7f3q.1` success');
    expect(id).toContain(`In the LLM view: yes (about ${tokensOf('2.k7f3q')} tokens)`);
    const history = value(await hover('history=exclude', 10));
    expect(history).toContain('**history=exclude**: The model does not see this cell at all.');
    expect(history).toContain('In the LLM view: no, left out by `history=exclude`');
    // An agent name keeps its own hover.
    const agent = value(await hover('[^5]: [coder]', 8));
    expect(agent).toContain('**Agent** `coder`');
    expect(agent).not.toContain('In the LLM view');
  });

  it('after a problem on the same spot; an invalid history value counts as include', async () => {
    const uri = fixtureUri('llm-view-bad-history.msg.md');
    const text = '# %% Q[^1]\n\n[^1]: [markdown] history=maybe\n\ntext\n';
    await client.open(uri, text);
    const v = value(await hover('text', 1, text, uri));
    expect(v).toContain('In the LLM view: yes (about');
    expect(v).toContain('`history=maybe` is not a history value, so it counts as `include`');
    await client.close(uri);
  });

  it("on a reply with a thinking paragraph: the tokens the export sends, and how many of thinking it leaves out", async () => {
    const uri = fixtureUri('llm-view-thinking.msg.md');
    const thinking = '[I should read the file before I answer anything.]\n\n';
    const text = `---\nagents:\n  coder: {}\n---\n\n# %%% Plan[^2]\n\n[^2]: [coder]\n\n${thinking}I'll read it.\n`;
    await client.open(uri, text);
    const bare = parse(text.replace(thinking, ''), { fileName: 'a.msg.md' });
    const sent = cellTokens(bare, bare.cellsById.get('2')![0]!, 'body');
    expect(value(await hover('# %%% Plan', 0, text, uri))).toMatch(new RegExp(`In the LLM view: yes \\(about ${sent} tokens, its thinking paragraph of about \\d+ left out as export leaves it\\)`));
    await client.close(uri);
  });

  it('nothing outside the cells', async () => {
    // The blank line between the frontmatter and the first cell.
    expect(await hover('---\n\n# %% Question', 4)).toBeNull();
    expect(await hover('default_agent')).toBeNull();
  });
});
