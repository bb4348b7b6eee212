// The bundled command (server/cli/bundle.mjs): one script with V8's code
// cache beside it. The cache only saves compile time, so what matters is
// that this Node accepts it and that a damaged or missing one changes
// nothing but speed.

import { copyFileSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CELL_MARKER, cleanupTempDirs, makeTree, ROOT, run } from './helpers.js';

const CLI_DIR = path.join(ROOT, 'dist/cli');

afterAll(cleanupTempDirs);

/** A copy of dist/cli, to break its cache without touching the real one. */
function copyOfCli(): string {
  const dir = makeTree();
  for (const name of readdirSync(CLI_DIR)) copyFileSync(path.join(CLI_DIR, name), path.join(dir, name));
  return dir;
}

function lintWith(main: string, dir: string) {
  return run(['--concurrency', '2', '--format', 'json', '.'], { cwd: dir, env: { MSGLINT_DEBUG: '1' } }, main);
}

describe('the command bundle', () => {
  const tree = () => makeTree({ 'a.msg.md': CELL_MARKER, 'b.msg.md': CELL_MARKER, 'c.msg.md': CELL_MARKER });

  it('ships a code cache that this Node accepts, in the main thread and in workers', () => {
    expect(existsSync(path.join(CLI_DIR, 'msglint.cjs.cache'))).toBe(true);
    const result = lintWith(path.join(CLI_DIR, 'main.js'), tree());
    expect(result.stderr).toBe('');
    expect(result.status).toBe(1);
  });

  it('lints the same with a damaged cache, or none, and says so only under MSGLINT_DEBUG', () => {
    const dir = tree();
    const expected = lintWith(path.join(CLI_DIR, 'main.js'), dir).stdout;
    const copy = copyOfCli();
    const cache = path.join(copy, 'msglint.cjs.cache');
    const bytes = readFileSync(cache);
    for (let i = 0; i < bytes.length; i += 97) bytes[i] ^= 0xff;
    writeFileSync(cache, bytes);
    const damaged = lintWith(path.join(copy, 'main.js'), dir);
    expect(damaged.stdout).toBe(expected);
    expect(damaged.stderr).toMatch(/^msglint: V8 rejected the code cache .*msglint\.cjs\.cache: compiled without it$/m);
    expect(run(['.'], { cwd: dir }, path.join(copy, 'main.js')).stderr).toBe('');
    rmSync(cache);
    expect(lintWith(path.join(copy, 'main.js'), dir)).toEqual({ status: 1, stdout: expected, stderr: '' });
  });
});
