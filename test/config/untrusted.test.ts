// Issue 45: a hostile repository runs no code and reaches nothing outside
// its tree. The command as a process, on committed files of a repository
// (a `.git` folder): configs are data (a module is refused, never run),
// `extends` stays inside the repository or installed packages (a config
// named with -c may reach anywhere), an error never quotes a file, and a
// chain is read once per file, bounded in depth and count.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repositoryRoot } from '../../server/config/reach.js';
import { CELL_ID_MISSING, cleanupTempDirs, lines, makeTree, run, STACK_FRAME, writeTree, type RunResult } from '../cli/helpers.js';

afterAll(cleanupTempDirs);

const POSIX = process.platform !== 'win32';
const SECRET = 'S3CRET-VALUE-42';
/** Writes `marker` next to itself when run: what a config that runs code would leave. */
const MARKER_SCRIPT = `require('node:fs').writeFileSync(require('node:path').join(__dirname, 'RAN'), 'x');\nmodule.exports = { agents: ['ran'] };\n`;

/** A repository (`.git`) holding `files` and a message file; its folder. */
function repository(files: Record<string, string>): string {
  return makeTree({ '.git/HEAD': 'ref: refs/heads/main\n', 'a.msg.md': CELL_ID_MISSING, ...files });
}

/** A config failure: exit 2, one line on stderr, no stack trace, nothing quoted from the secret. */
function expectOneLine(result: RunResult, pattern: RegExp): void {
  expect(result.stderr.trimEnd()).toMatch(pattern);
  expect(lines(result.stderr)).toHaveLength(1);
  expect(result.stderr).not.toMatch(STACK_FRAME);
  expect(result.stderr).not.toContain(SECRET);
  expect(result.status).toBe(2);
}

describe('configs are data (point 1)', () => {
  it.each([
    ['a path to a CommonJS module', { '.msglintrc.json': '{"extends": "./shared.cjs"}', 'shared.cjs': MARKER_SCRIPT }, /^msglint: \.msglintrc\.json: "extends": "\.\/shared\.cjs" is a JavaScript module; msglint reads configs as data \(JSON or YAML\) and runs no code$/],
    ['a path to an ES module', { '.msglintrc.yaml': 'extends: ./shared.mjs\n', 'shared.mjs': 'import fs from "node:fs"; fs.writeFileSync(new URL("RAN", import.meta.url), "x"); export default {};\n' }, /"\.\/shared\.mjs" is a JavaScript module/],
    [
      'a package whose main is JavaScript',
      { '.msglintrc.json': '{"extends": "team"}', 'node_modules/msglint-config-team/package.json': '{"name": "msglint-config-team"}', 'node_modules/msglint-config-team/index.js': MARKER_SCRIPT },
      /^msglint: \.msglintrc\.json: "extends": "team" names the package msglint-config-team, whose config index\.js is a JavaScript module; msglint reads configs as data/,
    ],
  ])('%s: refused with one line, and never run', (_, files, pattern) => {
    const dir = repository(files);
    expectOneLine(run(['a.msg.md'], { cwd: dir }), pattern);
    expect(existsSync(path.join(dir, 'RAN'))).toBe(false);
    expect(existsSync(path.join(dir, 'node_modules/msglint-config-team/RAN'))).toBe(false);
  });

  it('a module named with -c: refused, never run', () => {
    const dir = repository({ 'mine.cjs': MARKER_SCRIPT });
    expectOneLine(run(['-c', 'mine.cjs', 'a.msg.md'], { cwd: dir }), /^msglint: mine\.cjs: is a JavaScript module; msglint reads configs as data/);
    expect(existsSync(path.join(dir, 'RAN'))).toBe(false);
  });
});

