// --concurrency and --cache, run as processes: the same report as a plain run.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cacheText } from '../../server/cli/cache.js';
import { cacheKeyFile, loadCacheKey } from '../../server/cli/cache-key.js';
import { cacheHome, CELL_ID_MISSING, CELL_MARKER, CLEAN, cleanupTempDirs, makeTree, run, runJson } from './helpers.js';

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
  type Entries = Record<string, { key: string; stamp?: number[]; messages: { ruleId: string; message: string }[] | null }>;
  const entries = (dir: string) => JSON.parse(readFileSync(path.join(dir, '.msglintcache'), 'utf8')).entries as Entries;
  /** Writes a cache as the runs' msglint would (signed with the key they keep). */
  const plant = (dir: string, kept: Entries) =>
    writeFileSync(path.join(dir, '.msglintcache'), cacheText(loadCacheKey(cacheKeyFile({ XDG_CACHE_HOME: cacheHome() })), JSON.stringify(kept)));

  it('keeps the stamps of files older than 2 s, and trusts them while the file keeps them', async () => {
    const dir = tree(6);
    const file = path.join(dir, 'd1/f1.msg.md');
    // Stamps of files changed in the last 2 s are not kept (their time tick may not be over).
    expect(Object.values((runJson(['--cache', '.'], { cwd: dir }), entries(dir))).some((e) => e.stamp)).toBe(false);
    // A modification time in whole seconds, which utimes can set again exactly.
    const mtime = Math.floor(Date.now() / 1000) - 3600;
    utimesSync(file, mtime, mtime);
    await new Promise((resolve) => setTimeout(resolve, 2100));
    runJson(['--cache', '.'], { cwd: dir });
    const kept = entries(dir);
    const name = 'd1/f1.msg.md';
    expect(kept[name]!.stamp).toHaveLength(4);

    // A kept stamp that still matches: the file is not read, the cached report is used
    // (seen here by damaging the content digest of the key, which only a read would notice).
    const key = kept[name]!.key;
    const message = { ruleId: 'from-the-cache', severity: 1, message: 'x', line: 1, column: 1, endLine: 1, endColumn: 2 };
    kept[name] = { ...kept[name]!, key: `not-the-digest${key.slice(key.indexOf(':'))}`, messages: [message] };
    plant(dir, kept);
    const trusted = runJson(['--cache', '.'], { cwd: dir });
    expect(trusted.reports.find((r) => r.filePath === file)!.messages.map((m) => m.ruleId)).toEqual(['from-the-cache']);

    // Same size, same modification time, other bytes: the change time differs, the file is read.
    const before = statSync(file);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('# %%');
    writeFileSync(file, text.replace('# %%', '#%% '));
    utimesSync(file, mtime, mtime);
    expect([statSync(file).mtimeMs, statSync(file).size]).toEqual([before.mtimeMs, before.size]);
    const reread = runJson(['--cache', '.'], { cwd: dir });
    expect(reread.reports.find((r) => r.filePath === file)!.messages.map((m) => m.ruleId)).toContain('cell-marker');
  });

  it('ignores damaged entries and a cache of another version', () => {
    const dir = tree(4);
    const first = runJson(['--cache', '.'], { cwd: dir });
    const damaged = entries(dir);
    const files = Object.keys(damaged);
    damaged[files[0]!] = { key: 42, stamp: 'x' } as never;
    damaged[files[1]!] = { ...damaged[files[1]!]!, stamp: [1, 2] };
    damaged[files[2]!] = { ...damaged[files[2]!]!, messages: [42, { ruleId: 'x' }] as never };
    damaged[files[3]!] = { ...damaged[files[3]!]!, messages: { length: 1 } as never };
    plant(dir, damaged);
    expect(runJson(['--cache', '.'], { cwd: dir })).toMatchObject({ status: first.status, stderr: '', reports: first.reports });
    writeFileSync(path.join(dir, '.msglintcache'), JSON.stringify({ msglintCache: 1, entries: {} }));
    expect(runJson(['--cache', '.'], { cwd: dir })).toMatchObject({ status: first.status, stderr: '', reports: first.reports });
    expect(JSON.parse(readFileSync(path.join(dir, '.msglintcache'), 'utf8')).msglintCache).toBe(4);
  });

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
    expect(JSON.parse(readFileSync(path.join(dir, 'cache.json'), 'utf8')).msglintCache).toBe(4);
  });

  it('--cache-location naming a folder (existing, or ending with /) keeps the cache in a file inside it, named after the working directory', () => {
    const dir = tree(3);
    mkdirSync(path.join(dir, 'caches'));
    for (const location of ['caches', 'new-folder/']) {
      const first = runJson(['--cache', '--cache-location', location, '.'], { cwd: dir });
      expect(first.stderr).toBe('');
      const folder = path.join(dir, location);
      expect(statSync(folder).isDirectory()).toBe(true);
      const [name, ...others] = readdirSync(folder);
      expect(others).toEqual([]);
      expect(name).toMatch(/^\.msglintcache_[0-9a-f]{12}$/);
      expect(JSON.parse(readFileSync(path.join(folder, name!), 'utf8')).msglintCache).toBe(4);
      // The second run uses the same file.
      const again = runJson(['--cache', '--cache-location', location, '.'], { cwd: dir });
      expect(again.reports).toEqual(first.reports);
      expect(readdirSync(folder)).toEqual([name]);
    }
  });

  it('names entries relative to the cache file: a copied tree reuses them', () => {
    const dir = tree(3);
    runJson(['--cache', '.'], { cwd: dir });
    const kept = entries(dir);
    expect(Object.keys(kept).sort()).toEqual(['d0/f0.msg.md', 'd1/f1.msg.md', 'd2/f2.msg.md', 'notes.md']);
    // A planted report shows that the copy's run took it from the cache (the key, a digest of the bytes, still matches).
    const message = { ruleId: 'from-the-cache', severity: 1, message: 'x', line: 1, column: 1, endLine: 1, endColumn: 2 };
    kept['d1/f1.msg.md'] = { ...kept['d1/f1.msg.md']!, messages: [message] };
    plant(dir, kept);
    const copy = makeTree();
    cpSync(dir, copy, { recursive: true });
    const result = runJson(['--cache', '.'], { cwd: copy });
    expect(result.reports.find((r) => r.filePath.endsWith('f1.msg.md'))!.messages.map((m) => m.ruleId)).toEqual(['from-the-cache']);
  });

  it('drops the entries of files that no longer exist, and keeps those of files not linted this run', () => {
    const dir = tree(3);
    runJson(['--cache', '.'], { cwd: dir });
    rmSync(path.join(dir, 'd0/f0.msg.md'));
    runJson(['--cache', 'd2'], { cwd: dir });
    expect(Object.keys(entries(dir)).sort()).toEqual(['d1/f1.msg.md', 'd2/f2.msg.md', 'notes.md']);
  });
});
