// Issue 17's bugs, each on a small file written for it
// (test/fixtures/export/bugs/): what each target sends, and what the CLI
// says on stderr. The CLI runs from dist/ (build first; npm test does it).

import { readFileSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  formatLLMView,
  toLLMView,
  viewBlockers,
  type AnthropicRequest,
  type ExportFormat,
  type ToLLMViewOptions,
} from '../../server/export/index.js';
import { lintDocument } from '../../server/linter.js';
import { parse } from '../../server/syntax/document.js';
import { cleanupTempDirs, lines, makeTree, run } from '../cli/helpers.js';
import { anthropicRules, anthropicRulesOf, ASSISTANT_FIRST, openaiRules, vercelRules } from './api-rules.js';
import { ROOT } from './helpers.js';

afterAll(cleanupTempDirs);

const BUGS = path.join(ROOT, 'test/fixtures/export/bugs');
const text = (name: string) => readFileSync(path.join(BUGS, name), 'utf8');
const doc = (name: string) => parse(text(name), { fileName: name });
const view = (name: string, options: ToLLMViewOptions = {}) => toLLMView(doc(name), options);
/** `msglint export bugs/NAME --to FORMAT ...`, run in the bugs folder. */
const cli = (name: string, to: ExportFormat, ...args: string[]) => run(['export', name, '--to', to, ...args], { cwd: BUGS });
const note = (name: string, line: number, message: string) => `msglint: ${name}:${line}: ${message}`;

describe('vercel: the current AI SDK ModelMessage shape', () => {
  const v = view('agents.msg.md');

  it('writes {system, messages} with tool-call and tool-result parts, reasoning for thinking', () => {
    const out = formatLLMView(view('mcp-servers.msg.md'), 'vercel');
    expect(out.messages.some((m) => (m.role as string) === 'system' || (m.role as string) === 'function')).toBe(false);
    // Parallel calls stay in one assistant message; their results in one tool message.
    expect(out.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(out.messages[2]).toEqual({
      role: 'tool',
      content: [
        { type: 'tool-result', toolCallId: '2_k7f3q', toolName: 'code-index__search', output: { type: 'text', value: 'src/auth.py:12: def login(user):' } },
        { type: 'tool-result', toolCallId: '2_m2x8w', toolName: 'github__search', output: { type: 'text', value: '#41 login fails with SSO' } },
        { type: 'tool-result', toolCallId: '2_p4a1x', toolName: 'search', output: { type: 'text', value: 'notes.md:3: login flow' } },
      ],
    });
    const think = formatLLMView(v, 'vercel').messages[1];
    expect(think).toEqual({ role: 'assistant', content: [{ type: 'reasoning', text: 'The file is short; reading it is enough.' }] });
  });

  it('sends an error result as error-text, and the system prompt beside the messages', () => {
    const out = formatLLMView(toLLMView(readFileSync(path.join(ROOT, 'test/fixtures/export/features.msg.md'), 'utf8')), 'vercel');
    expect(out.system).toBe('You are a careful coding assistant.');
    const results = out.messages.flatMap((m) => (m.role === 'tool' ? m.content : []));
    expect(results.find((r) => r.toolCallId === '2_q8b2y')?.output).toEqual({ type: 'error-text', value: 'Error: b.py: no such file' });
  });

  it('keeps seed 004 form as --to vercel-legacy', () => {
    const legacy = formatLLMView(view('raw-tool.msg.md'), 'vercel-legacy');
    expect(legacy.map((m) => m.role)).toEqual(['user', 'assistant', 'function', 'assistant']);
    expect(legacy[1]).toMatchObject({ function_call: { name: 'read_file', arguments: '{"path":"app.py"}' } });
  });
});

describe('openai: ids over 40 characters', () => {
  it('maps them to short, stable, unique ids, the same in the call and its result', () => {
    const out = formatLLMView(view('long-id.msg.md'), 'openai');
    const calls = out.flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []) : []));
    const ids = calls.map((c) => c.id);
    expect(ids).toEqual(['reading-the-configuration-file-_4244a8b5', 'reading-the-configuration-file-_484e392a']);
    for (const id of ids) expect(id.length).toBeLessThanOrEqual(40);
    expect(out.flatMap((m) => (m.role === 'tool' ? [m.tool_call_id] : []))).toEqual(ids);
    expect(openaiRules(out)).toEqual([]);
    // The same file gives the same ids.
    expect(formatLLMView(view('long-id.msg.md'), 'openai')).toEqual(out);
    // Ids that fit are sent as written.
    expect(formatLLMView(view('raw-tool.msg.md'), 'openai')[1]).toMatchObject({ tool_calls: [{ id: '2.k7f3q' }] });
  });

  it('shortens them for vercel too (the SDK forwards ids), and only sanitises them for anthropic', () => {
    const vercel = formatLLMView(view('long-id.msg.md'), 'vercel');
    expect(vercelRules(vercel)).toEqual([]);
    const anthropic = formatLLMView(view('long-id.msg.md'), 'anthropic') as AnthropicRequest;
    const uses = anthropic.messages.flatMap((m) => m.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : [])));
    expect(uses).toEqual(['reading-the-configuration-file-first_k7f3q9', 'reading-the-configuration-file-first_m2x8w4']);
  });
});

