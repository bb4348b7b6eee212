// toLLMView and the formatters on small files: each decision of
// server/export/view.ts and the formatters' headers.

import { describe, expect, it } from 'vitest';
import {
  AnthropicFormatter,
  ExportOptionError,
  formatLLMView,
  listAgents,
  normalizeTime,
  splitThinking,
  toLLMView,
  toolNames,
  viewBlockers,
  type AnthropicRequest,
  type ContextAssistantContent,
  type InternalMessage,
  type ToLLMViewOptions,
} from '../../server/export/index.js';
import { fence } from '../../server/export/text.js';
import { lintDocument } from '../../server/linter.js';
import { parse } from '../../server/syntax/document.js';
import { file } from '../helpers.js';

const FRONT = ['---', 'agents:', '  coder:', '    models: [gpt-4o]', '    system_prompt: You code.', '  reviewer:', '    models: [gpt-4o-mini]', '    system_prompt: You review.', 'default_agent: coder', '---', ''];
const ask = (id: string, text = `Question ${id}?`, meta = '') => [`# %% Ask[^${id}]`, '', `[^${id}]: [markdown]${meta}`, '', text, ''];
const reply = (id: string, text = `Answer ${id}.`, meta = '', agent = 'coder') => [`# %%% Answer[^${id}]`, '', `[^${id}]: [${agent}]${meta}`, '', ...text.split('\n'), ''];
const call = (id: string, path = 'a.py', meta = '', name = 'read_file') => [
  `## %%% Call[^${id}]`,
  '',
  `[^${id}]: [tool] name="${name}"${meta}`,
  '',
  '<tool>',
  `<tool_name>${name}</tool_name>`,
  '<arguments>',
  `  <path>${path}</path>`,
  '</arguments>',
  '</tool>',
  '',
];
const result = (id: string, text = `result of ${id}`, meta = ' status="success"') => [`## %%% Result[^${id}]`, '', `[^${id}]: [tool]${meta}`, '', text, ''];
const msg = (...cells: string[][]) => file(...FRONT, ...cells.flat());
const doc = (text: string) => parse(text, { fileName: 'test.msg.md' });
const view = (text: string, options: ToLLMViewOptions = {}) => toLLMView(doc(text), options);
/** A compact picture of the messages: role, content, calls, call id. */
const shape = (messages: InternalMessage[]) =>
  messages.map((m) => [m.role, m.content, ...(m.toolCalls ? [m.toolCalls.map((c) => c.id)] : []), ...(m.toolCallId ? [m.toolCallId] : [])]);

