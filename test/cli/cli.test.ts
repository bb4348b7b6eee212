// The CLI as a process: exit codes, usage errors, file discovery, stdin,
// --output-file. Nothing here depends on what the rules report: the files
// are either clean or only their presence in the JSON report matters.

import { chmodSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  CELL_MARKER,
  CLEAN,
  DISCUSSION,
  PLAIN,
  STACK_FRAME,
  cleanupTempDirs,
  lines,
  linted,
  makeTree,
  run,
  runJson,
  runUnprivileged,
  whyNotUnprivileged,
} from './helpers.js';

afterAll(cleanupTempDirs);

/** Asserts the shape of every failure: exit 2, nothing on stdout, one "msglint: " line on stderr. */
function expectUsageFailure(result: { status: number | null; stdout: string; stderr: string }, pattern: RegExp) {
  expect(result.status).toBe(2);
  expect(result.stdout).toBe('');
  const errorLines = lines(result.stderr);
  expect(errorLines).toHaveLength(1);
  expect(errorLines[0]).toMatch(/^msglint: /);
  expect(errorLines[0]).toMatch(pattern);
  expect(result.stderr).not.toMatch(STACK_FRAME);
}

describe('exit codes and usage', () => {
  it('exits 2, saying so, when there is nothing to lint (as ESLint), 0 with --no-error-on-unmatched-pattern', () => {
    const dir = makeTree({ 'README.md': PLAIN, 'notes.txt': 'hello' });
    const line = 'msglint: .: no message file found (1 Markdown file, not a message file)';
    expect(run([], { cwd: dir })).toEqual({ status: 2, stdout: '', stderr: `${line}\n` });
    expect(run(['--no-error-on-unmatched-pattern'], { cwd: dir })).toEqual({ status: 0, stdout: '', stderr: `${line}; skipped\n` });
  });

  it('exits 0 without output for clean message files', () => {
    const dir = makeTree({ 'a.msg.md': CLEAN, 'docs/b.msg.md': CLEAN });
    expect(run([], { cwd: dir })).toEqual({ status: 0, stdout: '', stderr: '' });
  });

  it('prints the version from package.json', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    const dir = makeTree();
    expect(run(['--version'], { cwd: dir })).toEqual({ status: 0, stdout: `${pkg.version}\n`, stderr: '' });
    expect(run(['-v'], { cwd: dir }).stdout).toBe(`${pkg.version}\n`);
  });

  it('prints help on --help', () => {
    const result = run(['--help'], { cwd: makeTree() });
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^Usage: msglint/);
    expect(result.stdout).toContain('--max-warnings');
  });

  it.each([
    [['--bogus'], /unknown option '--bogus'/],
    [['-x'], /unknown option '-x'/],
    [['--format'], /'--format' needs a value/],
    [['--format', 'xml'], /unknown format 'xml'/],
    [['--format=yaml'], /unknown format 'yaml'/],
    [['--max-warnings', 'many'], /--max-warnings expects a whole number/],
    [['--max-warnings', '-3'], /--max-warnings/],
    [['--fix', '--fix-dry-run'], /--fix and --fix-dry-run/],
    [['--stdin', 'a.msg.md'], /--stdin cannot be combined with paths/],
    [['--stdin-filename', 'a.msg.md'], /--stdin-filename requires --stdin/],
    [['--quiet=yes'], /'--quiet' does not take a value/],
    [['--rule', 'no-such-rule:off'], /unknown rule 'no-such-rule'/],
    [['--rule', 'cell-marker'], /--rule expects RULE:off\|warn\|error/],
    [['--rule', 'cell-marker:loud'], /--rule expects/],
    [['rules', '--fix'], /does not apply to 'msglint rules'/],
    [['rules', '--format', 'sarif'], /'msglint rules' supports --format text or json/],
    [['rules', 'extra'], /takes no arguments/],
  ])('rejects %j with exit 2 and one line', (args, pattern) => {
    const dir = makeTree({ 'a.msg.md': CLEAN });
    expectUsageFailure(run(args, { cwd: dir }), pattern);
  });

  it('reports a path that does not exist, still lints the others, and exits 2', () => {
    const dir = makeTree({ 'a.msg.md': CLEAN });
    const result = runJson(['missing.msg.md', 'a.msg.md'], { cwd: dir });
    expect(result.status).toBe(2);
    expect(lines(result.stderr)).toEqual(['msglint: missing.msg.md: no such file or directory']);
    expect(linted(result.reports, dir)).toEqual(['a.msg.md']);
  });

  it('reports a glob that matches nothing with exit 2', () => {
    const dir = makeTree({ 'a.msg.md': CLEAN });
    const result = run(['docs/**/*.msg.md'], { cwd: dir });
    expect(result.status).toBe(2);
    expect(lines(result.stderr)).toEqual(["msglint: docs/**/*.msg.md: no files match this pattern"]);
  });

  it('reports an unreadable file and an unreadable directory with exit 2', (context) => {
    const dir = makeTree({ 'a.msg.md': CLEAN, 'locked.msg.md': CLEAN, 'closed/b.msg.md': CLEAN });
    chmodSync(dir, 0o755);
    chmodSync(path.join(dir, 'locked.msg.md'), 0o000);
    chmodSync(path.join(dir, 'closed'), 0o000);
    try {
      const result = runUnprivileged(['--format', 'json'], { cwd: dir });
      if (!result) return context.skip(whyNotUnprivileged());
      expect(result.status).toBe(2);
      expect(lines(result.stderr).sort()).toEqual([
        'msglint: closed: permission denied',
        'msglint: locked.msg.md: permission denied',
      ]);
      expect(linted(JSON.parse(result.stdout), dir)).toEqual(['a.msg.md']);
    } finally {
      chmodSync(path.join(dir, 'closed'), 0o755);
    }
  });

  it('reports paths that cannot be read as files with exit 2', () => {
    const dir = makeTree({ 'a.msg.md': CLEAN });
    const result = run(['a.msg.md/inside.msg.md', '/dev/null', 'a.msg.md'], { cwd: dir });
    expect(result.status).toBe(2);
    expect(lines(result.stderr)).toEqual([
      'msglint: a.msg.md/inside.msg.md: not a directory',
      'msglint: /dev/null: not a regular file',
    ]);
  });

  it('lists the rules, as text and as JSON', () => {
    const dir = makeTree();
    const text = run(['rules'], { cwd: dir });
    expect(text.status).toBe(0);
    expect(text.stdout.split('\n')[0]).toMatch(/^RULE\s+GROUP\s+SEVERITY\s+FIXABLE\s+DOCS$/);
    const json = run(['rules', '--format', 'json'], { cwd: dir });
    expect(json.status).toBe(0);
    const rules = JSON.parse(json.stdout) as Record<string, unknown>[];
    expect(Array.isArray(rules)).toBe(true);
    for (const rule of rules) {
      expect(Object.keys(rule).sort()).toEqual(['description', 'docs', 'fixable', 'group', 'id', 'severity']);
    }
    // Every rule in the JSON is a row of the table.
    for (const rule of rules) expect(text.stdout).toMatch(new RegExp(`^${rule.id as string}\\s`, 'm'));
  });
});