describe('tool names outside ^[a-zA-Z0-9_-]{1,64}$', () => {
  it('are reported by tool-name-syntax and make the view invalid for the API targets only', () => {
    const d = doc('tool-name.msg.md');
    const diagnostics = lintDocument(d);
    expect(diagnostics.map((x) => [x.ruleId, x.severity])).toEqual([['tool-name-syntax', 1]]);
    expect(diagnostics[0]!.message).toContain('^[a-zA-Z0-9_-]{1,64}$');
    const v = toLLMView(d);
    for (const to of ['openai', 'anthropic', 'vercel', 'vercel-legacy'] as const) {
      expect(viewBlockers(d, v, diagnostics, to).map((x) => [x.ruleId, x.range.start.line + 1])).toEqual([['tool-name-syntax', 25]]);
    }
    for (const to of ['context-json', 'console'] as const) expect(viewBlockers(d, v, diagnostics, to)).toEqual([]);
    expect(viewBlockers(d, v, diagnostics)).toEqual([]);
  });

  it('are refused by the CLI, and with --force mapped to a valid name said on stderr', () => {
    const refused = cli('tool-name.msg.md', 'openai');
    expect(refused.status).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(/25:12\s+error\s+The tool name `github\.create issue` does not match .*sent as `github_create_issue`.*tool-name-syntax/);
    const forced = cli('tool-name.msg.md', 'openai', '--force');
    expect(forced.status).toBe(0);
    expect(JSON.parse(forced.stdout)[1].tool_calls[0].function.name).toBe('github_create_issue');
    expect(lines(forced.stderr)).toEqual([
      'msglint: tool-name.msg.md: exported with 1 problem that makes the LLM view invalid (--force)',
      note('tool-name.msg.md', 20, 'the tool `github.create issue` is sent as `github_create_issue`: the API takes only names matching `^[a-zA-Z0-9_-]{1,64}$`'),
    ]);
    // context-json keeps the name: nothing sends it to an API.
    const context = cli('tool-name.msg.md', 'context-json');
    expect(context.status).toBe(0);
    expect(JSON.parse(context.stdout)[2].content.toolCall).toBe('github.create issue');
  });
});

describe('anthropic: a view that opens with an assistant message is sent as it is; a final assistant message is a prefill', () => {
  it('makes up no user message before a view that opens with an agent reply, and says so (issue 47)', () => {
    const out = formatLLMView(view('opens-with-reply.msg.md'), 'anthropic');
    expect(out.messages.map((m) => m.role)).toEqual(['assistant', 'user', 'assistant']);
    expect(anthropicRules(out)).toEqual([ASSISTANT_FIRST]);
    expect(anthropicRulesOf(view('opens-with-reply.msg.md'))).toEqual([]);
    // The other targets take an assistant message first: nothing is added.
    expect(formatLLMView(view('opens-with-reply.msg.md'), 'openai').map((m) => m.role)).toEqual(['system', 'assistant', 'user', 'assistant']);
    const result = cli('opens-with-reply.msg.md', 'anthropic');
    expect(result.status).toBe(0);
    expect(lines(result.stderr)).toEqual([
      note('opens-with-reply.msg.md', 10, 'the view opens with an assistant message, and no user message is made up before it: the Anthropic API has refused a conversation that does not open with the user (\"first message must use the user role\"); add a message cell before it if yours does'),
      note('opens-with-reply.msg.md', 22, 'the view ends with an assistant message, which the Anthropic API takes as a prefill to continue; several current models reject prefill'),
    ]);
    expect(cli('opens-with-reply.msg.md', 'openai').stderr).toBe('');
  });

  it('does the same for a --code-as-tool view that opens with a code cell', () => {
    const out = formatLLMView(view('opens-with-code.msg.md', { codeAsTool: true }), 'anthropic');
    expect(out.messages.map((m) => [m.role, m.content.map((b) => b.type).join()])).toEqual([
      ['assistant', 'tool_use'],
      ['user', 'tool_result,text'],
    ]);
    expect(anthropicRulesOf(view('opens-with-code.msg.md', { codeAsTool: true }))).toEqual([]);
    expect(lines(cli('opens-with-code.msg.md', 'anthropic', '--code-as-tool').stderr)).toEqual([
      note('opens-with-code.msg.md', 8, 'the view opens with an assistant message, and no user message is made up before it: the Anthropic API has refused a conversation that does not open with the user (\"first message must use the user role\"); add a message cell before it if yours does'),
    ]);
    // Without --code-as-tool the code cell is the user's: nothing to add.
    expect(formatLLMView(view('opens-with-code.msg.md'), 'anthropic').messages[0]!.content[0]).toMatchObject({ type: 'text', text: '```python\nprint(2 + 2)\n```' });
  });
});

