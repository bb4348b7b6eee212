// The secret rule through the command, as CI runs it: the finding in JSON,
// SARIF and GitHub output, and --fix redacting only when the config asks.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, makeTree, run, runJson } from './helpers.js';

afterAll(cleanupTempDirs);

// Made, not written out: no key-shaped literal in the repository.
const TOKEN = `glpat-${'Xy7wV3kQ9z'.repeat(2)}Ab`;
const TEXT = ['# %% Setup[^1]', '', '[^1]: [markdown]', '', `git remote set-url origin https://oauth2:${TOKEN}@gitlab.example.org/x.git`, ''].join('\n');
const REDACTED = TEXT.replace(TOKEN, '[REDACTED:GITLAB_TOKEN]');
const REDACT_CONFIG = JSON.stringify({ rules: { secret: ['error', { redact: true }] } });

describe('secret through the command', () => {
  it('fails the run, and JSON carries the kind, the exact range and the suggestion, not the value', () => {
    const dir = makeTree({ 'a.msg.md': TEXT });
    const result = runJson([], { cwd: dir });
    expect(result.status).toBe(1);
    const [m] = result.reports[0]!.messages;
    expect(m).toMatchObject({ ruleId: 'secret', severity: 2, line: 5, message: 'A GitLab access token is written here in plain text: redact it, and revoke it if it is live.' });
    expect(m!.fix).toBeUndefined();
    const column = TEXT.split('\n')[4]!.indexOf(TOKEN) + 1;
    expect([m!.column, m!.endColumn]).toEqual([column, column + TOKEN.length]);
    expect((m as { suggestions?: unknown }).suggestions).toEqual([{ desc: 'Replace it with [REDACTED:GITLAB_TOKEN]', fix: { range: [TEXT.indexOf(TOKEN), TEXT.indexOf(TOKEN) + TOKEN.length], text: '[REDACTED:GITLAB_TOKEN]' } }]);
    expect(JSON.stringify(m!.message)).not.toContain(TOKEN);
  });

  it('is a SARIF error result and a GitHub error annotation', () => {
    const dir = makeTree({ 'a.msg.md': TEXT });
    const sarif = run(['--format', 'sarif'], { cwd: dir });
    expect(sarif.status).toBe(1);
    const log = JSON.parse(sarif.stdout) as { runs: { results: { ruleId: string; level: string }[]; tool: { driver: { rules: { id: string }[] } } }[] };
    expect(log.runs[0]!.results).toMatchObject([{ ruleId: 'secret', level: 'error' }]);
    expect(log.runs[0]!.tool.driver.rules.map((r) => r.id)).toContain('secret');
    const github = run(['--format', 'github'], { cwd: dir });
    expect(github.stdout).toMatch(/^::error file=a\.msg\.md,line=5,.*title=secret.*::A GitLab access token/m);
    expect(github.stdout).not.toContain(TOKEN);
  });

  it('--fix leaves the secret without the option: redacting changes the record on purpose', () => {
    const dir = makeTree({ 'a.msg.md': TEXT });
    expect(run(['--fix'], { cwd: dir }).status).toBe(1);
    expect(readFileSync(path.join(dir, 'a.msg.md'), 'utf8')).toBe(TEXT);
  });

  it('--fix redacts with { "redact": true }, and the run then passes', () => {
    const dir = makeTree({ 'a.msg.md': TEXT, '.msglintrc.json': REDACT_CONFIG });
    expect(run(['--fix'], { cwd: dir })).toEqual({ status: 0, stdout: '', stderr: '' });
    expect(readFileSync(path.join(dir, 'a.msg.md'), 'utf8')).toBe(REDACTED);
    expect(run([], { cwd: dir }).status).toBe(0);
  });

  it('rejects a bad option with exit code 2', () => {
    const dir = makeTree({ 'a.msg.md': TEXT, '.msglintrc.json': JSON.stringify({ rules: { secret: ['error', { redact: 'yes' }] } }) });
    const result = run([], { cwd: dir });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('"redact" must be true or false');
  });
});
