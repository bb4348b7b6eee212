// Config discovery and parsing in-process (the API the language server reuses).

import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ConfigError,
  ConfigResolver,
  clearConfigCache,
  createIgnoreMatcher,
  loadConfigForFile,
} from '../../server/config/index.js';
import { allRules } from '../../server/linter.js';
import { writeTree } from '../cli/helpers.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tree(files: Record<string, string>): string {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'msglint-config-')));
  dirs.push(dir);
  writeTree(dir, files);
  return dir;
}

function configError(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('config discovery', () => {
  it('uses the nearest config without merging parents', () => {
    const dir = tree({
      '.msglintrc.json': '{"agents": ["outer"], "languages": ["cobol"]}',
      'a/.msglintrc.yaml': 'agents: [inner]\n',
      'a/b/c/x.msg.md': '',
    });
    expect(loadConfigForFile(path.join(dir, 'a/b/c/x.msg.md'), allRules)).toEqual({
      config: { agents: ['inner'] },
      configPath: path.join(dir, 'a/.msglintrc.yaml'),
    });
    expect(loadConfigForFile(path.join(dir, 'y.msg.md'), allRules).config).toEqual({ agents: ['outer'], languages: ['cobol'] });
  });

  it('stops at the first config found, so nothing above a root config is read', () => {
    const dir = tree({ '.msglintrc.json': '{ broken', 'p/.msglintrc.json': '{"root": true}' });
    expect(loadConfigForFile(path.join(dir, 'p/q/x.msg.md'), allRules).config).toEqual({ root: true });
    expect(configError(() => loadConfigForFile(path.join(dir, 'x.msg.md'), allRules)).message).toMatch(/invalid JSON/);
  });

  it('prefers .msglintrc.json, then .yaml, then .yml, then package.json in one directory', () => {
    const dir = tree({
      'one/.msglintrc.json': '{"agents": ["json"]}',
      'one/.msglintrc.yaml': 'agents: [yaml]',
      'two/.msglintrc.yml': 'agents: [yml]',
      'two/package.json': '{"msglint": {"agents": ["pkg"]}}',
      'three/package.json': '{"msglint": {"agents": ["pkg"]}}',
    });
    const agents = (sub: string) => new ConfigResolver(allRules).forFile(path.join(dir, sub, 'x.msg.md')).config.agents;
    expect(agents('one')).toEqual(['json']);
    expect(agents('two')).toEqual(['yml']);
    expect(agents('three')).toEqual(['pkg']);
  });

  it('skips a package.json without a "msglint" key', () => {
    const dir = tree({ '.msglintrc.yml': 'agents: [top]', 'pkg/package.json': '{"name": "x"}' });
    expect(new ConfigResolver(allRules).forFile(path.join(dir, 'pkg/x.msg.md')).configPath).toBe(path.join(dir, '.msglintrc.yml'));
  });

  it('returns the empty config when there is none (no configPath)', () => {
    // The temporary directory's ancestors are assumed to hold no msglint config.
    const dir = tree({});
    expect(new ConfigResolver(allRules).forFile(path.join(dir, 'x.msg.md'))).toMatchObject({ config: {} });
    expect(loadConfigForFile(path.join(dir, 'x.msg.md'), allRules).configPath).toBeUndefined();
  });

  it('caches per directory until cleared', () => {
    const dir = tree({ '.msglintrc.json': '{"agents": ["before"]}' });
    const file = path.join(dir, 'x.msg.md');
    expect(loadConfigForFile(file, allRules).config.agents).toEqual(['before']);
    writeFileSync(path.join(dir, '.msglintrc.json'), '{"agents": ["after"]}');
    expect(loadConfigForFile(file, allRules).config.agents).toEqual(['before']);
    clearConfigCache();
    expect(loadConfigForFile(file, allRules).config.agents).toEqual(['after']);
  });

  it('uses only the explicit config file when given one', () => {
    const dir = tree({ 'custom.yaml': 'agents: [explicit]', 'sub/.msglintrc.json': '{"agents": ["near"]}' });
    const resolver = new ConfigResolver(allRules, path.join(dir, 'custom.yaml'));
    expect(resolver.forFile(path.join(dir, 'sub/x.msg.md'))).toMatchObject({
      config: { agents: ['explicit'] },
      configPath: path.join(dir, 'custom.yaml'),
    });
    expect(configError(() => new ConfigResolver(allRules, path.join(dir, 'missing.json'))).message).toMatch(
      /missing\.json: cannot read config file: no such file or directory$/,
    );
    const noKey = tree({ 'package.json': '{"name": "x"}' });
    expect(configError(() => new ConfigResolver(allRules, path.join(noKey, 'package.json'))).message).toMatch(/no "msglint" key$/);
  });
});

describe('config parsing errors', () => {
  it('reports broken JSON with line and column', () => {
    const dir = tree({ '.msglintrc.json': '{\n  "agents": ["a"]\n  "root": true\n}\n' });
    const error = configError(() => new ConfigResolver(allRules).forFile(path.join(dir, 'x.msg.md')));
    expect(error.message).toMatch(/\.msglintrc\.json: invalid JSON: expected ',' \(line 3, column 3\)$/);
    expect(error.configPath).toBe(path.join(dir, '.msglintrc.json'));
  });

  it('reports broken YAML on one line with its position', () => {
    const dir = tree({ '.msglintrc.yaml': 'agents: [a, b\nrules: x: y\n' });
    const error = configError(() => new ConfigResolver(allRules).forFile(path.join(dir, 'x.msg.md')));
    expect(error.message).toMatch(/\.msglintrc\.yaml: invalid YAML: .* at line \d+, column \d+$/);
    expect(error.message).not.toContain('\n');
  });

  it('treats an empty YAML file as an empty config and tolerates a BOM', () => {
    const dir = tree({ 'a/.msglintrc.yml': '', 'b/.msglintrc.json': '\ufeff{"agents": ["bom"]}' });
    const resolver = new ConfigResolver(allRules);
    expect(resolver.forFile(path.join(dir, 'a/x.msg.md')).config).toEqual({});
    expect(resolver.forFile(path.join(dir, 'b/x.msg.md')).config).toEqual({ agents: ['bom'] });
  });

  it('labels schema errors with the config path', () => {
    const dir = tree({ 'package.json': '{"msglint": {"agents": "x"}}' });
    const error = configError(() => new ConfigResolver(allRules).forFile(path.join(dir, 'x.msg.md')));
    expect(error.message).toMatch(/package\.json: "msglint\.agents" must be an array of strings, got a string$/);
    expect(error.configPath).toBe(path.join(dir, 'package.json'));
  });
});

describe('JSON with comments (issue 47, point 4)', () => {
  const COMMENTED = '{\n  // who else writes here\n  "agents": ["reviewer", /* for now */ "coder",],\n  "rules": { "cell-marker": "off", },\n}\n';

  it('reads comments and trailing commas in a .msglintrc.json', () => {
    const dir = tree({ '.msglintrc.json': COMMENTED });
    expect(new ConfigResolver(allRules).forFile(path.join(dir, 'x.msg.md')).config).toEqual({ agents: ['reviewer', 'coder'], rules: { 'cell-marker': 'off' } });
  });

  it('finds a .msglintrc.jsonc: after .msglintrc.json in one folder, before .msglintrc.yaml', () => {
    const dir = tree({
      'only/.msglintrc.jsonc': COMMENTED,
      'both/.msglintrc.json': '{"agents": ["json"]}',
      'both/.msglintrc.jsonc': '{"agents": ["jsonc"]}',
      'yaml/.msglintrc.jsonc': '{"agents": ["jsonc"]} // beside YAML',
      'yaml/.msglintrc.yaml': 'agents: [yaml]\n',
    });
    const resolver = new ConfigResolver(allRules);
    const found = (sub: string) => resolver.forFile(path.join(dir, sub, 'x.msg.md'));
    expect(found('only')).toMatchObject({ config: { agents: ['reviewer', 'coder'] }, configPath: path.join(dir, 'only/.msglintrc.jsonc') });
    expect(found('both').config.agents).toEqual(['json']);
    expect(found('yaml').config.agents).toEqual(['jsonc']);
  });

  it('extends a .jsonc file, and one -c names', () => {
    const dir = tree({ '.msglintrc.json': '{"extends": "./shared/base.jsonc"}', 'shared/base.jsonc': COMMENTED });
    expect(new ConfigResolver(allRules).forFile(path.join(dir, 'x.msg.md')).config.agents).toEqual(['reviewer', 'coder']);
    expect(new ConfigResolver(allRules, path.join(dir, 'shared/base.jsonc')).forFile(path.join(dir, 'x.msg.md')).config.agents).toEqual(['reviewer', 'coder']);
  });

  it('reads a package.json as npm does, as JSON: a comment or a trailing comma is an error with its place', () => {
    const dir = tree({ 'a/package.json': '{\n  // the config\n  "msglint": {}\n}\n', 'b/package.json': '{"msglint": {"agents": ["x"],}}' });
    const error = (sub: string) => configError(() => new ConfigResolver(allRules).forFile(path.join(dir, sub, 'x.msg.md'))).message;
    expect(error('a')).toMatch(/package\.json: invalid JSON: a comment, which package\.json may not hold \(line 2, column 3\)$/);
    expect(error('b')).toMatch(/package\.json: invalid JSON: expected a property name \(line 1, column 30\)$/);
  });

  it('keeps "__proto__" a key of its own, as JSON.parse does (an unknown key, not a prototype lending its keys)', () => {
    const dir = tree({ '.msglintrc.jsonc': '{"__proto__": {"root": true}}' });
    expect(configError(() => new ConfigResolver(allRules).forFile(path.join(dir, 'x.msg.md'))).message).toMatch(/unknown key "__proto__"/);
  });
});

describe('ignores', () => {
  const base = path.join(os.tmpdir(), 'project');
  const at = (p: string) => path.join(base, p);

  it('matches like .gitignore: names anywhere, slashed patterns anchored, parents included', () => {
    const isIgnored = createIgnoreMatcher(['*.draft.msg.md', 'drafts', 'docs/old/**', '/top.msg.md', 'gen/'], base);
    expect(isIgnored(at('a.draft.msg.md'))).toBe(true);
    expect(isIgnored(at('x/y/a.draft.msg.md'))).toBe(true);
    expect(isIgnored(at('x/drafts/a.msg.md'))).toBe(true);
    expect(isIgnored(at('docs/old'))).toBe(true);
    expect(isIgnored(at('docs/old/deep/a.msg.md'))).toBe(true);
    expect(isIgnored(at('x/docs/old/a.msg.md'))).toBe(false);
    expect(isIgnored(at('top.msg.md'))).toBe(true);
    expect(isIgnored(at('x/top.msg.md'))).toBe(false);
    expect(isIgnored(at('gen/a.msg.md'))).toBe(true);
    expect(isIgnored(at('a.msg.md'))).toBe(false);
    expect(isIgnored(path.join(os.tmpdir(), 'elsewhere/a.draft.msg.md'))).toBe(false);
    expect(isIgnored(base)).toBe(false);
  });

  it('is exposed on resolved configs, relative to the config directory', () => {
    const dir = tree({ 'sub/.msglintrc.json': '{"ignores": ["skip/**"]}' });
    const config = new ConfigResolver(allRules).forFile(path.join(dir, 'sub/x.msg.md'));
    expect(config.isIgnored(path.join(dir, 'sub/skip/x.msg.md'))).toBe(true);
    expect(config.isIgnored(path.join(dir, 'skip/x.msg.md'))).toBe(false);
  });
});