describe('toLLMView', () => {
  it('puts parallel calls in one assistant message and sequential calls in one each', () => {
    const parallel = view(msg(ask('1'), reply('2'), call('2.aaaa1'), call('2.bbbb2', 'b.py'), result('2.aaaa1.1'), result('2.bbbb2.1')));
    expect(shape(parallel.messages)).toEqual([
      ['user', 'Question 1?'],
      ['assistant', 'Answer 2.', ['2.aaaa1', '2.bbbb2']],
      ['tool', 'result of 2.aaaa1.1', '2.aaaa1'],
      ['tool', 'result of 2.bbbb2.1', '2.bbbb2'],
    ]);
    const sequential = view(msg(ask('1'), reply('2'), call('2.aaaa1'), result('2.aaaa1.1'), call('2.bbbb2', 'b.py'), result('2.bbbb2.1')));
    expect(shape(sequential.messages)).toEqual([
      ['user', 'Question 1?'],
      ['assistant', 'Answer 2.', ['2.aaaa1']],
      ['tool', 'result of 2.aaaa1.1', '2.aaaa1'],
      ['assistant', null, ['2.bbbb2']],
      ['tool', 'result of 2.bbbb2.1', '2.bbbb2'],
    ]);
    expect(sequential.systemPrompt).toBe('You code.');
    expect(sequential.messages[1]!.toolCalls![0]).toMatchObject({ type: 'function', function: { name: 'read_file', arguments: '{"path":"a.py"}' }, input: { path: 'a.py' }, server: 'local' });
  });

  it('moves results up to their call, joins several results and marks errors', () => {
    const v = view(msg(ask('1'), reply('2'), call('2.aaaa1'), result('2.aaaa1.1'), ask('3', 'Meanwhile.'), result('2.aaaa1.2', 'failed', ' status="error"')));
    expect(shape(v.messages)).toEqual([
      ['user', 'Question 1?'],
      ['assistant', 'Answer 2.', ['2.aaaa1']],
      ['tool', 'result of 2.aaaa1.1\n\nfailed', '2.aaaa1'],
      ['user', 'Meanwhile.'],
    ]);
    expect(v.messages[2]).toMatchObject({ isError: true, name: 'read_file', source: { cells: ['2.aaaa1.1', '2.aaaa1.2'] } });
  });

  it('keeps a summarised call as a call with its summary and no arguments', () => {
    const v = view(msg(ask('1'), reply('2'), call('2.aaaa1', 'a.py', ' history=summary summary="read a.py"'), result('2.aaaa1.1', 'x', ' history=summary summary="got x"')));
    expect(shape(v.messages).slice(1)).toEqual([
      ['assistant', 'Answer 2.\n\nread a.py', ['2.aaaa1']],
      ['tool', 'got x', '2.aaaa1'],
    ]);
    expect(v.messages[1]!.toolCalls![0]!.function.arguments).toBe('{}');
  });

  it('leaves out a call without a result (running, cut off or split) and says so', () => {
    const running = view(msg(ask('1'), reply('2'), call('2.aaaa1')));
    expect(shape(running.messages)).toEqual([
      ['user', 'Question 1?'],
      ['assistant', 'Answer 2.'],
    ]);
    expect(running.omitted).toMatchObject([{ cell: '2.aaaa1', reason: 'no-result' }]);
    // A message of nothing but unanswered calls disappears.
    const alone = view(msg(ask('1'), reply('2'), call('2.aaaa1'), result('2.aaaa1.1'), call('2.bbbb2')));
    expect(shape(alone.messages).map((m) => m[0])).toEqual(['user', 'assistant', 'tool']);
    // A split pair: the excluded result leaves the call alone, and the file is refused.
    const text = msg(ask('1'), reply('2'), call('2.aaaa1'), result('2.aaaa1.1', 'x', ' history=exclude'));
    const d = doc(text);
    const split = toLLMView(d);
    expect(split.omitted).toMatchObject([{ cell: '2.aaaa1', reason: 'no-result' }]);
    expect(viewBlockers(d, split, lintDocument(d)).map((b) => b.ruleId)).toEqual(['history-split-pair']);
  });

  it('leaves out excluded cells and shows summaries', () => {
    const v = view(msg(ask('1', 'Hidden', ' history=exclude'), ask('2', 'Long question', ' history=summary summary="a question"'), reply('3', 'Long answer', ' history=0')));
    expect(shape(v.messages)).toEqual([['user', 'a question']]);
  });

  it('stops after the --until cell, and uses its agent', () => {
    const text = msg(ask('1'), reply('2', 'Review.', '', 'reviewer'), call('2.aaaa1'), result('2.aaaa1.1'), ask('3'));
    expect(shape(view(text, { until: '2' }).messages)).toEqual([
      ['user', 'Question 1?'],
      ['assistant', 'Review.'],
    ]);
    expect(view(text, { until: '2' }).systemPrompt).toBe('You review.');
    expect(view(text, { until: '2.aaaa1' }).omitted).toMatchObject([{ cell: '2.aaaa1', reason: 'no-result' }]);
    expect(view(text, { until: '2.aaaa1.1' }).messages).toHaveLength(3);
    expect(view(text).systemPrompt).toBe('You code.');
    expect(view(text, { agent: 'reviewer' }).systemPrompt).toBe('You review.');
    expect(() => view(text, { until: '9' })).toThrow(ExportOptionError);
    expect(() => view(text, { agent: 'nobody' })).toThrow(/no agent 'nobody'/);
  });

  it('knows temporary agents only from their declaration on', () => {
    const text = file('# %% Ask[^1]', '', '[^1]: [markdown]', '', 'Hi', '', '[^late]: [agent] models="gpt-4o" default=1', '', '# %%% Hi[^2]', '', '[^2]: [late]', '', 'Hello.', '');
    expect(() => view(text, { agent: 'late', until: '1' })).toThrow(/declared after/);
    expect(view(text, { agent: 'late' })).toMatchObject({ agent: 'late', systemPrompt: null });
    expect(view(text)).toMatchObject({ agent: 'late' });
  });

  it('turns code cells into code_execution calls with --code-as-tool', () => {
    const text = msg(
      ['# %% Run[^1]', '', '[^1]: [code]', '', 'Check it:', '', '```python', 'print(1)', '```', ''],
      ['# %%% Out[^1.1]', '', '[^1.1]: [python] status="success"', '', 'stdout> 1', ''],
    );
    expect(shape(view(text).messages)).toEqual([
      ['user', '```python\nprint(1)\n```'],
      ['user', '```output\n1\n```'],
    ]);
    const v = view(text, { codeAsTool: true });
    expect(shape(v.messages)).toEqual([
      ['assistant', 'Check it:', ['1']],
      ['tool', '1', '1'],
    ]);
    expect(v.messages[0]!.toolCalls![0]).toMatchObject({ function: { name: 'code_execution' }, input: { language: 'python', code: 'print(1)' } });
    // An output split from its code cell is a problem only when code cells are calls.
    const split = text.replace('[^1.1]: [python] status="success"', '[^1.1]: [python] status="success" history=exclude');
    expect(view(split).problems).toEqual([]);
    const d = doc(split);
    const problems = toLLMView(d, { codeAsTool: true }).problems;
    expect(problems).toHaveLength(1);
    expect(split.slice(problems[0]!.offset, problems[0]!.end)).toBe('history=exclude');
    expect(viewBlockers(d, toLLMView(d, { codeAsTool: true }), lintDocument(d)).map((b) => b.ruleId)).toEqual(['history-split-pair']);
  });

  it('reads the text around a <tool> element as reasoning, and legacy JSON calls', () => {
    const text = msg(ask('1'), reply('2'), [
      '## %%% Call[^2.aaaa1]',
      '',
      '[^2.aaaa1]: [tool] name="search"',
      '',
      'Looking. <tool>{"server_name": "idx", "tool_name": "search", "arguments": {"q": "x", "n": 3}}</tool> Done.',
      '',
    ], result('2.aaaa1.1'));
    const c = view(text).messages[1]!;
    expect(c.content).toBe('Answer 2.\n\nLooking. Done.');
    expect(c.toolCalls![0]).toMatchObject({ server: 'idx', input: { q: 'x', n: 3 }, function: { arguments: '{"q":"x","n":3}' } });
  });
});