describe('file discovery', () => {
  it('finds *.msg.md and message-section .md files recursively, skipping other files', () => {
    const dir = makeTree({
      'a.msg.md': CLEAN,
      'notes.md': PLAIN,
      'review.md': DISCUSSION,
      'deep/er/still/b.msg.md': CLEAN,
      'deep/c.txt': CLEAN,
      'deep/d.msg.markdown': CLEAN,
    });
    const result = runJson([], { cwd: dir });
    expect(result.status).toBe(0);
    expect(result.stderr).toBe('');
    expect(linted(result.reports, dir)).toEqual(['a.msg.md', 'deep/er/still/b.msg.md', 'review.md']);
    for (const report of result.reports) expect(path.isAbsolute(report.filePath)).toBe(true);
  });

  it('says that an explicitly named ordinary .md file is not a message file (exit 2) and lints a named message-section file', () => {
    const dir = makeTree({ 'notes.md': PLAIN, 'review.md': DISCUSSION });
    const result = runJson(['notes.md', 'review.md'], { cwd: dir });
    expect(result.status).toBe(2);
    expect(result.stderr).toBe('msglint: notes.md: not a message file (a *.msg.md file, or a *.md file whose frontmatter declares message_section)\n');
    expect(linted(result.reports, dir)).toEqual(['review.md']);
  });

  it('expands globs', () => {
    const dir = makeTree({
      'a.msg.md': CLEAN,
      'docs/b.msg.md': CLEAN,
      'docs/deep/c.msg.md': CLEAN,
      'other/d.msg.md': CLEAN,
    });
    expect(linted(runJson(['docs/**/*.msg.md'], { cwd: dir }).reports, dir)).toEqual([
      'docs/b.msg.md',
      'docs/deep/c.msg.md',
    ]);
    expect(linted(runJson(['./*.msg.md'], { cwd: dir }).reports, dir)).toEqual(['a.msg.md']);
    expect(linted(runJson([path.join(dir, 'other', '*.msg.md')], { cwd: dir }).reports, dir)).toEqual(['other/d.msg.md']);
  });

  it('prefers an existing file over reading its name as a glob', () => {
    const dir = makeTree({ '[draft].msg.md': CLEAN, 'd.msg.md': CLEAN });
    expect(linted(runJson(['[draft].msg.md'], { cwd: dir }).reports, dir)).toEqual(['[draft].msg.md']);
  });

  it('always skips node_modules and .git', () => {
    const dir = makeTree({
      'a.msg.md': CLEAN,
      'node_modules/pkg/b.msg.md': CLEAN,
      'sub/node_modules/c.msg.md': CLEAN,
      '.git/d.msg.md': CLEAN,
    });
    expect(linted(runJson([], { cwd: dir }).reports, dir)).toEqual(['a.msg.md']);
  });

  it('honours .gitignore files, nested ones for their own directory', () => {
    const dir = makeTree({
      '.gitignore': 'build/\n*.draft.msg.md\n',
      'a.msg.md': CLEAN,
      'a.draft.msg.md': CLEAN,
      'build/b.msg.md': CLEAN,
      'sub/.gitignore': 'local.msg.md\n!keep.draft.msg.md\n',
      'sub/local.msg.md': CLEAN,
      'sub/keep.draft.msg.md': CLEAN,
      'sub/other.draft.msg.md': CLEAN,
      'sub/e.msg.md': CLEAN,
      'other/local.msg.md': CLEAN,
    });
    expect(linted(runJson([], { cwd: dir }).reports, dir)).toEqual([
      'a.msg.md',
      'other/local.msg.md',
      'sub/e.msg.md',
      'sub/keep.draft.msg.md',
    ]);
    // The same rules hold when a subdirectory or a file is named explicitly.
    expect(linted(runJson(['sub'], { cwd: dir }).reports, dir)).toEqual(['sub/e.msg.md', 'sub/keep.draft.msg.md']);
    expect(runJson(['build/b.msg.md', 'sub/local.msg.md'], { cwd: dir }).reports).toEqual([]);
  });

  it('uses .gitignore files from the repository root when run in a subdirectory', () => {
    const dir = makeTree({ '.gitignore': 'generated/\n', 'pkg/generated/a.msg.md': CLEAN, 'pkg/b.msg.md': CLEAN });
    mkdirSync(path.join(dir, '.git'));
    expect(linted(runJson([], { cwd: path.join(dir, 'pkg') }).reports, dir)).toEqual(['pkg/b.msg.md']);
  });

  it('walks symlinked directories once and does not loop', () => {
    const dir = makeTree({ 'real/a.msg.md': CLEAN });
    symlinkSync(path.join(dir, 'real'), path.join(dir, 'alias'), 'dir');
    symlinkSync(dir, path.join(dir, 'real', 'loop'), 'dir');
    symlinkSync(path.join(dir, 'nowhere'), path.join(dir, 'dangling.msg.md'));
    const result = runJson([], { cwd: dir });
    expect(result.status).toBe(0);
    expect(result.reports).toHaveLength(1);
  });

  it('lints a file named twice once', () => {
    const dir = makeTree({ 'a.msg.md': CLEAN, 'docs/b.msg.md': CLEAN });
    expect(runJson(['a.msg.md', '.', './a.msg.md'], { cwd: dir }).reports).toHaveLength(2);
    const overlapping = runJson(['.', 'docs/*.msg.md', 'docs'], { cwd: dir });
    expect(overlapping.status).toBe(0);
    expect(linted(overlapping.reports, dir)).toEqual(['a.msg.md', 'docs/b.msg.md']);
  });
});

