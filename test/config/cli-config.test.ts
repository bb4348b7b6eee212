// Configuration as the CLI process sees it: which config applies (observed
// through `ignores`, which needs no rule to fire) and how bad configs fail.

import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLEAN, STACK_FRAME, cleanupTempDirs, lines, linted, makeTree, run, runJson } from '../cli/helpers.js';

afterAll(cleanupTempDirs);

describe('config discovery (CLI)', () => {
  it('applies the nearest config to each file, without merging', () => {
    const dir = makeTree({
      '.msglintrc.json': '{"ignores": ["a.msg.md"]}',
      'sub/.msglintrc.yaml': 'ignores:\n  - b.msg.md\n',
      'a.msg.md': CLEAN,
      'b.msg.md': CLEAN,
      'sub/a.msg.md': CLEAN,
      'sub/b.msg.md': CLEAN,
      'sub/deeper/a.msg.md': CLEAN,
      'sub/deeper/b.msg.md': CLEAN,
    });
    const result = runJson([], { cwd: dir });
    expect(result.stderr).toBe('');
    expect(linted(result.reports, dir)).toEqual(['b.msg.md', 'sub/a.msg.md', 'sub/deeper/a.msg.md']);
  });

  it('reads comments and trailing commas in .msglintrc.json and .msglintrc.jsonc', () => {
    const dir = makeTree({
      'json/.msglintrc.json': '{\n  // drafts are not checked\n  "ignores": ["drafts",],\n}\n',
      'jsonc/.msglintrc.jsonc': '/* drafts */ {"ignores": ["drafts"],}',
      'json/drafts/a.msg.md': CLEAN,
      'json/b.msg.md': CLEAN,
      'jsonc/drafts/a.msg.md': CLEAN,
      'jsonc/b.msg.md': CLEAN,
    });
    const result = runJson([], { cwd: dir });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(linted(result.reports, dir)).toEqual(['json/b.msg.md', 'jsonc/b.msg.md']);
  });

  it('never reads configs above the one that applies (root: true)', () => {
    const dir = makeTree({
      '.msglintrc.json': '{ this is not JSON',
      'project/.msglintrc.json': '{"root": true, "ignores": ["skip.msg.md"]}',
      'project/a.msg.md': CLEAN,
      'project/skip.msg.md': CLEAN,
    });
    const cwd = path.join(dir, 'project');
    const result = runJson([], { cwd });
    expect(result.status).toBe(0);
    expect(linted(result.reports, cwd)).toEqual(['a.msg.md']);
  });

  it('reads package.json#msglint and makes config ignores relative to the config file', () => {
    const dir = makeTree({
      'package.json': JSON.stringify({ name: 'x', msglint: { ignores: ['drafts/**'] } }),
      'drafts/a.msg.md': CLEAN,
      'docs/drafts/b.msg.md': CLEAN,
      'c.msg.md': CLEAN,
    });
    expect(linted(runJson([], { cwd: dir }).reports, dir)).toEqual(['c.msg.md', 'docs/drafts/b.msg.md']);
    // An ignored file stays ignored when named explicitly.
    expect(runJson(['drafts/a.msg.md'], { cwd: dir }).reports).toEqual([]);
  });

  it('--config uses that file only', () => {
    const dir = makeTree({
      'ci.msglintrc.yml': 'ignores: ["*.gen.msg.md"]\n',
      'sub/.msglintrc.json': '{"bogus": true}',
      'sub/a.msg.md': CLEAN,
      'sub/b.gen.msg.md': CLEAN,
    });
    const result = runJson(['--config', 'ci.msglintrc.yml'], { cwd: dir });
    expect(result.status).toBe(0);
    expect(linted(result.reports, dir)).toEqual(['sub/a.msg.md']);
    // Without --config the nearer, broken config is found.
    expect(run([], { cwd: dir }).status).toBe(2);
  });
});

describe('bad configs exit 2 with one line and no stack trace', () => {
  it.each([
    ['unknown key', '.msglintrc.json', '{"rulez": {}}', /^msglint: \.msglintrc\.json: unknown key "rulez"/],
    ['wrong type', '.msglintrc.json', '{"rules": []}', /^msglint: \.msglintrc\.json: "rules" must be an object/],
    ['wrong list', '.msglintrc.yaml', 'agents: coder\n', /^msglint: \.msglintrc\.yaml: "agents" must be an array of strings/],
    ['unknown rule', '.msglintrc.json', '{"rules": {"no-such-rule": "off"}}', /^msglint: \.msglintrc\.json: unknown rule "no-such-rule"/],
    ['bad severity', '.msglintrc.yml', 'rules:\n  unknown-rule: loud\n', /^msglint: \.msglintrc\.yml: "rules\.unknown-rule": expected/],
    ['broken JSON', '.msglintrc.json', '{\n  "root": true\n  "agents": []\n}', /^msglint: \.msglintrc\.json: invalid JSON: .*\(line 3, column 3\)$/],
    ['broken JSONC', '.msglintrc.jsonc', '{\n  // no comma after true\n  "root": true /* here */\n  "agents": []\n}', /^msglint: \.msglintrc\.jsonc: invalid JSON: expected ',' \(line 4, column 3\)$/],
    ['a comment that does not end', '.msglintrc.jsonc', '{"root": true} /* and', /^msglint: \.msglintrc\.jsonc: invalid JSON: a comment that does not end \(line 1, column 16\)$/],
    ['JSON nested 50,000 deep', '.msglintrc.json', `{"agents": ${'['.repeat(50_000)}`, /^msglint: \.msglintrc\.json: invalid JSON: nested more than 200 levels deep \(line 1, column 211\)$/],
    ['broken YAML', '.msglintrc.yaml', 'ignores: [a\nroot: true\n', /^msglint: \.msglintrc\.yaml: invalid YAML: .*line \d+, column \d+$/],
    ['not an object', '.msglintrc.yaml', '- a\n- b\n', /^msglint: \.msglintrc\.yaml: expected an object, got an array$/],
    // Read by recursion, this could abort Node itself; it is refused first.
    ['YAML nested 50,000 deep', '.msglintrc.yaml', `agents: ${'['.repeat(50_000)}\n`, /^msglint: \.msglintrc\.yaml: invalid YAML: nested more than 200 levels deep \(line 1, column 209\)$/],
    ['package.json', 'package.json', '{"msglint": "strict"}', /^msglint: package\.json: "msglint" must be an object/],
  ])('%s', (_, name, content, pattern) => {
    const dir = makeTree({ [name]: content, 'docs/a.msg.md': CLEAN });
    const result = run([], { cwd: dir });
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(lines(result.stderr)).toHaveLength(1);
    expect(result.stderr.trim()).toMatch(pattern);
    expect(result.stderr).not.toMatch(STACK_FRAME);
  });

  it('reports a missing --config file', () => {
    const dir = makeTree({ 'a.msg.md': CLEAN });
    const result = run(['--config', 'nope.json'], { cwd: dir });
    expect(result.status).toBe(2);
    expect(lines(result.stderr)).toEqual(['msglint: nope.json: cannot read config file: no such file or directory']);
  });

  it('reports a bad config found via --stdin-filename', () => {
    const dir = makeTree({ '.msglintrc.json': '[]' });
    const result = run(['--stdin', '--stdin-filename', 'x.msg.md'], { cwd: dir, input: CLEAN });
    expect(result.status).toBe(2);
    expect(lines(result.stderr)).toEqual(['msglint: .msglintrc.json: expected an object, got an array']);
  });
});
