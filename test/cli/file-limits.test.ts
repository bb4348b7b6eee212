// Files msglint cannot lint as they are, through the command (issue 46,
// points 2 and 5): other encodings, bytes that are not text, files too
// large to lint, and files of millions of problems. Each is an answer
// (problems, an exit code), never a clean pass or an aborted process.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, makeTree, run, runJson } from './helpers.js';

afterAll(cleanupTempDirs);

// Made, not written out: no key-shaped literal in the repository.
const TOKEN = `glpat-${'Xy7wV3kQ9z'.repeat(2)}Ab`;
const WITH_SECRET = ['# %% Setup[^1]', '', '[^1]: [markdown]', '', `git remote set-url origin https://oauth2:${TOKEN}@gitlab.example.org/x.git`, ''].join('\n');

function utf16(text: string, little: boolean): Buffer {
  const bytes = Buffer.from(`\ufeff${text}`, 'utf16le');
  return little ? bytes : bytes.swap16();
}

describe('other encodings', () => {
  for (const little of [true, false]) {
    const name = little ? 'UTF-16LE' : 'UTF-16BE';
    it(`reads a ${name} file by its byte order mark: a secret in it fails the run`, () => {
      const dir = makeTree({ 'a.msg.md': utf16(WITH_SECRET, little) });
      const result = runJson([], { cwd: dir });
      expect(result.status).toBe(1);
      expect(result.reports[0]!.messages.map((m) => [m.ruleId, m.line])).toEqual([['secret', 5]]);
    });
  }

  it('writes a fixed UTF-16 file back in UTF-16, with its byte order mark', () => {
    const text = '#%% Hi[^1]\n\n[^1]: [markdown]\n\nHello.\n';
    const dir = makeTree({ 'a.msg.md': utf16(text, false) });
    expect(run(['--fix'], { cwd: dir }).status).toBe(0);
    expect(readFileSync(path.join(dir, 'a.msg.md'))).toEqual(utf16(text.replace('#%%', '# %%'), false));
  });

  it('reports bytes that are not UTF-8 at the first bad one, lints the rest, and fixes nothing', () => {
    const bytes = Buffer.concat([Buffer.from('#%% Hi[^1]\n\n[^1]: [markdown]\n\ncaf'), Buffer.from([0xe9]), Buffer.from(` ${TOKEN}\n`)]);
    const dir = makeTree({ 'a.msg.md': bytes });
    const result = runJson([], { cwd: dir });
    expect(result.status).toBe(1);
    expect(result.reports[0]!.messages.map((m) => [m.ruleId, m.line, m.column])).toEqual([
      ['cell-marker', 1, 1],
      ['file-encoding', 5, 4],
      ['secret', 5, 6],
    ]);
    const fixed = run(['--fix'], { cwd: dir });
    expect(fixed.stderr).toContain('a.msg.md: not valid UTF-8; linted, but fixes are not applied');
    expect(readFileSync(path.join(dir, 'a.msg.md'))).toEqual(bytes);
  });

  it('reports a binary file (a NUL in its first 8 KB) once, at 1:1, and lints nothing else in it', () => {
    const dir = makeTree({ 'a.msg.md': Buffer.from(`#%% Hi\0\n\n${TOKEN}\n`) });
    const result = runJson([], { cwd: dir });
    expect(result.status).toBe(1);
    expect(result.reports[0]!.messages).toMatchObject([{ ruleId: 'file-encoding', line: 1, column: 1, message: expect.stringContaining('binary') }]);
  });

  it('does not export what a file does not say', () => {
    const dir = makeTree({ 'a.msg.md': Buffer.concat([Buffer.from('# %% Hi[^1]\n\n[^1]: [markdown]\n\ncaf'), Buffer.from([0xe9, 0x0a])]) });
    const result = run(['export', 'a.msg.md', '--to', 'openai'], { cwd: dir });
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('msglint: a.msg.md: is not valid UTF-8 from line 5; not read\n');
  });
});