describe('standard input', () => {
  it('lints standard input as a message file', () => {
    const dir = makeTree();
    const result = runJson(['--stdin'], { cwd: dir, input: CLEAN });
    expect(result.status).toBe(0);
    expect(result.reports).toHaveLength(1);
    expect(result.reports[0]!.filePath).toBe('<stdin>');
    expect(run(['--stdin'], { cwd: dir, input: CLEAN })).toEqual({ status: 0, stdout: '', stderr: '' });
  });

  it('uses --stdin-filename for the path, message-file detection and config lookup', () => {
    const dir = makeTree({ 'sub/.msglintrc.json': '{"unknownKey": 1}' });
    const named = runJson(['--stdin', '--stdin-filename', 'docs/x.msg.md'], { cwd: dir, input: CLEAN });
    expect(named.reports.map((r) => r.filePath)).toEqual([path.join(dir, 'docs/x.msg.md')]);
    expect(runJson(['--stdin', '--stdin-filename', 'notes.md'], { cwd: dir, input: PLAIN }).reports).toEqual([]);
    // The config next to the named file applies (here a broken one).
    const broken = run(['--stdin', '--stdin-filename', 'sub/x.msg.md'], { cwd: dir, input: CLEAN });
    expect(broken.status).toBe(2);
    expect(broken.stderr).toMatch(/^msglint: sub\/\.msglintrc\.json: unknown key "unknownKey"/);
  });

  it('prints the fixed text with --stdin --fix, exit 0 even with problems left, and the report only to --output-file', () => {
    const dir = makeTree();
    const fixed = run(['--stdin', '--fix'], { cwd: dir, input: CELL_MARKER });
    expect(fixed).toEqual({ status: 0, stdout: CELL_MARKER.replace('#%%', '# %%'), stderr: '' });
    // Nothing to fix, or not a message file: the text as it came.
    expect(run(['--stdin', '--fix'], { cwd: dir, input: CLEAN })).toEqual({ status: 0, stdout: CLEAN, stderr: '' });
    expect(run(['--stdin', '--fix', '--stdin-filename', 'notes.md'], { cwd: dir, input: PLAIN })).toEqual({ status: 0, stdout: PLAIN, stderr: '' });
    // empty-cell has no fix: the text stays, the problem goes to the report file.
    const empty = '# %% Hi[^1]\n\n[^1]: [markdown]\n';
    const left = run(['--stdin', '--fix', '-f', 'json', '-o', 'report.json'], { cwd: dir, input: empty });
    expect(left).toEqual({ status: 0, stdout: empty, stderr: '' });
    const reports = JSON.parse(readFileSync(path.join(dir, 'report.json'), 'utf8')) as { messages: { ruleId: string }[] }[];
    expect(reports[0]!.messages.map((m) => m.ruleId)).toEqual(['empty-cell']);
  });

  it('prints nothing with --stdin --fix when the config is bad or the text is not UTF-8, and exits 2', () => {
    const dir = makeTree({ '.msglintrc.json': '{"rules": 3}' });
    const bad = run(['--stdin', '--fix'], { cwd: dir, input: CELL_MARKER });
    expect(bad.status).toBe(2);
    expect(bad.stdout).toBe('');
    expect(lines(bad.stderr)).toHaveLength(1);
    const binary = run(['--stdin', '--fix'], { cwd: makeTree(), input: Buffer.concat([Buffer.from(CELL_MARKER), Buffer.from([0xff, 0xfe])]) });
    expect(binary.status).toBe(2);
    expect(binary.stdout).toBe('');
    expect(lines(binary.stderr)).toEqual(['msglint: <stdin>: not valid UTF-8; linted, but fixes are not applied']);
  });

  it('accepts --fix-dry-run with --stdin', () => {
    const result = runJson(['--stdin', '--fix-dry-run'], { cwd: makeTree(), input: CLEAN });
    expect(result.status).toBe(0);
    expect(result.reports[0]!.output).toBeUndefined();
  });
});

