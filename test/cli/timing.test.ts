// MSGLINT_TIMING: phases and the slowest rules on stderr after the report,
// the report itself unchanged. The figures are not checked (timings stay out
// of tests); the shape of the tables, the counts and the rows are.
import { afterAll, describe, expect, it } from 'vitest';
import { allRules } from '../../server/linter.js';
import { timingReport, timingRows } from '../../server/cli/timing.js';
import { CELL_MARKER, CLEAN, cleanupTempDirs, makeTree, run } from './helpers.js';

afterAll(cleanupTempDirs);

const PHASES = ['start-up', 'discovery', 'lint', 'report', 'total'];

/** The rows of the table headed `title` on stderr: [name, ms, share]. */
function tableRows(stderr: string, title: string): string[][] {
  const lines = stderr.split('\n');
  const head = lines.findIndex((l) => l.startsWith(`${title} `) && l.includes('| Time (ms) |'));
  expect(head, `no ${title} table in:\n${stderr}`).toBeGreaterThanOrEqual(0);
  expect(lines[head + 1]).toMatch(/^:-+\|-+:\|-+:$/);
  const rows: string[][] = [];
  for (const line of lines.slice(head + 2)) {
    if (!line.includes(' | ')) break;
    rows.push(line.split('|').map((cell) => cell.trim()));
  }
  return rows;
}

describe('MSGLINT_TIMING values', () => {
  it('is off when unset, empty or 0', () => {
    expect(timingRows(undefined)).toBeUndefined();
    expect(timingRows('')).toBeUndefined();
    expect(timingRows('0')).toBeUndefined();
  });

  it('lists at least 10 rules, more on request, or all of them', () => {
    expect(timingRows('1')).toBe(10);
    expect(timingRows('10')).toBe(10);
    expect(timingRows(' 25 ')).toBe(25);
    expect(timingRows('all')).toBe(Infinity);
    expect(timingRows('ALL')).toBe(Infinity);
  });

  it('refuses anything else', () => {
    for (const bad of ['yes', '-3', '2.5', 'true']) expect(() => timingRows(bad)).toThrow(`MSGLINT_TIMING: expected 'all' or a number of rules, got '${bad}'`);
  });
});

describe('timingReport', () => {
  it('lays out the phases and the slowest rules, parsing among them', () => {
    const lines = timingReport(
      { started: 80, discovered: 100, linted: 180, reported: 190 },
      { parse: 30, lints: 4, rules: new Map([['tool-xml', 20], ['cell-marker', 5], ['empty-cell', 5], ['agent-name', 0]]) },
      3,
      2,
      3,
    );
    expect(lines).toEqual([
      'msglint: timing (MSGLINT_TIMING): 3 files, 2 threads',
      '',
      'Phase     | Time (ms) | Relative',
      ':---------|----------:|--------:',
      'start-up  |      80.0 |    42.1%',
      'discovery |      20.0 |    10.5%',
      'lint      |      80.0 |    42.1%',
      'report    |      10.0 |     5.3%',
      'total     |     190.0 |   100.0%',
      '',
      'Parsing and rules: 60.0 ms in 4 lints, summed over 2 threads; the rest of the lint phase reads files and builds reports.',
      'Rule        | Time (ms) | Relative',
      ':-----------|----------:|--------:',
      '(parsing)   |      30.0 |    50.0%',
      'tool-xml    |      20.0 |    33.3%',
      'cell-marker |       5.0 |     8.3%',
    ]);
  });

  it('groups the digits of large counts', () => {
    const times = { parse: 0, lints: 1234, rules: new Map<string, number>() };
    const lines = timingReport({ started: 1, discovered: 2, linted: 3, reported: 4 }, times, 1234567, 1, 10);
    expect(lines[0]).toBe('msglint: timing (MSGLINT_TIMING): 1,234,567 files, 1 thread');
    expect(lines).toContain('Parsing and rules: 0.0 ms in 1,234 lints; the rest of the lint phase reads files and builds reports.');
    // Nothing was spent: no share to give.
    expect(lines.at(-1)).toBe('(parsing) |       0.0 |        -');
  });
});