describe('files too large, and files of millions of problems', () => {
  it('reports a file of 20 MB of empty cells as too large, with one problem, without aborting', () => {
    const dir = makeTree({ 'a.msg.md': '# %%\n'.repeat(4 * 1024 * 1024) });
    const result = runJson([], { cwd: dir, timeout: 60_000 });
    expect(result.status).toBe(1);
    expect(result.reports[0]!.messages).toMatchObject([{ ruleId: 'file-too-large', severity: 2, line: 1, column: 1 }]);
    expect(result.reports[0]!.messages[0]!.message).toContain('more than 1,000,000 cell markers');
  });

  it('reports the first 1,000 problems of each rule, then one that counts the rest', () => {
    const dir = makeTree({ 'a.msg.md': '# %%\n'.repeat(3000) });
    const result = runJson([], { cwd: dir });
    const messages = result.reports[0]!.messages;
    for (const rule of ['empty-cell', 'cell-id-missing']) {
      const of = messages.filter((m) => m.ruleId === rule);
      expect(of).toHaveLength(1001);
      expect(of.slice(0, 1000).map((m) => m.line)).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
      expect(of[1000]).toMatchObject({ line: 1001, severity: 1, count: 2000, message: '2,000 more problems of this rule in this file, from here on, not shown: msglint reports the first 1,000 of each rule.' });
    }
    // The counts, and so --max-warnings, are those of every problem.
    expect(result.reports[0]!.warningCount).toBe(6000);
    expect(run(['--max-warnings', '5999'], { cwd: dir }).status).toBe(1);
    expect(run(['--max-warnings', '6000'], { cwd: dir }).stdout).toContain('✖ 6000 problems (0 errors, 6000 warnings)');
  });

  it('counts a metadata line of 300,000 repeated attributes as 1,000 problems and one more', () => {
    const dir = makeTree({ 'a.msg.md': `# %% Hi[^1]\n\n[^1]: [markdown] ${'a=1 '.repeat(300_000)}\n\nHello.\n` });
    const result = runJson([], { cwd: dir, timeout: 60_000 });
    expect(result.status).toBe(1);
    const messages = result.reports[0]!.messages;
    expect(messages).toHaveLength(1001);
    expect(messages[1000]).toMatchObject({ ruleId: 'duplicate-attribute', severity: 2, message: expect.stringMatching(/^298,999 more problems/) });
  });

  it('drops what disable comments suppress before it counts, so a problem after a thousand suppressed ones is shown', () => {
    const suppressed = `<!-- msglint-disable secret -->\n${`# %% x[^1]\n\n[^1]: [markdown]\n\n${TOKEN}\n\n`.repeat(1200)}<!-- msglint-enable secret -->\n`;
    const dir = makeTree({ 'a.msg.md': `${suppressed}# %% Last[^2]\n\n[^2]: [markdown]\n\n${TOKEN}\n` });
    const result = runJson(['--rule', 'duplicate-id:off', '--rule', 'metadata-unused:off'], { cwd: dir });
    expect(result.status).toBe(1);
    expect(result.reports[0]!.messages.map((m) => [m.ruleId, m.line])).toEqual([['secret', 1200 * 6 + 7]]);
  });

  it('fixes every fixable problem, those not shown too', () => {
    const dir = makeTree({ 'a.msg.md': '#%% Hi[^1]\n\n[^1]: [markdown]\n\nHello.\n'.replace('[^1]', '').repeat(1500) });
    run(['--fix', '--rule', 'cell-id-missing:off', '--rule', 'empty-cell:off'], { cwd: dir });
    const text = readFileSync(path.join(dir, 'a.msg.md'), 'utf8');
    expect(text.match(/^#%%/gm)).toBeNull();
    expect(text.match(/^# %%/gm)).toHaveLength(1500);
  });
});