describe('--output-file', () => {
  it('writes the report to the file, creating directories, and nothing to stdout', () => {
    const dir = makeTree({ 'a.msg.md': CLEAN });
    const result = run(['--format', 'json', '--output-file', 'reports/lint.json'], { cwd: dir });
    expect(result).toEqual({ status: 0, stdout: '', stderr: '' });
    const reports = JSON.parse(readFileSync(path.join(dir, 'reports/lint.json'), 'utf8')) as unknown[];
    expect(reports).toHaveLength(1);
  });

  it('replaces an earlier report even when the new one is empty', () => {
    const dir = makeTree({ 'a.msg.md': CLEAN, 'out.txt': 'stale' });
    expect(run(['-o', 'out.txt'], { cwd: dir }).status).toBe(0);
    expect(readFileSync(path.join(dir, 'out.txt'), 'utf8')).toBe('');
  });

  it('fails with exit 2 when the report cannot be written', () => {
    const dir = makeTree({ 'a.msg.md': CLEAN, 'file': 'x' });
    const result = run(['--output-file', 'file/report.txt'], { cwd: dir });
    expect(result.status).toBe(2);
    expect(lines(result.stderr)).toHaveLength(1);
    expect(result.stderr).toMatch(/^msglint: file\/report\.txt: cannot write report/);
  });
});

describe('--fix safety', () => {
  it('never writes fixes into a file that is not valid UTF-8, and says so', () => {
    const bytes = Buffer.concat([Buffer.from(CELL_MARKER), Buffer.from([0xff, 0xfe, 0x80, 0x0a])]);
    const dir = makeTree({ 'bad.msg.md': bytes });
    const before = statSync(path.join(dir, 'bad.msg.md'));
    const result = run(['--fix'], { cwd: dir });
    expect([0, 1]).toContain(result.status);
    expect(lines(result.stderr)).toEqual(['msglint: bad.msg.md: not valid UTF-8; linted, but fixes are not applied']);
    expect(readFileSync(path.join(dir, 'bad.msg.md')).equals(bytes)).toBe(true);
    expect(statSync(path.join(dir, 'bad.msg.md')).mtimeMs).toBe(before.mtimeMs);
  });

  it('--fix leaves clean files untouched (same inode, same mtime)', () => {
    const dir = makeTree({ 'a.msg.md': CLEAN });
    const file = path.join(dir, 'a.msg.md');
    writeFileSync(file, CLEAN);
    const before = statSync(file);
    expect(run(['--fix'], { cwd: dir }).status).toBe(0);
    const after = statSync(file);
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
  });
});
