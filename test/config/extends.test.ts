// `extends` and `overrides` through the command as a process: relative
// paths and installed packages named as ESLint names shareable configs,
// how settings merge, overrides by glob, `--print-config`, and the errors
// (one line, exit 2).

import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CELL_ID_MISSING, cleanupTempDirs, lines, makeTree, run, runJson, writeTree } from '../cli/helpers.js';

afterAll(cleanupTempDirs);

function printConfig(cwd: string, file: string, ...args: string[]): unknown {
  const result = run(['--print-config', file, ...args], { cwd });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return JSON.parse(result.stdout) as unknown;
}

function expectConfigFailure(cwd: string, pattern: RegExp): void {
  const result = run(['.'], { cwd });
  expect(result.status).toBe(2);
  expect(lines(result.stderr)).toHaveLength(1);
  expect(result.stderr).toMatch(pattern);
}

describe('extends', () => {
  it('merges a relative path under the config: rules by id keeping options, lists joined, root not inherited', () => {
    // In a repository: a config found in it extends files anywhere inside it.
    const dir = makeTree({
      '.git/HEAD': 'ref: refs/heads/main\n',
      'shared/base.yaml': 'root: true\nrules:\n  context-window: [error, {limit: 5}]\n  empty-cell: "off"\nagents: [planner]\nignores: [drafts]\n',
      'shared/strict.json': '{"extends": "./base.yaml", "rules": {"cell-id-missing": "error"}, "agents": ["critic"]}',
      'project/.msglintrc.json': '{"extends": ["../shared/strict.json"], "rules": {"context-window": "warn", "empty-cell": "warn"}, "agents": ["planner", "coder"]}',
    });
    expect(printConfig(path.join(dir, 'project'), 'x.msg.md')).toEqual({
      rules: { 'context-window': ['warn', { limit: 5 }], 'empty-cell': 'warn', 'cell-id-missing': 'error' },
      agents: ['planner', 'critic', 'coder'],
      ignores: ['drafts'],
    });
  });

  it('finds packages as ESLint finds shareable configs: prefixed short names, scopes, files inside, main and exports, up the tree', () => {
    const dir = makeTree({
      'node_modules/msglint-config-team/package.json': '{"name": "msglint-config-team", "main": "index.json"}',
      'node_modules/msglint-config-team/index.json': '{"agents": ["team"]}',
      'node_modules/msglint-config-team/strict.yaml': 'rules: {empty-cell: error}\n',
      'node_modules/@acme/msglint-config/package.json': '{"name": "@acme/msglint-config"}',
      'node_modules/@acme/msglint-config/index.json': '{"languages": ["elixir"]}',
      'node_modules/@acme/msglint-config-strict/package.json': '{"name": "@acme/msglint-config-strict", "exports": {".": "./config.yml"}}',
      'node_modules/@acme/msglint-config-strict/config.yml': 'rules:\n  cell-id-missing: error\n',
      'sub/deeper/.msglintrc.json': '{"extends": ["team", "msglint-config-team/strict.yaml", "@acme", "@acme/strict"]}',
    });
    expect(printConfig(dir, 'sub/deeper/x.msg.md')).toEqual({
      agents: ['team'],
      rules: { 'empty-cell': 'error', 'cell-id-missing': 'error' },
      languages: ['elixir'],
    });
    // The config found applies to linting, too: cell-id-missing is an error now.
    const result = (writeTree(dir, { 'sub/deeper/a.msg.md': CELL_ID_MISSING }), runJson(['sub/deeper'], { cwd: dir }));
    expect(result.reports[0]!.messages.map((m) => [m.ruleId, m.severity])).toEqual([['cell-id-missing', 2]]);
  });

  it('reads JSON with comments wherever it extends: a .jsonc path, and a package whose main is .jsonc', () => {
    const dir = makeTree({
      'node_modules/msglint-config-team/package.json': '{"name": "msglint-config-team", "main": "config.jsonc"}',
      'node_modules/msglint-config-team/config.jsonc': '{\n  // the team\n  "agents": ["team",],\n}\n',
      'shared/base.jsonc': '/* shared */ {"languages": ["elixir"]}',
      '.msglintrc.jsonc': '{\n  "extends": ["team", "./shared/base.jsonc"], // both\n}\n',
    });
    expect(printConfig(dir, 'x.msg.md')).toEqual({ agents: ['team'], languages: ['elixir'] });
  });

  it.each([
    [{ '.msglintrc.json': '{"extends": "nope"}' }, /^msglint: \.msglintrc\.json: "extends": cannot find the package msglint-config-nope \(for "nope"\) from /],
    [{ '.msglintrc.json': '{"extends": "./missing.json"}' }, /^msglint: missing\.json: cannot read config file: no such file or directory$/m],
    [{ '.msglintrc.json': '{"extends": "./a.json"}', 'a.json': '{"extends": "./.msglintrc.json"}' }, /"extends": "\.\/\.msglintrc\.json" leads back to .*\.msglintrc\.json, which is already being read/],
    [{ '.msglintrc.json': '{"extends": "./a.json"}', 'a.json': '{"rules": {"cell-markr": "off"}}' }, /^msglint: a\.json: unknown rule "cell-markr" in "rules" \(did you mean "cell-marker"\?\)$/m],
  ])('fails with one line and exit 2: %j', (files, pattern) => {
    expectConfigFailure(makeTree({ ...files, 'a.msg.md': CELL_ID_MISSING }), pattern);
  });
});