describe('--code-as-tool: a code cell with no output', () => {
  it('is left out like a call without a result, text included, in every target, and stderr says so', () => {
    const v = view('code-no-output.msg.md', { codeAsTool: true });
    expect(v.omitted.map((o) => [o.cell, o.reason])).toEqual([['2', 'no-result']]);
    const all = JSON.stringify([formatLLMView(v, 'openai'), formatLLMView(v, 'anthropic'), formatLLMView(v, 'vercel'), formatLLMView(v, 'context-json')]);
    expect(all).not.toContain('pip install');
    expect(all).not.toContain('Install the deps first');
    expect(all).toContain('pytest -q');
    const result = cli('code-no-output.msg.md', 'openai', '--code-as-tool');
    expect(result.status).toBe(0);
    expect(lines(result.stderr)).toEqual([note('code-no-output.msg.md', 14, 'left out: the code cell 2 has no output in the view, and as a code_execution call it needs one')]);
    // Without --code-as-tool it is a user message like any code cell.
    expect(JSON.stringify(formatLLMView(view('code-no-output.msg.md'), 'openai'))).toContain('pip install');
  });

  it('takes the text of a tool call left out with it', () => {
    const running = text('raw-tool.msg.md').replace(/## %%% \[\^2\.k7f3q\.1\][\s\S]*?(?=# %%% Explain)/, '');
    const v = toLLMView(running);
    expect(v.omitted.map((o) => o.cell)).toEqual(['2.k7f3q']);
    expect(v.messages[1]).toMatchObject({ role: 'assistant', content: 'I will read it.\n\nThen I can answer.' });
    expect(v.messages[1]!.toolCalls).toBeUndefined();
  });
});

describe('a raw <tool> in a reply that also has its tool call cell', () => {
  it('is sent once, as the structured call; a raw element without a call cell stays text', () => {
    const v = view('raw-tool.msg.md');
    expect(v.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'Read app.py.'],
      ['assistant', 'I will read it.\n\nThen I can answer.'],
      ['tool', 'print(1)'],
      ['assistant', 'A call written as text, with no tool call cell, is only text:\n<tool><tool_name>run_tests</tool_name></tool>'],
    ]);
    expect(v.messages[1]!.toolCalls!.map((c) => c.function.name)).toEqual(['read_file']);
    for (const to of ['openai', 'anthropic', 'vercel', 'vercel-legacy'] as const) {
      expect(JSON.stringify(formatLLMView(v, to)).match(/<tool_name>read_file/g), to).toBeNull();
    }
  });

  it('stays out when its call cell is left out of the view too', () => {
    const excluded = text('raw-tool.msg.md')
      .replace('[^2.k7f3q]: [tool] name="read_file"', '[^2.k7f3q]: [tool] name="read_file" history=exclude')
      .replace('[^2.k7f3q.1]: [tool] status="success"', '[^2.k7f3q.1]: [tool] status="success" history=exclude');
    const v = toLLMView(excluded);
    expect(v.messages[1]).toEqual(expect.objectContaining({ role: 'assistant', content: 'I will read it.\n\nThen I can answer.' }));
    expect(v.messages[1]!.toolCalls).toBeUndefined();
  });
});

