// action.yml, the GitHub Action: its shape as GitHub reads it, and its
// script run with bash as the runner runs it (inputs through `env`,
// GITHUB_ACTION_PATH at this checkout, whose dist/ `npm test` builds), on
// clean and broken folders. setup-node is GitHub's to run; only its inputs
// are checked.

import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { ROOT } from './textmate.js';

interface Step {
  uses?: string;
  with?: Record<string, string>;
  shell?: string;
  run?: string;
  env?: Record<string, string>;
  'working-directory'?: string;
}
interface Action {
  name: string;
  inputs: Record<string, { default?: string; required?: boolean; description: string }>;
  runs: { using: string; steps: Step[] };
}

const action = parseYaml(readFileSync(path.join(ROOT, 'action.yml'), 'utf8')) as Action;
const CLI = path.join(ROOT, 'dist/cli/main.js');

const tmp: string[] = [];
afterAll(() => tmp.forEach((d) => rmSync(d, { recursive: true, force: true })));

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'msglint-action-'));
  tmp.push(dir);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

/** `${{ inputs.NAME }}` as GitHub expands it: the value given, or the input's default. */
function expand(text: string, given: Record<string, string>): string {
  return text.replace(/\$\{\{\s*inputs\.([\w-]+)\s*\}\}/g, (_, name: string) => given[name] ?? action.inputs[name]?.default ?? '');
}