describe('text helpers', () => {
  it('splits a leading thinking paragraph', () => {
    expect(splitThinking('[Think.]\n\nSay.')).toEqual({ thinking: 'Think.', text: 'Say.' });
    expect(splitThinking('[Only thinking]')).toEqual({ thinking: 'Only thinking', text: '' });
    expect(splitThinking('[link](x) text')).toEqual({ text: '[link](x) text' });
    expect(splitThinking('Say [this].')).toEqual({ text: 'Say [this].' });
  });

  it('normalises times to UTC and drops invalid ones', () => {
    expect(normalizeTime('2025-05-30T09:00:00+08:00')).toBe('2025-05-30T01:00:00Z');
    expect(normalizeTime('2025-05-30T09:00:00.250Z')).toBe('2025-05-30T09:00:00.250Z');
    expect(normalizeTime('2025-05-30')).toBeUndefined();
    expect(normalizeTime('yesterday')).toBeUndefined();
  });

  it('fences with more backticks than the text holds', () => {
    expect(fence('a ``` b', 'x')).toBe('````x\na ``` b\n````');
  });
});

describe('formatters', () => {
  const parallel = msg(ask('1'), reply('2'), call('2.aaaa1'), call('2.bbbb2', 'b.py'), result('2.aaaa1.1'), result('2.bbbb2.1', 'Error: gone', ' status="error"'));

  it('anthropic: system apart, tool results first in the next user message, safe ids, no system key without a prompt', () => {
    const out = formatLLMView(view(parallel), 'anthropic') as AnthropicRequest;
    expect(out.system).toBe('You code.');
    expect(out.messages.map((m) => [m.role, m.content.map((b) => b.type)])).toEqual([
      ['user', ['text']],
      ['assistant', ['text', 'tool_use', 'tool_use']],
      ['user', ['tool_result', 'tool_result']],
    ]);
    expect(out.messages[2]!.content[1]).toEqual({ type: 'tool_result', tool_use_id: '2_bbbb2', content: 'Error: gone', is_error: true });
    const noPrompt = formatLLMView({ ...view(parallel), systemPrompt: null }, 'anthropic');
    expect(Object.keys(noPrompt)).toEqual(['messages']);
  });

  it('tool names: a mapped or qualified name never merges two tools, and names sent as written keep theirs', () => {
    const call = (id: string, name: string, server = 'local') => ({ id, type: 'function' as const, function: { name, arguments: '{}' }, input: {}, server });
    const calls = [call('1.a', 'a.b'), call('1.b', 'a_b'), call('1.c', 'a b'), call('1.d', 'x'), call('1.e', 'x', 'srv'), call('1.f', 'srv__x'), call('1.g', 'y'.repeat(70))];
    const names = toolNames([{ role: 'assistant', content: null, toolCalls: calls, source: { cells: [], kind: 'reply' } }], true);
    const sent = calls.map((c) => names.of(c));
    expect(new Set(sent).size).toBe(calls.length);
    for (const n of sent) expect(n).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    // Valid names not qualified are sent as written; the others give way.
    expect([sent[1], sent[3], sent[5]]).toEqual(['a_b', 'x', 'srv__x']);
    expect(sent[0]).toMatch(/^a_b_[0-9a-f]{8}$/);
    expect(sent[4]).toMatch(/^srv__x_[0-9a-f]{8}$/);
    expect(names.changes.map((c) => [c.name, c.reasons.join()])).toEqual([
      ['a.b', 'pattern'],
      ['a b', 'pattern'],
      ['x', 'server'],
      ['y'.repeat(70), 'pattern'],
    ]);
    // The same history gives the same names.
    const again = toolNames([{ role: 'assistant', content: null, toolCalls: calls, source: { cells: [], kind: 'reply' } }], true);
    expect(calls.map((c) => again.of(c))).toEqual(sent);
  });

  it('anthropic: ids that would clash after sanitising get a suffix', () => {
    const call = (id: string) => ({ id, type: 'function' as const, function: { name: 't', arguments: '{}' }, input: {}, server: 'local' });
    const src = { cells: [], kind: 'reply' as const };
    const history: InternalMessage[] = [
      { role: 'assistant', content: null, toolCalls: [call('a.b'), call('a_b')], source: src },
      { role: 'tool', content: 'x', toolCallId: 'a.b', source: src },
      { role: 'tool', content: 'y', toolCallId: 'a_b', source: src },
    ];
    // Nothing is made up before the assistant's message.
    const out = new AnthropicFormatter().format(history);
    expect(out[0]!.content.map((b) => (b.type === 'tool_use' ? b.id : ''))).toEqual(['a_b', 'a_b_2']);
    expect(out[1]!.content.map((b) => (b.type === 'tool_result' ? b.tool_use_id : ''))).toEqual(['a_b', 'a_b_2']);
  });

  it('vercel: parallel calls in one assistant message, their results in one tool message', () => {
    const out = formatLLMView(view(parallel), 'vercel');
    expect(out.system).toBeDefined();
    expect(out.messages.map((m) => [m.role, typeof m.content === 'string' ? 'text' : m.content.map((p) => p.type).join()])).toEqual([
      ['user', 'text'],
      ['assistant', 'text,tool-call,tool-call'],
      ['tool', 'tool-result,tool-result'],
    ]);
  });

  it('vercel-legacy: one function_call per assistant message, each followed by its function result', () => {
    expect(formatLLMView(view(parallel), 'vercel-legacy').map((m) => [m.role, 'function_call' in m ? m.function_call?.name : 'name' in m ? m.name : undefined])).toEqual([
      ['system', undefined],
      ['user', undefined],
      ['assistant', 'read_file'],
      ['function', 'read_file'],
      ['assistant', 'read_file'],
      ['function', 'read_file'],
    ]);
  });

  it('openai: system first, tool messages after the calls', () => {
    expect(formatLLMView(view(parallel), 'openai').map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'tool']);
  });

  it('context-json: turns, estimated timestamps, a reasoning step folded into its first call, colliding arguments nested', () => {
    const text = msg(
      ask('1', 'Go', ' time="2025-01-01T00:00:00Z"'),
      reply('2', '[Plan.]\n\nI will search.', ' reasoning=1 time="2025-01-01T00:00:05Z"'),
      [
        '## %%% Call[^2.aaaa1]',
        '',
        '[^2.aaaa1]: [tool] name="search"',
        '',
        '<tool>',
        '<tool_name>search</tool_name>',
        '<arguments>',
        '  <result>odd name</result>',
        '</arguments>',
        '</tool>',
        '',
      ],
      result('2.aaaa1.1', 'found'),
      ask('3', 'Thanks'),
    );
    const entries = formatLLMView(view(text), 'context-json');
    expect(entries.map((e) => [e.index, e.turn, e.timestamp, e.timestampEstimated ?? false, e.role])).toEqual([
      [0, 0, '2025-01-01T00:00:00Z', true, 'system'],
      [1, 0, '2025-01-01T00:00:00Z', false, 'user'],
      // The call has no time: its reply's.
      [2, 1, '2025-01-01T00:00:05Z', true, 'assistant'],
      [3, 2, '2025-01-01T00:00:05Z', true, 'user'],
    ]);
    expect(entries[2]!.content).toEqual({ toolCall: 'search', arguments: { result: 'odd name' }, reasoning: 'Plan.\n\nI will search.', result: 'found' } satisfies ContextAssistantContent);
    // Without any time: the `time` option (the CLI gives the file's modification time), else now.
    const noTimes = formatLLMView(view(msg(ask('1'))), 'context-json', { time: '2024-02-03T04:05:06Z' });
    expect(noTimes.map((e) => [e.timestamp, e.timestampEstimated])).toEqual([
      ['2024-02-03T04:05:06Z', true],
      ['2024-02-03T04:05:06Z', true],
    ]);
    const now = formatLLMView(view(msg(ask('1'))), 'context-json')[1]!.timestamp;
    expect(Math.abs(Date.parse(now) - Date.now())).toBeLessThan(60_000);
    expect(now).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  });

  it('console: seed 001 emoji, finishing and posting tools, colour on request', () => {
    const text = msg(ask('1'), reply('2'), call('2.aaaa1', 'x', '', 'task_completion'), result('2.aaaa1.1', 'ok'), reply('3'), [
      '## %%% Call[^3.cccc3]',
      '',
      '[^3.cccc3]: [tool] name="postMessage"',
      '',
      '<tool>',
      '<tool_name>postMessage</tool_name>',
      '<arguments>',
      '  <text>Lunch?</text>',
      '</arguments>',
      '</tool>',
      '',
    ], result('3.cccc3.1', 'posted'));
    const out = formatLLMView(view(text), 'console');
    expect(out).toContain('🧠 System: You code.\n\n👤 User <@user> [Turn 0]\n> Question 1?\n\n🤖 Assistant coder [Turn 1]\n💬 Answer 2.');
    expect(out).toContain('✅ task_completion (path: x)\n   └─ Result: ok');
    expect(out).toContain('💬 postMessage:\n   "Lunch?"\n   └─ Result: posted');
    expect(out).not.toContain('\u001b[');
    expect(formatLLMView(view(text), 'console', { color: true })).toContain('\u001b[1m👤 User <@user> [Turn 0]\u001b[22m');
  });
});