describe('server_name', () => {
  it('goes into the name, SERVER__NAME, only for a name that two servers share', () => {
    const v = view('mcp-servers.msg.md');
    for (const to of ['openai', 'anthropic', 'vercel'] as const) {
      const names = [...JSON.stringify(formatLLMView(v, to)).matchAll(/"(?:name|toolName)":"([^"]+)"/g)].map((m) => m[1]);
      expect(new Set(names), to).toEqual(new Set(['code-index__search', 'github__search', 'search']));
    }
    expect(formatLLMView(v, 'context-json').flatMap((e) => (typeof e.content === 'object' && 'toolCall' in e.content ? [e.content.toolCall] : []))).toEqual([
      'code-index__search',
      'github__search',
      'search',
    ]);
    // One server per name: names as written, the server not sent.
    const features = toLLMView(readFileSync(path.join(ROOT, 'test/fixtures/export/features.msg.md'), 'utf8'));
    expect(JSON.stringify(formatLLMView(features, 'openai'))).toContain('"name":"search"');
    const result = cli('mcp-servers.msg.md', 'openai');
    expect(lines(result.stderr)).toEqual([
      note('mcp-servers.msg.md', 20, 'the tool `search` of the server `code-index` is sent as `code-index__search`: the view has tools of that name from more than one server'),
      note('mcp-servers.msg.md', 32, 'the tool `search` of the server `github` is sent as `github__search`: the view has tools of that name from more than one server'),
    ]);
  });
});

describe('context-json timestamps', () => {
  it('are the cell’s own time, or marked as estimated: the time of the cell before, else the first time', () => {
    const entries = formatLLMView(view('times.msg.md'), 'context-json');
    expect(entries.map((e) => [e.timestamp, e.timestampEstimated ?? false])).toEqual([
      ['2025-05-30T01:00:00Z', true],
      ['2025-05-30T01:00:00Z', false],
      ['2025-05-30T01:00:00Z', true],
      ['2025-05-30T01:05:00Z', false],
    ]);
  });

  it('take the file’s modification time in a file without any time', () => {
    const dir = makeTree({ 'a.msg.md': text('no-times.msg.md') });
    utimesSync(path.join(dir, 'a.msg.md'), new Date('2024-03-04T05:06:07Z'), new Date('2024-03-04T05:06:07Z'));
    const result = run(['export', 'a.msg.md', '--to', 'context-json'], { cwd: dir });
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout).map((e: { timestamp: string; timestampEstimated?: boolean }) => [e.timestamp, e.timestampEstimated])).toEqual([
      ['2024-03-04T05:06:07Z', true],
      ['2024-03-04T05:06:07Z', true],
    ]);
  });
});

describe('console', () => {
  const out = formatLLMView(view('agents.msg.md', { codeAsTool: true }), 'console');

  it('gives a reply with thinking only its 💬 line, saying so, and no empty one', () => {
    expect(out).toContain('🤖 Assistant reviewer [Turn 1]\n💬 (thinking only)\n   └─ Reason: The file is short; reading it is enough.\n\n');
    expect(out).not.toMatch(/💬 *\n/);
  });

  it('gives every user and assistant block its 🕐, and every assistant block one 🔧/💬/✅ line (seed 001)', () => {
    // An agent's second block, code outputs and summarised cells included (features.msg.md has each, and times).
    const timed = formatLLMView(toLLMView(readFileSync(path.join(ROOT, 'test/fixtures/export/features.msg.md'), 'utf8')), 'console');
    const blocks = (text: string) => text.split('\n\n').filter((b) => /^(👤|🤖)/.test(b));
    for (const block of blocks(timed)) expect(block.split('\n')[1], block).toMatch(/^🕐 \d{4}-\d\d-\d\dT/);
    for (const block of [...blocks(timed), ...blocks(out)].filter((b) => b.startsWith('🤖'))) {
      expect(block.split('\n').filter((l) => /^(🔧|💬|✅) /.test(l)), block).toHaveLength(1);
    }
    // A conversation without any time has none to show: no 🕐 made of the export's clock.
    expect(out).not.toContain('🕐');
  });

  it('names the agent on every assistant entry: calls take their reply’s, a code cell the default agent', () => {
    const heads = out.split('\n').filter((l) => l.startsWith('🤖'));
    expect(heads).toEqual([
      '🤖 Assistant reviewer [Turn 1]',
      '🤖 Assistant reviewer [Turn 1]',
      '🤖 Assistant reviewer [Turn 1]',
      '🤖 Assistant reviewer [Turn 1]',
      '🤖 Assistant coder [Turn 1]',
    ]);
  });

  it('shows each entry’s time: the cell’s own, or the one context-json estimates from the cells before', () => {
    const times = formatLLMView(view('times.msg.md'), 'console');
    expect(times.match(/🕐 .*/g)).toEqual(['🕐 2025-05-30T01:00:00Z', '🕐 2025-05-30T01:00:00Z', '🕐 2025-05-30T01:00:00Z', '🕐 2025-05-30T01:05:00Z']);
  });
});
