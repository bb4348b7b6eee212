// --concurrency and --cache, run as processes: the same report as a plain run.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CELL_ID_MISSING, CELL_MARKER, CLEAN, cleanupTempDirs, makeTree, run, runJson } from './helpers.js';

afterAll(cleanupTempDirs);

function tree(n: number): string {
  const files: Record<string, string> = {};
  for (let i = 0; i < n; i++) files[`d${i % 7}/f${i}.msg.md`] = i % 5 === 0 ? CELL_MARKER : i % 7 === 0 ? CELL_ID_MISSING : CLEAN;
  files['notes.md'] = '# Not a message file\n';
  return makeTree(files);
}

describe('--concurrency', () => {
  it('gives the same report, in the same order, as one thread', () => {
    const dir = tree(90);
    const one = runJson(['--concurrency', 'off', '.'], { cwd: dir });
    for (const setting of ['2', 'auto']) {
      const many = runJson(['--concurrency', setting, '.'], { cwd: dir });
      expect(many.status).toBe(one.status);
      expect(many.reports).toEqual(one.reports);
    }
    expect(one.status).toBe(1);
    expect(one.reports.length).toBe(90);
  });

  it('applies --fix on the workers', () => {
    const dir = tree(70);
    const result = run(['--concurrency', '2', '--fix', '.'], { cwd: dir });
    expect(result.stderr).toBe('');
    expect(readFileSync(path.join(dir, 'd0/f0.msg.md'), 'utf8')).toContain('# %% [^1]');
  });

  it('rejects a bad value with exit 2', () => {
    const result = run(['--concurrency', 'many', '.'], { cwd: makeTree({}) });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^msglint: --concurrency expects/);
  });
});

describe('--cache', () => {
  it('reuses results of unchanged files and re-lints changed ones', () => {
    const dir = tree(20);
    const first = runJson(['--cache', '.'], { cwd: dir });
    expect(existsSync(path.join(dir, '.msglintcache'))).toBe(true);
    const second = runJson(['--cache', '.'], { cwd: dir });
    expect(second.reports).toEqual(first.reports);
    expect(second.status).toBe(first.status);

    // A file that changed is linted again.
    writeFileSync(path.join(dir, 'd1/f1.msg.md'), CELL_MARKER);
    const third = runJson(['--cache', '.'], { cwd: dir });
    const f1 = third.reports.find((r) => r.filePath.endsWith('f1.msg.md'))!;
    expect(f1.messages.map((m) => m.ruleId)).toEqual(['cell-marker']);
  });

  it('is invalidated by a change of config', () => {
    const dir = tree(10);
    runJson(['--cache', '.'], { cwd: dir });
    writeFileSync(path.join(dir, '.msglintrc.json'), JSON.stringify({ rules: { 'cell-marker': 'off' } }));
    const after = runJson(['--cache', '.'], { cwd: dir });
    expect(after.reports.flatMap((r) => r.messages.map((m) => m.ruleId))).not.toContain('cell-marker');
    const cli = runJson(['--cache', '--rule', 'cell-marker:warn', '.'], { cwd: dir });
    expect(cli.reports.flatMap((r) => r.messages.map((m) => m.ruleId))).toContain('cell-marker');
  });

  it('honours --cache-location and survives a corrupt cache file', () => {
    const dir = tree(5);
    writeFileSync(path.join(dir, 'cache.json'), '{not json');
    const result = runJson(['--cache', '--cache-location', 'cache.json', '.'], { cwd: dir });
    expect(result.stderr).toBe('');
    expect(JSON.parse(readFileSync(path.join(dir, 'cache.json'), 'utf8')).msglintCache).toBe(1);
  });
});
