// `msglint export` and `msglint agents` as processes (run from dist/: build
// first with "npx tsc -p tsconfig.json"; npm test does it).

import { copyFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { STACK_FRAME, cleanupTempDirs, lines, makeTree, run } from '../cli/helpers.js';
import { FORMATS, ROOT, goldenPath } from './helpers.js';

afterAll(cleanupTempDirs);

const example = (name: string) => path.join(ROOT, 'examples', name);
const SPLIT = [
  '---',
  'agents:',
  '  coder:',
  '    models: [gpt-4o]',
  '---',
  '',
  '# %% Ask[^1]',
  '',
  '[^1]: [markdown]',
  '',
  'Read app.py.',
  '',
  '# %%% Plan[^2]',
  '',
  '[^2]: [coder]',
  '',
  'Reading it.',
  '',
  '## %%% Call[^2.k7f3q]',
  '',
  '[^2.k7f3q]: [tool] name="read_file"',
  '',
  '<tool>',
  '<tool_name>read_file</tool_name>',
  '<arguments>',
  '  <path>app.py</path>',
  '</arguments>',
  '</tool>',
  '',
  '## %%% Result[^2.k7f3q.1]',
  '',
  '[^2.k7f3q.1]: [tool] status="success" history=exclude',
  '',
  'print(1)',
  '',
].join('\n');

function expectUsageFailure(result: { status: number | null; stdout: string; stderr: string }, pattern: RegExp) {
  expect(result.status).toBe(2);
  expect(result.stdout).toBe('');
  const errorLines = lines(result.stderr);
  expect(errorLines).toHaveLength(1);
  expect(errorLines[0]).toMatch(/^msglint: /);
  expect(errorLines[0]).toMatch(pattern);
  expect(result.stderr).not.toMatch(STACK_FRAME);
}

describe('msglint export', () => {
  for (const format of FORMATS) {
    it(`writes the golden --to ${format} for an example`, () => {
      const result = run(['export', example('coding-session.msg.md'), '--to', format], { cwd: ROOT });
      // Reply 2 has a thinking paragraph, left out where the target has no place for it; the example
      // ends with a reviewer's reply: a prefill for Anthropic. Both said on stderr.
      const file = example('coding-session.msg.md');
      const why: Partial<Record<string, string>> = {
        openai: 'Chat Completions has no field for an earlier turn’s reasoning',
        anthropic: 'the Anthropic API takes an earlier turn’s thinking only as a thinking block with its signature, which a message file does not keep',
        'vercel-legacy': 'the AI SDK 3 messages have no place for reasoning',
      };
      const thinking = why[format] ? `msglint: ${file}:25: left out the thinking paragraph of 1 reply (cell 2): ${why[format]} (--thinking text sends it as text)\n` : '';
      const prefill = format === 'anthropic' ? `msglint: ${file}:110: the view ends with an assistant message, which the Anthropic API takes as a prefill to continue; several current models reject prefill\n` : '';
      const stderr = thinking + prefill;
      expect(result).toEqual({ status: 0, stdout: readFileSync(goldenPath('coding-session', format), 'utf8'), stderr });
    });
  }

  it('--thinking: a reply’s thinking left out by default where the target has no place for it, sent as text on request, kept apart elsewhere; said either way', () => {
    const THINKING = ['---', 'agents:', '  coder:', '    models: [gpt-4o]', '---', '', '# %% Ask[^1]', '', '[^1]: [markdown]', '', 'Fix it.', '', '# %%% Plan[^2]', '', '[^2]: [coder]', '', '[Read it first.]', '', 'Reading.', '', '# %%% Muse[^3]', '', '[^3]: [coder]', '', '[Nothing yet.]', ''].join('\n');
    const dir = makeTree({ 't.msg.md': THINKING });
    const omitted = run(['export', 't.msg.md', '--to', 'openai'], { cwd: dir });
    expect(omitted.status).toBe(0);
    expect(JSON.parse(omitted.stdout)).toEqual([
      { role: 'user', content: 'Fix it.' },
      { role: 'assistant', content: 'Reading.' },
    ]);
    expect(lines(omitted.stderr)).toEqual([
      'msglint: t.msg.md:13: left out the thinking paragraphs of 2 replies (cells 2, 3): Chat Completions has no field for an earlier turn’s reasoning (--thinking text sends them as text); the reply 3 held nothing else and is left out',
    ]);
    const text = run(['export', 't.msg.md', '--to', 'openai', '--thinking', 'text'], { cwd: dir });
    expect(JSON.parse(text.stdout).map((m: { content: string }) => m.content)).toEqual(['Fix it.', '[Read it first.]\n\nReading.', '[Nothing yet.]']);
    expect(lines(text.stderr)).toEqual(["msglint: t.msg.md:13: sent the thinking paragraphs of 2 replies (cells 2, 3) as text at the start of the assistant's content (--thinking text)"]);
    const vercel = run(['export', 't.msg.md', '--to', 'vercel'], { cwd: dir });
    expect(vercel.stderr).toBe('');
    expect(JSON.parse(vercel.stdout).messages[1].content[0]).toEqual({ type: 'reasoning', text: 'Read it first.' });
    expectUsageFailure(run(['export', 't.msg.md', '--to', 'openai', '--thinking', 'hide'], { cwd: dir }), /unknown --thinking mode 'hide' \(expected one of: omit, text\)/);
  });

  it('passes --agent, --until and --code-as-tool on', () => {
    const variants: [string, string[]][] = [
      ['coding-session.until-3', ['--until', '3']],
      ['coding-session.agent-reviewer', ['--agent=reviewer']],
      ['coding-session.code-as-tool', ['--code-as-tool']],
    ];
    for (const [golden, args] of variants) {
      const result = run(['export', example('coding-session.msg.md'), '--to', 'openai', ...args], { cwd: ROOT });
      expect(result.stdout).toBe(readFileSync(goldenPath(golden, 'openai'), 'utf8'));
      expect(result.status).toBe(0);
    }
  });

  it('refuses a file whose view is invalid, with the diagnostics and exit 1; --force exports anyway', () => {
    const dir = makeTree({ 'split.msg.md': SPLIT });
    const refused = run(['export', 'split.msg.md', '--to', 'openai'], { cwd: dir });
    expect(refused.status).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(/split\.msg\.md\n\s+32:\d+\s+error\s+This tool result is left out .* history-split-pair/);
    expect(lines(refused.stderr).at(-1)).toBe('msglint: split.msg.md: not exported: these problems make the LLM view invalid (fix them, or export anyway with --force)');
    const forced = run(['export', 'split.msg.md', '--to', 'openai', '--force'], { cwd: dir });
    expect(forced.status).toBe(0);
    expect(JSON.parse(forced.stdout).map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);
    expect(lines(forced.stderr)).toEqual([
      'msglint: split.msg.md: exported with 1 problem that makes the LLM view invalid (--force)',
      'msglint: split.msg.md:19: left out: the tool call 2.k7f3q has no result in the view',
    ]);
  });

  it('notes a running call it leaves out, and exits 0', () => {
    const dir = makeTree({ 'a.msg.md': SPLIT.replace(/## %%% Result[\s\S]*$/, '') });
    const result = run(['export', 'a.msg.md', '--to', 'anthropic'], { cwd: dir });
    expect(result.status).toBe(0);
    expect(lines(result.stderr)).toEqual([
      'msglint: a.msg.md:19: left out: the tool call 2.k7f3q has no result in the view',
      'msglint: a.msg.md:13: the view ends with an assistant message, which the Anthropic API takes as a prefill to continue; several current models reject prefill',
    ]);
  });

  it('reads standard input with "-", and writes to --output-file', () => {
    const dir = makeTree();
    const text = readFileSync(example('temporary-agents.msg.md'), 'utf8');
    const fromStdin = run(['export', '-', '--to', 'context-json'], { cwd: dir, input: text });
    expect(fromStdin).toEqual({ status: 0, stdout: readFileSync(goldenPath('temporary-agents', 'context-json'), 'utf8'), stderr: '' });
    copyFileSync(example('release-notes.md'), path.join(dir, 'notes.md'));
    const toFile = run(['export', 'notes.md', '--to', 'vercel', '-o', 'out/../notes.json'], { cwd: dir });
    expect(toFile).toEqual({ status: 0, stdout: '', stderr: '' });
    expect(readFileSync(path.join(dir, 'notes.json'), 'utf8')).toBe(readFileSync(goldenPath('release-notes', 'vercel'), 'utf8'));
  });

  it('colours the console format only when asked or on a terminal', () => {
    const file = example('temporary-agents.msg.md');
    expect(run(['export', file, '--to', 'console'], { cwd: ROOT }).stdout).not.toContain('\u001b[');
    expect(run(['export', file, '--to', 'console', '--color'], { cwd: ROOT }).stdout).toContain('\u001b[1m👤 User');
    expect(run(['export', file, '--to', 'console'], { cwd: ROOT, env: { FORCE_COLOR: '1' } }).stdout).toContain('\u001b[');
    expect(run(['export', file, '--to', 'openai', '--color'], { cwd: ROOT }).stdout).not.toContain('\u001b[');
  });

  it('prints its help', () => {
    const result = run(['export', '--help'], { cwd: ROOT });
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^Usage: msglint export FILE --to FORMAT/);
  });

  it('turns every mistake into one line and exit 2', () => {
    const dir = makeTree({ 'a.msg.md': readFileSync(example('coding-session.msg.md'), 'utf8'), 'plain.md': '# Plain\n' });
    expectUsageFailure(run(['export', 'a.msg.md'], { cwd: dir }), /needs --to FORMAT \(one of: openai, anthropic, vercel, vercel-legacy, context-json, console\)/);
    expectUsageFailure(run(['export', 'a.msg.md', '--to', 'gemini'], { cwd: dir }), /unknown export format 'gemini'/);
    expectUsageFailure(run(['export', '--to', 'openai'], { cwd: dir }), /needs a FILE/);
    expectUsageFailure(run(['export', 'a.msg.md', 'b.msg.md', '--to', 'openai'], { cwd: dir }), /takes one FILE/);
    expectUsageFailure(run(['export', 'missing.msg.md', '--to', 'openai'], { cwd: dir }), /^msglint: missing\.msg\.md: no such file or directory$/);
    expectUsageFailure(run(['export', 'plain.md', '--to', 'openai'], { cwd: dir }), /plain\.md: not a message file/);
    expectUsageFailure(run(['export', 'a.msg.md', '--to', 'openai', '--agent', 'nobody'], { cwd: dir }), /a\.msg\.md: no agent 'nobody' in the file/);
    expectUsageFailure(run(['export', 'a.msg.md', '--to', 'openai', '--until', '99'], { cwd: dir }), /no cell has the id '99'/);
    expectUsageFailure(run(['export', 'a.msg.md', '--to', 'openai', '--fix'], { cwd: dir }), /unknown option '--fix' for 'msglint export'/);
    expectUsageFailure(run(['export', 'a.msg.md', '--to'], { cwd: dir }), /option '--to' needs a value/);
  });
});

describe('msglint agents', () => {
  it('lists the agents as text', () => {
    const result = run(['agents', example('temporary-agents.msg.md')], { cwd: ROOT });
    expect(result.status).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(
      [
        'gpt-4o (temporary, line 5)',
        '  models:      gpt-4o',
        '  temperature: 0.3',
        '  default:     no',
        '  answered:    4 (line 27)',
        '',
        'fast (temporary, line 7)',
        '  models:   gpt-4o-mini, gpt-4.1-nano',
        '  default:  lines 7-32',
        '  answered: 2 (line 15)',
        '',
      ].join('\n'),
    );
  });

  it('lists them as JSON', () => {
    const result = run(['agents', 'examples/coding-session.msg.md', '--format', 'json'], { cwd: ROOT });
    expect(result.status).toBe(0);
    const listing = JSON.parse(result.stdout);
    expect(listing.file).toBe('examples/coding-session.msg.md');
    expect(listing.agents.map((a: { name: string; kind: string; default: unknown[]; answered: { id: string }[] }) => [a.name, a.kind, a.default.length, a.answered.map((c) => c.id)])).toEqual([
      ['coder', 'predefined', 1, ['2', '3']],
      ['reviewer', 'predefined', 0, ['6']],
    ]);
    expect(listing.agents[0].settings).toEqual({
      context_window: 128000,
      max_output_tokens: 4096,
      temperature: 0.2,
      system_prompt: 'You are a careful coding assistant. Read before you write.',
    });
  });

  it('turns mistakes into one line and exit 2', () => {
    expectUsageFailure(run(['agents'], { cwd: ROOT }), /needs a FILE/);
    expectUsageFailure(run(['agents', 'examples/coding-session.msg.md', '--format', 'xml'], { cwd: ROOT }), /--format text or json, got 'xml'/);
  });
});
