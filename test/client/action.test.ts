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

/** Runs the action's bash step in `workspace` with these inputs, as a runner would. */
function runAction(workspace: string, given: Record<string, string> = {}) {
  const step = action.runs.steps.find((s) => s.run)!;
  const env: Record<string, string> = { PATH: process.env.PATH!, HOME: os.homedir(), GITHUB_ACTION_PATH: ROOT, NO_COLOR: '1' };
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

  it.skipIf(!existsSync(CLI))("prefers the repository's own msglint (node_modules/.bin) to the action's", () => {
    const dir = folder({ 'a.msg.md': BROKEN });
    const bin = path.join(dir, 'node_modules/.bin/msglint');
    mkdirSync(path.dirname(bin), { recursive: true });
    writeFileSync(bin, `#!/bin/sh\necho "own msglint $*"\n`);
    chmodSync(bin, 0o755);
    expect(runAction(dir, { paths: 'a.msg.md' })).toEqual({ status: 0, stdout: 'own msglint --format github a.msg.md\n', stderr: '' });
  });
});