describe('msglint with MSGLINT_TIMING', () => {
  const files = { 'a.msg.md': CLEAN, 'b.msg.md': CELL_MARKER, 'c/d.msg.md': CLEAN };

  it('prints the tables on stderr and leaves the report and exit code as they were', () => {
    const dir = makeTree(files);
    const plain = run(['--format', 'json', '.'], { cwd: dir });
    const timed = run(['--format', 'json', '.'], { cwd: dir, env: { MSGLINT_TIMING: '1' } });
    expect(timed.status).toBe(1);
    expect(timed.status).toBe(plain.status);
    expect(JSON.parse(timed.stdout)).toEqual(JSON.parse(plain.stdout));
    expect(plain.stderr).toBe('');
    expect(timed.stderr.split('\n')[0]).toBe('msglint: timing (MSGLINT_TIMING): 3 files, 1 thread');
    expect(tableRows(timed.stderr, 'Phase').map((r) => r[0])).toEqual(PHASES);
    expect(timed.stderr).toMatch(/^Parsing and rules: [0-9.]+ ms in 3 lints; /m);
    const rules = tableRows(timed.stderr, 'Rule');
    expect(rules).toHaveLength(10);
    for (const [name, ms, share] of rules) {
      expect(name === '(parsing)' || allRules.some((r) => r.meta.id === name), name).toBe(true);
      expect(ms).toMatch(/^[0-9]+\.[0-9]$/);
      expect(share).toMatch(/^[0-9]+\.[0-9]%$/);
    }
    // Slowest first.
    const ms = rules.map((r) => Number(r[1]));
    expect(ms).toEqual([...ms].sort((a, b) => b - a));
  });

  it('lists every rule with all, and counts the --fix passes', () => {
    const dir = makeTree(files);
    const r = run(['--fix', '.'], { cwd: dir, env: { MSGLINT_TIMING: 'all' } });
    expect(r.status).toBe(0);
    const names = tableRows(r.stderr, 'Rule').map((row) => row[0]);
    expect(names.sort()).toEqual(['(parsing)', ...allRules.map((rule) => rule.meta.id)].sort());
    // Three files and a second pass over the fixed one.
    expect(r.stderr).toMatch(/^Parsing and rules: [0-9.]+ ms in 4 lints; /m);
  });

  it('sums the threads of --concurrency', () => {
    const many: Record<string, string> = {};
    for (let i = 0; i < 24; i++) many[`f${i}.msg.md`] = CLEAN;
    const r = run(['--concurrency', '2', '.'], { cwd: makeTree(many), env: { MSGLINT_TIMING: '1' } });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')[0]).toBe('msglint: timing (MSGLINT_TIMING): 24 files, 2 threads');
    // Each file linted once, whichever thread took it.
    expect(r.stderr).toMatch(/^Parsing and rules: [0-9.]+ ms in 24 lints, summed over 2 threads; /m);
  });

  it('times standard input as one file', () => {
    const r = run(['--stdin'], { cwd: makeTree(), input: CLEAN, env: { MSGLINT_TIMING: '1' } });
    expect(r.status).toBe(0);
    expect(r.stderr.split('\n')[0]).toBe('msglint: timing (MSGLINT_TIMING): 1 file, 1 thread');
    expect(tableRows(r.stderr, 'Phase').map((row) => row[0])).toEqual(PHASES);
  });

  it('refuses a value it does not know with one line and exit code 2', () => {
    const r = run(['.'], { cwd: makeTree(files), env: { MSGLINT_TIMING: 'verbose' } });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe("msglint: MSGLINT_TIMING: expected 'all' or a number of rules, got 'verbose'\n");
  });
});
