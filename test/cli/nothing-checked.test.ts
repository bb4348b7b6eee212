// A run that checks nothing says so (issue 47): a path, folder or glob named
// on the command line (the default `.` too) that yields no message file is an
// error naming it, exit 2, as ESLint's "No files matching the pattern";
// --no-error-on-unmatched-pattern makes it a line on stderr. A file named but
// ignored gets one line saying what ignores it. Every output format stays
// valid for zero files.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLEAN, PLAIN, STACK_FRAME, cleanupTempDirs, lines, makeTree, run } from './helpers.js';

afterAll(cleanupTempDirs);

const NOT_A_MESSAGE_FILE = 'not a message file (a *.msg.md file, or a *.md file whose frontmatter declares message_section)';

describe('a run that lints nothing fails (issue 47)', () => {
  it('an empty folder, a glob over plain Markdown, a plain .md file, the default `.`: exit 2, one line naming each', () => {
    const dir = makeTree({ 'notes.md': PLAIN, 'docs/readme.md': PLAIN });
    mkdirSync(path.join(dir, 'emptydir'));
    const cases: [string[], string][] = [
      [['emptydir'], 'msglint: emptydir: no message file found'],
      [['*.md'], 'msglint: *.md: no message file found (1 Markdown file, not a message file)'],
      [['notes.md'], `msglint: notes.md: ${NOT_A_MESSAGE_FILE}`],
      [[], 'msglint: .: no message file found (2 Markdown files, none a message file)'],
    ];
    for (const [args, line] of cases) {
      const result = run(args, { cwd: dir });
      expect([result.status, result.stdout, lines(result.stderr)], args.join(' ')).toEqual([2, '', [line]]);
      expect(result.stderr).not.toMatch(STACK_FRAME);
    }
  });

  it('standard input named as a plain .md file: exit 2', () => {
    const result = run(['--stdin', '--stdin-filename', 'foo.md'], { cwd: makeTree(), input: '# Just notes\n' });
    expect([result.status, lines(result.stderr)]).toEqual([2, [`msglint: foo.md: ${NOT_A_MESSAGE_FILE}`]]);
  });

  it('one path with message files and one without: the lint runs, and the empty one is still an error', () => {
    const dir = makeTree({ 'a.msg.md': CLEAN, 'notes/plain.md': PLAIN });
    const result = run(['a.msg.md', 'notes'], { cwd: dir });
    expect([result.status, lines(result.stderr)]).toEqual([2, ['msglint: notes: no message file found (1 Markdown file, not a message file)']]);
  });

  it('--no-error-on-unmatched-pattern: the same lines, said as skipped, and the exit code is the lint’s', () => {
    const dir = makeTree({ 'a.msg.md': CLEAN, 'notes.md': PLAIN });
    const result = run(['--no-error-on-unmatched-pattern', 'a.msg.md', 'notes.md'], { cwd: dir });
    expect([result.status, lines(result.stderr)]).toEqual([0, [`msglint: notes.md: ${NOT_A_MESSAGE_FILE}; skipped`]]);
  });

  it('a file named but ignored: one line saying what ignores it, not an error (lint-staged passes such files)', () => {
    const dir = makeTree({ 'a.msg.md': CLEAN, 'drafts/b.msg.md': CLEAN, 'gen.msg.md': CLEAN, '.msglintrc.json': JSON.stringify({ ignores: ['drafts/**'] }), '.gitignore': 'gen.msg.md\n' });
    execFileSync('git', ['init', '-q'], { cwd: dir });
    const result = run(['a.msg.md', 'drafts/b.msg.md', 'gen.msg.md'], { cwd: dir });
    expect([result.status, lines(result.stderr)]).toEqual([
      0,
      ['msglint: drafts/b.msg.md: skipped: ignored by the "ignores" of .msglintrc.json', 'msglint: gen.msg.md: skipped: ignored by .gitignore'],
    ]);
  });

  it('every output format is valid for zero files', () => {
    const dir = makeTree({ 'notes.md': PLAIN });
    const parse: Record<string, (out: string) => unknown> = {
      json: (out) => expect(JSON.parse(out)).toEqual([]),
      sarif: (out) => expect(JSON.parse(out).runs[0].results).toEqual([]),
      gitlab: (out) => expect(JSON.parse(out)).toEqual([]),
      rdjson: (out) => expect(JSON.parse(out).diagnostics ?? []).toEqual([]),
      junit: (out) => expect(out).toMatch(/^<\?xml[^]*<testsuites[^]*<\/testsuites>\s*$|^<\?xml[^]*<testsuites[^>]*\/>\s*$/),
      github: (out) => expect(out).toBe(''),
      stylish: (out) => expect(out).toBe(''),
    };
    for (const [format, check] of Object.entries(parse)) {
      const result = run(['--no-error-on-unmatched-pattern', '--format', format, '.'], { cwd: dir });
      expect(result.status, format).toBe(0);
      check(result.stdout);
    }
  });
});
