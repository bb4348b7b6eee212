// Excluding on the command line (issue 47), as ESLint and markdownlint-cli2
// take it: --ignore-pattern GLOB (repeatable) and `!GLOB` arguments skip
// what they match, from the working directory, in the syntax of a config's
// `ignores`; --no-ignore applies no .gitignore, `ignores` or pattern.
import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { CELL_MARKER, CLEAN, cleanupTempDirs, lines, makeTree, run, runJson } from './helpers.js';

afterAll(cleanupTempDirs);

function linted(reports: { filePath: string }[], dir: string): string[] {
  return reports.map((r) => r.filePath.slice(dir.length + 1)).sort();
}

function tree(): string {
  const dir = makeTree({
    'a.msg.md': CLEAN,
    'drafts/b.msg.md': CELL_MARKER,
    'drafts/c.msg.md': CELL_MARKER,
    'gen/d.msg.md': CELL_MARKER,
    'e.msg.md': CLEAN,
    '.gitignore': 'gen/\n',
    '.msglintrc.json': JSON.stringify({ ignores: ['e.msg.md'] }),
  });
  execFileSync('git', ['init', '-q'], { cwd: dir });
  return dir;
}

describe('excluding on the command line', () => {
  it('--ignore-pattern GLOB, repeatable, skips what it matches from the working directory', () => {
    const dir = tree();
    const result = runJson(['--ignore-pattern', 'drafts/b.msg.md', '--ignore-pattern=drafts/c.*', '.'], { cwd: dir });
    expect([result.status, result.stderr]).toEqual([0, '']);
    expect(linted(result.reports, dir)).toEqual(['a.msg.md']);
  });

  it('a `!GLOB` argument does the same', () => {
    const dir = tree();
    const result = runJson(['.', '!drafts/**'], { cwd: dir });
    expect([result.status, result.stderr]).toEqual([0, '']);
    expect(linted(result.reports, dir)).toEqual(['a.msg.md']);
  });

  it('a file named but skipped by a pattern: one line saying so', () => {
    const dir = tree();
    const result = run(['--ignore-pattern', 'drafts', 'a.msg.md', 'drafts/b.msg.md'], { cwd: dir });
    expect([result.status, lines(result.stderr)]).toEqual([0, ['msglint: drafts/b.msg.md: skipped: ignored by --ignore-pattern']]);
  });

  it('--no-ignore applies no .gitignore, config `ignores` or pattern', () => {
    const dir = tree();
    const result = runJson(['--no-ignore', '--ignore-pattern', 'drafts', '.'], { cwd: dir });
    expect(result.status).toBe(1);
    expect(linted(result.reports, dir)).toEqual(['a.msg.md', 'drafts/b.msg.md', 'drafts/c.msg.md', 'e.msg.md', 'gen/d.msg.md']);
  });

  it('a pattern that would take too long to match, or an empty one: a usage error, exit 2', () => {
    const dir = tree();
    for (const args of [['--ignore-pattern', 'a*a*a*a*b'], ['!']]) {
      const result = run([...args, '.'], { cwd: dir });
      expect(result.status, args.join(' ')).toBe(2);
      expect(lines(result.stderr)).toHaveLength(1);
      expect(result.stderr).toMatch(/^msglint: --ignore-pattern '[^']*': /);
    }
  });
});
