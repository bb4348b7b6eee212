// `msglint import` as a process: the format named on stderr, one line per
// kind of thing left out, -o written (its folder made) and never over an
// existing file without --force, --redact, and bad input as one line with
// exit code 2.

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, makeTree, run } from '../cli/helpers.js';

afterAll(cleanupTempDirs);

const OPENAI = JSON.stringify([
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: [{ type: 'text', text: 'What is on the picture?' }, { type: 'image_url', image_url: { url: 'https://example.com/a.png' } }] },
  { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'look', arguments: '{"n":1}' } }] },
  { role: 'tool', tool_call_id: 'call_1', content: 'a cat' },
  { role: 'assistant', content: 'A cat.' },
]);

describe('msglint import', () => {
  it('writes the message file on stdout, names the format it recognised and what it left out on stderr', () => {
    const dir = makeTree({ 'chat.json': OPENAI });
    const r = run(['import', 'chat.json'], { cwd: dir });
    expect(r.status).toBe(0);
    expect(r.stderr.split('\n').filter(Boolean)).toEqual(['msglint: chat.json: read as openai', 'msglint: chat.json: dropped 1 image part (message 2)']);
    expect(r.stdout).toContain('system_prompt: Be brief.');
    expect(r.stdout).toContain('[tool] name="look" call_id="call_1"');
    expect(r.stdout).toContain('<n type="number">1</n>');
    const lint = run(['--stdin', '--stdin-filename', 'chat.msg.md'], { cwd: dir, input: r.stdout });
    expect(lint.status).toBe(0);
    expect(lint.stdout).toBe('');
  });

  it('reads standard input; with --from it does not guess', () => {
    const dir = makeTree();
    const r = run(['import', '-', '--from', 'openai'], { cwd: dir, input: '[{"role":"user","content":"hi"}]' });
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/\n# %% \[\^1\]\n\n\[\^1\]: \[markdown\]\n\nhi\n$/);
  });

  it('writes -o atomically, making its folder, and refuses to overwrite it without --force', () => {
    const dir = makeTree({ 'chat.json': OPENAI });
    const out = path.join(dir, 'new/folder/chat.msg.md');
    expect(run(['import', 'chat.json', '-o', 'new/folder/chat.msg.md'], { cwd: dir }).status).toBe(0);
    const first = readFileSync(out, 'utf8');
    expect(first).toContain('A cat.');
    const again = run(['import', '-', '-o', 'new/folder/chat.msg.md'], { cwd: dir, input: '[{"role":"user","content":"other"}]' });
    expect(again.status).toBe(2);
    expect(again.stderr).toBe('msglint: new/folder/chat.msg.md: exists; give --force to overwrite it\n');
    expect(readFileSync(out, 'utf8')).toBe(first);
    const forced = run(['import', '-', '-o', 'new/folder/chat.msg.md', '--force'], { cwd: dir, input: '[{"role":"user","content":"other"}]' });
    expect(forced.status).toBe(0);
    expect(readFileSync(out, 'utf8')).toContain('other');
    expect(existsSync(path.join(dir, 'new/folder')) && readFileSync(out, 'utf8').includes('msglint-tmp')).toBe(false);
  });

  it('--redact replaces credentials', () => {
    const dir = makeTree();
    const token = `ghp_${'aB3dE5fG7h'.repeat(3)}K9mN2p`;
    const input = JSON.stringify([{ role: 'user', content: `my token is ${token}` }]);
    const plain = run(['import', '-'], { cwd: dir, input });
    expect(plain.stdout).toContain(token);
    const r = run(['import', '-', '--redact'], { cwd: dir, input });
    expect(r.status).toBe(0);
    expect(r.stdout).not.toContain(token);
    expect(r.stdout).toContain('[REDACTED:');
  });

  it.each([
    ['not JSON', 'nope', /^msglint: <stdin>: not JSON: .+\n$/],
    ['an unknown shape', '{"a":1}', /^msglint: <stdin>: not a conversation of a known shape \(give --from FORMAT\)\n$/],
    ['a role no format has', '[{"role":"user","content":"x"},{"role":"robot","content":"y"}]', /^msglint: <stdin>: message 2 has the role "robot", which this format does not have\n$/],
  ])('bad input (%s): one line on stderr, exit 2', (_, input, line) => {
    const r = run(['import', '-'], { cwd: makeTree(), input });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(line);
    expect(r.stdout).toBe('');
  });

  it('arguments deeper than a message file holds, input nested thousands deep: one line, exit 2, never an internal error (issue 46)', () => {
    const call = (input: string) =>
      `{"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"f","input":${input}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]}]}`;
    const deep = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
    const dir = makeTree({ 'hundreds.json': call(deep(300)), 'thousands.json': call(deep(5_000)) });
    const hundreds = run(['import', 'hundreds.json'], { cwd: dir });
    expect(hundreds.status).toBe(2);
    expect(hundreds.stderr).toBe(
      'msglint: hundreds.json: message 2: the call "f": the arguments are nested more than 256 levels deep, more than a message file holds (spec section 8)\n',
    );
    expect(hundreds.stdout).toBe('');
    const thousands = run(['import', 'thousands.json'], { cwd: dir });
    expect(thousands.status).toBe(2);
    expect(thousands.stderr).toBe('msglint: thousands.json: nested more than 1000 levels deep: msglint imports JSON nested at most that deep\n');
  });

  it('an OpenAI call whose arguments are nested a few hundred deep: its text kept, the file lints clean, export sends the text (issue 46)', () => {
    const args = '{"a":'.repeat(300) + '1' + '}'.repeat(300);
    const input = JSON.stringify([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: args } }] },
      { role: 'tool', tool_call_id: 'call_1', content: 'ok' },
    ]);
    const dir = makeTree({ 'chat.json': input });
    expect(run(['import', 'chat.json', '-o', 'chat.msg.md'], { cwd: dir }).status).toBe(0);
    const lint = run(['chat.msg.md'], { cwd: dir });
    expect(lint.stdout).toBe('');
    expect(lint.status).toBe(0);
    const exported = run(['export', 'chat.msg.md', '--to', 'openai'], { cwd: dir });
    expect(exported.status).toBe(0);
    expect((JSON.parse(exported.stdout) as { tool_calls?: { function: { arguments: string } }[] }[])[1]!.tool_calls![0]!.function.arguments).toBe(args);
  });

  it('usage errors: exit 2, one line', () => {
    const dir = makeTree();
    expect(run(['import'], { cwd: dir }).stderr).toBe("msglint: 'msglint import' needs a FILE, or - for standard input (see msglint import --help)\n");
    const r = run(['import', '-', '--from', 'gemini'], { cwd: dir, input: '[]' });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('msglint: unknown import format \'gemini\' (expected one of: openai, anthropic, vercel, vercel-legacy, context-json, dexto, forge)\n');
    const missing = run(['import', 'missing.json'], { cwd: dir });
    expect(missing.status).toBe(2);
    expect(missing.stderr.split('\n').filter(Boolean)).toHaveLength(1);
  });

  it('--help', () => {
    const r = run(['import', '--help'], { cwd: makeTree() });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Usage: msglint import FILE [options]');
  });
});