describe('extends stays inside the repository (point 2)', () => {
  /** A folder beside the repository, holding a file whose text must never be shown. */
  const outside = () => makeTree({ 'secret.yaml': `token: ${SECRET}\n`, 'secret.json': `"${SECRET}"`, 'base.json': '{"agents": ["outside"]}' });

  it.each([
    ['an absolute path', (o: string) => path.join(o, 'secret.yaml')],
    ['a path that climbs out', (o: string, dir: string) => `./${path.relative(dir, path.join(o, 'secret.json'))}`],
    ['/etc/passwd', () => '/etc/passwd'],
    ['/proc/self/environ', () => '/proc/self/environ'],
  ])('%s: refused before it is read', (_, target) => {
    const dir = repository({});
    writeTree(dir, { '.msglintrc.json': JSON.stringify({ extends: target(outside(), dir) }) });
    expectOneLine(run(['a.msg.md'], { cwd: dir }), /^msglint: \.msglintrc\.json: "extends": ".*" leads outside the repository \([^)]*\), where a config found there may not read; a config named with -c may$/);
  });

  it.runIf(POSIX)('a link inside the tree that leads out: refused', () => {
    const o = outside();
    const dir = repository({ '.msglintrc.json': '{"extends": "./shared/base.yaml"}' });
    mkdirSync(path.join(dir, 'shared'));
    symlinkSync(path.join(o, 'secret.yaml'), path.join(dir, 'shared/base.yaml'));
    expectOneLine(run(['a.msg.md'], { cwd: dir }), /"extends": "\.\/shared\/base\.yaml" is a link that leads outside the repository/);
  });

  it.runIf(POSIX)('a found config that is itself a link out of the repository: refused', () => {
    const o = outside();
    const dir = repository({});
    symlinkSync(path.join(o, 'secret.yaml'), path.join(dir, '.msglintrc.yaml'));
    expectOneLine(run(['a.msg.md'], { cwd: dir }), /^msglint: \.msglintrc\.yaml: a link to a file outside the repository \([^)]*\); a config found there is read only inside it$/);
  });

  it.runIf(POSIX)('a package committed to the tree that links out of it: refused', () => {
    const o = makeTree({ 'package.json': '{"name": "msglint-config-evil", "main": "secret.yaml"}', 'secret.yaml': `token: ${SECRET}\n` });
    const dir = repository({ '.msglintrc.json': '{"extends": "evil"}' });
    mkdirSync(path.join(dir, 'node_modules'));
    symlinkSync(o, path.join(dir, 'node_modules/msglint-config-evil'));
    expectOneLine(run(['a.msg.md'], { cwd: dir }), /"extends": "evil" names a package that is a link leading outside the repository/);
  });

  it.each([
    ['a package name that climbs out of node_modules', 'x/../../../../../../../../etc/passwd', /"x\/\.\.\/.*" is neither a path \(\.\/…, \.\.\/…, \/…\) nor a package name$/],
    ['a package whose main leaves it', 'escape', /"extends": the package msglint-config-escape names a file outside its folder$/],
  ])('%s: refused', (_, specifier, pattern) => {
    const dir = repository({
      '.msglintrc.json': JSON.stringify({ extends: specifier }),
      'node_modules/msglint-config-escape/package.json': '{"main": "../../outside.json"}',
      'outside.json': '{}',
    });
    expectOneLine(run(['a.msg.md'], { cwd: dir }), pattern);
  });

  it('outside a repository, the working directory bounds it', (context) => {
    const o = outside();
    const dir = makeTree({ 'a.msg.md': CELL_ID_MISSING, '.msglintrc.json': JSON.stringify({ extends: path.join(o, 'base.json') }) });
    if (repositoryRoot(dir) !== null) return context.skip('the temporary folder lies in a repository');
    expectOneLine(run(['a.msg.md'], { cwd: dir }), /leads outside the working directory \(/);
  });

  it('a config named with -c is the user’s: its chain reaches anywhere', () => {
    const o = outside();
    const dir = repository({ 'mine.json': JSON.stringify({ extends: path.join(o, 'base.json') }) });
    const result = run(['--print-config', 'a.msg.md', '-c', 'mine.json'], { cwd: dir });
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual({ agents: ['outside'] });
  });

  it('an installed package is read wherever it lives, and may extend files inside it', () => {
    const dir = repository({
      'sub/.msglintrc.json': '{"extends": "team"}',
      'node_modules/msglint-config-team/package.json': '{"main": "configs/main.yaml"}',
      'node_modules/msglint-config-team/configs/main.yaml': 'extends: ../base.json\nagents: [team]\n',
      'node_modules/msglint-config-team/base.json': '{"languages": ["elixir"]}',
    });
    const result = run(['--print-config', 'sub/x.msg.md'], { cwd: dir });
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual({ languages: ['elixir'], agents: ['team'] });
  });

  it.each([
    ['JSON V8 would quote', 'bad.json', `root:x:0:0:${SECRET}:/root:/bin/bash\n`, /^msglint: bad\.json: invalid JSON: unexpected character \(line 1, column 1\)$/],
    ['JSON with an error further on', 'bad.json', `{"a": ${SECRET}}`, /^msglint: bad\.json: invalid JSON: unexpected character \(line 1, column 7\)$/],
    ['JSONC with an error after a comment', 'bad.jsonc', `// ${SECRET}\n{"a": ${SECRET}}`, /^msglint: bad\.jsonc: invalid JSON: unexpected character \(line 2, column 7\)$/],
    ['JSONC with a comment that does not end', 'bad.jsonc', `{"a": 1} /* ${SECRET}`, /^msglint: bad\.jsonc: invalid JSON: a comment that does not end \(line 1, column 10\)$/],
    ['JSON with a string that does not end', 'bad.json', `{"a": "${SECRET}\n}`, /^msglint: bad\.json: invalid JSON: a string that does not end on its line \(line 1, column 7\)$/],
    ['YAML the library would quote', 'bad.yaml', `a: 1\n- ${SECRET}\n`, /^msglint: bad\.yaml: invalid YAML: [a-z ]+ at line 2, column 1$/],
    ['a YAML alias', 'bad.yaml', `a: *${SECRET}\n`, /^msglint: bad\.yaml: invalid YAML: its aliases cannot be resolved$/],
    ['a string where a config is', 'bad.yaml', `root:x:0:0:${SECRET}\n`, /^msglint: bad\.yaml: expected an object, got a string$/],
    ['a string where a severity is', 'bad.json', `{"rules": {"cell-marker": "${SECRET}"}}`, /"rules\.cell-marker": expected .* got a string$/],
  ])('an error never quotes the file: %s', (_, name, text, pattern) => {
    const dir = repository({ [name]: text });
    expectOneLine(run(['-c', name, 'a.msg.md'], { cwd: dir }), pattern);
  });
});