describe('listAgents', () => {
  it('lists predefined and temporary agents, where each is the default and what each answered', () => {
    const text = file(
      ...FRONT,
      ...ask('1'),
      ...reply('2'),
      '[^fast]: [agent] models="gpt-4o-mini,gpt-4.1-nano" temperature=0.5 default=1',
      '',
      ...reply('3', 'Quick.', '', 'fast'),
      ...reply('4', 'Careful.', '', 'reviewer'),
    );
    const lines = text.split('\n');
    const fastLine = lines.findIndex((l) => l.startsWith('[^fast]')) + 1;
    const lastLine = lines.length - 1; // the text ends with a line break
    const listing = listAgents(doc(text), 'x.msg.md');
    expect(listing.file).toBe('x.msg.md');
    expect(listing.agents.map((a) => [a.name, a.kind, a.models, a.settings, a.default, a.answered.map((c) => c.id)])).toEqual([
      ['coder', 'predefined', ['gpt-4o'], { system_prompt: 'You code.' }, [{ fromLine: 1, toLine: fastLine - 1 }], ['2']],
      ['reviewer', 'predefined', ['gpt-4o-mini'], { system_prompt: 'You review.' }, [], ['4']],
      ['fast', 'temporary', ['gpt-4o-mini', 'gpt-4.1-nano'], { temperature: 0.5 }, [{ fromLine: fastLine, toLine: lastLine }], ['3']],
    ]);
    expect(fastLine).toBeGreaterThan(20);
  });

  it('lists the agents named by the configuration', () => {
    const d = parse(file('# %% Hi[^1]', '', '[^1]: [markdown]', '', 'Hi'), { fileName: 'x.msg.md', agents: ['bot'] });
    expect(listAgents(d).agents).toEqual([{ name: 'bot', kind: 'config', line: null, models: [], settings: {}, default: [], answered: [] }]);
  });
});

describe('toLLMView on text', () => {
  it('parses a text as the given file name', () => {
    const text = file('---', 'message_section: Discussion', '---', '', '# Notes', '', 'Text.', '', '# Discussion', '', '## %% [^1]', '', '[^1]: [markdown]', '', 'Is it right?');
    expect(shape(toLLMView(text, { fileName: 'notes.md' }).messages)).toEqual([['user', 'Is it right?']]);
  });
});

describe('line breaks', () => {
  it('exports a CRLF file as its LF twin (CDATA keeps its characters, so only they may hold a CR)', async () => {
    const { exampleText } = await import('./helpers.js');
    const text = exampleText('coding-session.msg.md');
    for (const to of ['openai', 'anthropic', 'context-json'] as const) {
      const lf = JSON.stringify(formatLLMView(toLLMView(text, { fileName: 'a.msg.md' }), to));
      const crlf = JSON.stringify(formatLLMView(toLLMView(text.replace(/\n/g, '\r\n'), { fileName: 'a.msg.md' }), to));
      expect(crlf.replace(/\\r/g, '')).toBe(lf);
    }
  });
});