/** Runs the action's bash step in `workspace` with these inputs, as a runner would; `bin`: a folder put first on PATH. */
function runAction(workspace: string, given: Record<string, string> = {}, bin?: string) {
  const step = action.runs.steps.find((s) => s.run)!;
  const PATH = bin ? `${bin}${path.delimiter}${process.env.PATH}` : process.env.PATH!;
  const env: Record<string, string> = { PATH, HOME: os.homedir(), GITHUB_ACTION_PATH: ROOT, RUNNER_TEMP: folder({}), NO_COLOR: '1' };
  for (const [name, value] of Object.entries(step.env ?? {})) env[name] = expand(value, given);
  const cwd = path.resolve(workspace, expand(step['working-directory'] ?? '.', given));
  const r = spawnSync('bash', ['--noprofile', '--norc', '-e', '-o', 'pipefail', '-c', step.run!], { cwd, env, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const CLEAN = '# %% Hi[^1]\n\n[^1]: [markdown]\n\nHello.\n';
const BROKEN = '#%% Hi[^1]\n\n[^1]: [markdown]\n\nHello.\n';
const NO_ID = '# %% Hi\n\nHello.\n';

describe('action.yml', () => {
  it('is a composite action that sets up Node and runs msglint --format github, inputs reaching the script only through env', () => {
    expect(action.runs.using).toBe('composite');
    const [setup, lint] = action.runs.steps;
    expect(setup!.uses).toMatch(/^actions\/setup-node@v\d+$/);
    expect(setup!.with).toEqual({ 'node-version': '${{ inputs.node-version }}' });
    expect(lint!.shell).toBe('bash');
    expect(lint!.run).toContain('--format github');
    // An input pasted into the script would run as shell code.
    expect(lint!.run).not.toContain('${{');
    const used = new Set([...JSON.stringify(action.runs.steps).matchAll(/inputs\.([\w-]+)/g)].map((m) => m[1]));
    expect([...used].sort()).toEqual(Object.keys(action.inputs).sort());
    for (const input of Object.values(action.inputs)) expect(input.description.length).toBeGreaterThan(0);
  });

  it.skipIf(!existsSync(CLI))('passes on clean files quietly, and annotates and fails on errors', () => {
    expect(runAction(folder({ 'a.msg.md': CLEAN }))).toEqual({ status: 0, stdout: '', stderr: '' });
    const broken = runAction(folder({ 'a.msg.md': CLEAN, 'docs/b.msg.md': BROKEN }));
    expect(broken.status).toBe(1);
    expect(broken.stdout).toMatch(/^::error file=docs\/b\.msg\.md,line=1,col=1,.*title=cell-marker::/m);
  });

  it.skipIf(!existsSync(CLI))('takes paths and globs on lines or between blanks, options and a working directory', () => {
    const dir = folder({ 'site/docs/a.msg.md': NO_ID, 'site/other/b.msg.md': BROKEN });
    const warned = runAction(dir, { 'working-directory': 'site', paths: 'docs/*.msg.md\n', args: '--max-warnings 0' });
    expect(warned.status).toBe(1);
    expect(warned.stdout).toMatch(/^::warning file=docs\/a\.msg\.md,.*title=cell-id-missing::/m);
    expect(warned.stdout).not.toContain('other/b.msg.md');
    expect(warned.stderr).toContain('too many warnings');
    expect(runAction(dir, { 'working-directory': 'site', paths: 'docs other' }).stdout).toContain('file=other/b.msg.md');
  });

  it.skipIf(!existsSync(CLI))("runs its own msglint, never the checkout's node_modules/.bin/msglint unless use-project-msglint asks (issue 45, point 10)", () => {
    const dir = folder({ 'a.msg.md': BROKEN });
    const marker = path.join(dir, 'ran');
    // What a pull request could commit: a script that runs with the job's token.
    executable(path.join(dir, 'node_modules/.bin/msglint'), `#!/bin/sh\ntouch "${marker}"\necho "own msglint $*"\n`);
    const own = runAction(dir, { paths: 'a.msg.md' });
    expect(existsSync(marker)).toBe(false);
    expect(own.status).toBe(1);
    expect(own.stdout).toMatch(/^::error file=a\.msg\.md,line=1,col=1,.*title=cell-marker::/m);
    expect(runAction(dir, { paths: 'a.msg.md', 'use-project-msglint': 'false' }).status).toBe(1);
    expect(existsSync(marker)).toBe(false);

    expect(runAction(dir, { paths: 'a.msg.md', 'use-project-msglint': 'true' })).toEqual({ status: 0, stdout: 'own msglint --format github a.msg.md\n', stderr: '' });
    expect(existsSync(marker)).toBe(true);
  });

  it('use-project-msglint: true or false, with a msglint to run, and not with version', () => {
    const none = folder({ 'a.msg.md': CLEAN });
    const refused = (given: Record<string, string>, why: RegExp) => {
      const r = runAction(none, given);
      expect(r.status).toBe(2);
      expect(r.stdout).toMatch(new RegExp(`^::error title=msglint action::${why.source}[^\n]*\n$`));
    };
    refused({ 'use-project-msglint': 'true' }, /use-project-msglint is true, but there is no node_modules\/\.bin\/msglint/);
    refused({ 'use-project-msglint': 'yes' }, /use-project-msglint must be true or false/);
    refused({ 'use-project-msglint': 'true', version: '1.4.0' }, /give version or use-project-msglint, not both/);
  });

  it('version: an exact one, installed outside the workspace, so the checkout decides nothing of what runs', () => {
    const dir = folder({ 'a.msg.md': CLEAN, '.npmrc': 'registry=https://evil.invalid/\n' });
    const marker = path.join(dir, 'ran');
    // npx run in the workspace would take this copy for msglint@1.4.0.
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'x', devDependencies: { msglint: '1.4.0' } }));
    mkdirSync(path.join(dir, 'node_modules/msglint'), { recursive: true });
    writeFileSync(path.join(dir, 'node_modules/msglint/package.json'), JSON.stringify({ name: 'msglint', version: '1.4.0', bin: { msglint: 'evil.sh' } }));
    executable(path.join(dir, 'node_modules/msglint/evil.sh'), `#!/bin/sh\ntouch "${marker}"\n`);
    executable(path.join(dir, 'node_modules/.bin/msglint'), `#!/bin/sh\ntouch "${marker}"\n`);
    // A stand-in for npm that says where it ran and installs a msglint that says how it was called.
    const bin = folder({});
    const log = path.join(bin, 'npm.log');
    executable(
      path.join(bin, 'npm'),
      [
        '#!/bin/bash',
        `echo "$PWD $*" >> "${log}"`,
        'while [ "$1" != --prefix ]; do shift; done',
        'mkdir -p "$2/node_modules/.bin"',
        `printf '#!/bin/sh\\necho "registry msglint $*"\\n' > "$2/node_modules/.bin/msglint"`,
        'chmod +x "$2/node_modules/.bin/msglint"',
        '',
      ].join('\n'),
    );
    const r = runAction(dir, { version: '1.4.0', paths: 'a.msg.md' }, bin);
    expect(r).toEqual({ status: 0, stdout: 'registry msglint --format github a.msg.md\n', stderr: '' });
    expect(existsSync(marker)).toBe(false);
    const [cwd, ...args] = readFileSync(log, 'utf8').trim().split(' ');
    expect(path.relative(dir, cwd!).startsWith('..')).toBe(true);
    expect(args).toContain('msglint@1.4.0');
    expect(args).toContain('--ignore-scripts');

    for (const version of ['latest', '^1.4.0', '1.4', '1.4.0 --registry=x']) {
      const refused = runAction(dir, { version }, bin);
      expect(refused.status).toBe(2);
      expect(refused.stdout).toBe('::error title=msglint action::version must be an exact version, such as 1.4.0\n');
    }
    expect(readFileSync(log, 'utf8').trim().split('\n')).toHaveLength(1);
  });
});

function executable(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  chmodSync(file, 0o755);
}