describe('extends can neither hang nor explode (point 3)', () => {
  it.runIf(POSIX && existsSync('/dev/zero'))('a config that links to /dev/zero: out of reach when found, not a regular file when named', () => {
    const dir = repository({ '.msglintrc.json': '{"extends": "./zero.json"}', 'mine.json': '{"extends": "./zero.json"}' });
    symlinkSync('/dev/zero', path.join(dir, 'zero.json'));
    expectOneLine(run(['a.msg.md'], { cwd: dir, timeout: 20_000 }), /"extends": "\.\/zero\.json" is a link that leads outside the repository/);
    expectOneLine(run(['-c', 'mine.json', 'a.msg.md'], { cwd: dir, timeout: 20_000 }), /^msglint: zero\.json: cannot read config file: not a regular file$/);
    // A module that links to it was loaded by require(), past the guarded reader: now nothing opens it.
    symlinkSync('/dev/zero', path.join(dir, 'zero.cjs'));
    expectOneLine(run(['-c', 'zero.cjs', 'a.msg.md'], { cwd: dir, timeout: 20_000 }), /^msglint: zero\.cjs: is a JavaScript module/);
  });

  it.runIf(POSIX)('an extended config that is a FIFO, or a package whose package.json is one: said, not waited for', () => {
    const dir = repository({ '.msglintrc.json': '{"extends": "./fifo.yaml"}', 'sub/.msglintrc.json': '{"extends": "team"}', 'node_modules/msglint-config-team/index.json': '{}' });
    expect(spawnSync('mkfifo', [path.join(dir, 'fifo.yaml'), path.join(dir, 'node_modules/msglint-config-team/package.json')]).status).toBe(0);
    expectOneLine(run(['a.msg.md'], { cwd: dir, timeout: 20_000 }), /^msglint: fifo\.yaml: cannot read config file: not a regular file$/);
    expectOneLine(run(['sub'], { cwd: dir, timeout: 20_000 }), /^msglint: sub\/\.msglintrc\.json: "extends": .*node_modules\/msglint-config-team\/package\.json is not a regular file of at most 1 MiB, so no package is looked for$/);
  });

  it('configs that extend one another several times each: each read and applied once', () => {
    // Level i extends level i+1 three times over (as itself and under two more names):
    // 3^14 chains, which were read and merged one by one; each level's override applies once.
    const files: Record<string, string> = {};
    for (let i = 0; i < 14; i++) {
      const next = `./level${i + 1}.json`;
      files[`level${i}.json`] = JSON.stringify({ extends: [next, next.replace('./', './/'), next.replace('./', '././')], overrides: [{ files: ['x'], agents: [`a${i}`] }] });
    }
    files['level14.json'] = '{"rules": {"cell-id-missing": "error"}}';
    files['.msglintrc.json'] = '{"extends": "./level0.json"}';
    const dir = repository(files);
    const result = run(['--print-config', 'x'], { cwd: dir, timeout: 30_000 });
    expect(result.stderr).toBe('');
    const printed = JSON.parse(result.stdout) as { rules: unknown; agents: string[] };
    expect(printed.rules).toEqual({ 'cell-id-missing': 'error' });
    expect(printed.agents).toEqual(Array.from({ length: 14 }, (_, i) => `a${13 - i}`));
  }, 60_000);

  it('a chain more than 16 configs deep, or reaching more than 64 files: one line each', () => {
    const deep: Record<string, string> = { '.msglintrc.json': '{"extends": "./c1.json"}' };
    for (let i = 1; i < 20; i++) deep[`c${i}.json`] = JSON.stringify({ extends: `./c${i + 1}.json` });
    deep['c20.json'] = '{}';
    expectOneLine(run(['a.msg.md'], { cwd: repository(deep) }), /^msglint: c16\.json: "extends" nests more than 16 configs deep$/);

    const wide: Record<string, string> = { '.msglintrc.json': JSON.stringify({ extends: Array.from({ length: 70 }, (_, i) => `./w${i}.json`) }) };
    for (let i = 0; i < 70; i++) wide[`w${i}.json`] = '{}';
    expectOneLine(run(['a.msg.md'], { cwd: repository(wide) }), /^msglint: \.msglintrc\.json: "extends" reaches more than 64 config files, this one included$/);
  });
});