describe('overrides', () => {
  const FILES = {
    '.msglintrc.json': JSON.stringify({
      extends: './team.json',
      rules: { 'cell-id-missing': 'error' },
      overrides: [
        { files: ['drafts/**'], rules: { 'cell-id-missing': 'off' } },
        { files: ['*.review.msg.md'], rules: { 'cell-id-missing': 'warn' }, agents: ['reviewer'] },
      ],
    }),
    // An extended config's overrides come first, and their globs are read from the extending config's directory.
    'team.json': '{"overrides": [{"files": ["drafts/keep/*.msg.md"], "rules": {"cell-id-missing": "error"}}]}',
    'a.msg.md': CELL_ID_MISSING,
    'drafts/b.msg.md': CELL_ID_MISSING,
    'drafts/keep/c.msg.md': CELL_ID_MISSING,
    'notes/d.review.msg.md': CELL_ID_MISSING,
    'drafts/e.review.msg.md': CELL_ID_MISSING,
  };

  it('applies the overrides whose files match, later ones winning, to linting', () => {
    const dir = makeTree(FILES);
    const result = runJson(['.'], { cwd: dir });
    const severities = Object.fromEntries(result.reports.map((r) => [path.relative(dir, r.filePath), r.messages.map((m) => m.severity)]));
    expect(severities).toEqual({
      'a.msg.md': [2],
      'drafts/b.msg.md': [],
      // team.json's override, then drafts/** turns it off again.
      'drafts/keep/c.msg.md': [],
      'drafts/e.review.msg.md': [1],
      'notes/d.review.msg.md': [1],
    });
  });

  it('--print-config shows what applies to one file, with -c and --rule', () => {
    const dir = makeTree(FILES);
    expect(printConfig(dir, 'notes/d.review.msg.md')).toEqual({ rules: { 'cell-id-missing': 'warn' }, agents: ['reviewer'] });
    expect(printConfig(dir, 'a.msg.md', '--rule', 'empty-cell:off')).toEqual({ rules: { 'cell-id-missing': 'error', 'empty-cell': 'off' } });
    expect(printConfig(dir, 'drafts/b.msg.md', '-c', 'team.json')).toEqual({});
    expect(printConfig(makeTree(), 'x.msg.md')).toEqual({});
    const misuse = run(['--print-config', 'a.msg.md', 'b.msg.md'], { cwd: dir });
    expect(misuse.status).toBe(2);
    expect(lines(misuse.stderr)).toEqual(['msglint: --print-config takes one file and no other paths']);
    expect(run(['--print-config', 'a.msg.md', '--fix'], { cwd: dir }).stderr).toBe('msglint: --print-config cannot be combined with --fix\n');
  });
});
