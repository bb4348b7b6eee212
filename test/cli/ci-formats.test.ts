// The CI report formats as the command writes them: `--format gitlab`
// (GitLab Code Quality) and `--format rdjson` (reviewdog), each validated
// against its published format (copies in test/fixtures/schemas/, their
// sources noted inside) and checked for what those tools read of it.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, cleanupTempDirs, makeTree, run } from './helpers.js';

afterAll(cleanupTempDirs);

const schema = (name: string): object => JSON.parse(readFileSync(path.join(ROOT, 'test/fixtures/schemas', name), 'utf8')) as object;
const ajv = new Ajv({ allErrors: true, strict: false });
const validGitlab = ajv.compile(schema('gitlab-codequality.schema.json'));
const validRdjson = ajv.compile(schema('rdjson.schema.json'));
const SHOWCASE = readFileSync(path.join(ROOT, 'test/fixtures/showcase.msg.md'), 'utf8');

/** `time` is wrong after two characters that take more bytes in UTF-8 than code units in UTF-16; line 7 has a fixable marker. */
const WIDE = '# %% Café[^1]\n\n[^1]: [markdown] title="naïve ☕" time="yesterday"\n\nHi.\n\n#%% Next[^2]\n\n[^2]: [markdown]\n\nMore.\n';

interface GitlabIssue {
  check_name: string;
  fingerprint: string;
  severity: string;
  location: { path: string; lines: { begin: number; end: number } };
}

function gitlab(cwd: string, args: string[] = ['.']): GitlabIssue[] {
  const result = run(['--format', 'gitlab', ...args], { cwd });
  expect(result.stderr).toBe('');
  const issues = JSON.parse(result.stdout) as GitlabIssue[];
  expect(validGitlab(issues), ajv.errorsText(validGitlab.errors)).toBe(true);
  return issues;
}

describe('--format gitlab', () => {
  it('writes Code Quality issues that the format accepts, an empty array for a clean tree', () => {
    const dir = makeTree({ 'docs/showcase.msg.md': SHOWCASE, 'clean/a.msg.md': '# %% Hi[^1]\n\n[^1]: [markdown]\n\nHello.\n' });
    const issues = gitlab(dir);
    expect(issues.length).toBe(19);
    expect(issues[0]).toMatchObject({ check_name: 'cell-marker', severity: 'major', location: { path: 'docs/showcase.msg.md', lines: { begin: 9, end: 9 } } });
    expect(issues.find((issue) => issue.check_name === 'cell-id-missing')?.severity).toBe('minor');
    expect(new Set(issues.map((issue) => issue.fingerprint)).size).toBe(issues.length);
    expect(gitlab(dir, ['clean'])).toEqual([]);
  });

  it('keeps fingerprints when lines above a problem move, and tells repeats of one problem apart', () => {
    const dir = makeTree({ 'a.msg.md': WIDE });
    const before = gitlab(dir);
    const shifted = makeTree({ 'a.msg.md': WIDE.replace('Hi.\n', 'Hi.\n\nA new paragraph.\n') });
    const after = gitlab(shifted);
    expect(after.map((issue) => issue.location.lines.begin)).toEqual(before.map((issue) => issue.location.lines.begin + (issue.location.lines.begin > 5 ? 2 : 0)));
    expect(after.map((issue) => issue.fingerprint)).toEqual(before.map((issue) => issue.fingerprint));
    const twice = gitlab(makeTree({ 'a.msg.md': WIDE.replace('More.\n', 'More.\n\n#%% Again[^3]\n\n[^3]: [markdown]\n\nAgain.\n') }));
    const markers = twice.filter((issue) => issue.check_name === 'cell-marker');
    expect(markers).toHaveLength(2);
    expect(markers[0]!.fingerprint).not.toBe(markers[1]!.fingerprint);
  });
});

interface RdjsonResult {
  source: { name: string };
  diagnostics: {
    message: string;
    severity: string;
    code: { value: string; url?: string };
    location: { path: string; range: { start: { line: number; column: number }; end: { line: number; column: number } } };
    suggestions?: { range: { start: { line: number; column: number }; end: { line: number; column: number } }; text: string }[];
  }[];
}

function rdjson(cwd: string, args: string[], input?: string): RdjsonResult {
  const result = run(['--format', 'rdjson', ...args], { cwd, ...(input !== undefined ? { input } : {}) });
  expect(result.stderr).toBe('');
  const parsed = JSON.parse(result.stdout) as RdjsonResult;
  expect(validRdjson(parsed), ajv.errorsText(validRdjson.errors)).toBe(true);
  return parsed;
}

/** Applies an rdjson suggestion to text: lines and UTF-8 byte columns, 1-based, end exclusive. */
function applySuggestion(text: string, suggestion: NonNullable<RdjsonResult['diagnostics'][number]['suggestions']>[number]): string {
  const bytes = Buffer.from(text);
  const offset = ({ line, column }: { line: number; column: number }) => {
    let at = 0;
    for (let l = 1; l < line; l++) at = bytes.indexOf(10, at) + 1;
    return at + column - 1;
  };
  const { start, end } = suggestion.range;
  return Buffer.concat([bytes.subarray(0, offset(start)), Buffer.from(suggestion.text), bytes.subarray(offset(end))]).toString();
}

describe('--format rdjson', () => {
  it('writes a DiagnosticResult that the format accepts, with rule codes, their pages and severities', () => {
    const result = rdjson(makeTree({ 'showcase.msg.md': SHOWCASE }), ['.']);
    expect(result.source.name).toBe('msglint');
    expect(result.diagnostics).toHaveLength(19);
    expect(result.diagnostics[0]).toMatchObject({
      severity: 'ERROR',
      code: { value: 'cell-marker', url: expect.stringMatching(/docs\/rules\/cell-marker\.md$/) },
      location: { path: 'showcase.msg.md', range: { start: { line: 9, column: 1 } } },
    });
    expect(result.diagnostics.filter((d) => d.severity === 'WARNING')).toHaveLength(6);
    expect(rdjson(makeTree({ 'a.msg.md': '# %% Hi[^1]\n\n[^1]: [markdown]\n\nHello.\n' }), ['.']).diagnostics).toEqual([]);
  });

  it('counts columns in UTF-8 bytes, and gives each safe fix as a suggestion that yields what --fix writes', () => {
    const dir = makeTree({ 'a.msg.md': WIDE });
    const { diagnostics } = rdjson(dir, ['.']);
    const time = diagnostics.find((d) => d.code.value === 'attribute-value')!;
    const line = WIDE.split('\n')[2]!;
    const start = Buffer.byteLength(line.slice(0, line.indexOf('yesterday') - 1)) + 1;
    expect(time.location.range.start).toEqual({ line: 3, column: start });
    expect(time.location.range.end).toEqual({ line: 3, column: start + '"yesterday"'.length });
    expect(time.suggestions).toBeUndefined();
    const marker = diagnostics.find((d) => d.code.value === 'cell-marker')!;
    expect(marker.suggestions).toHaveLength(1);
    expect(applySuggestion(WIDE, marker.suggestions![0]!)).toBe(run(['--stdin', '--fix'], { cwd: dir, input: WIDE }).stdout);
  });

  it('reports standard input under its name', () => {
    const result = rdjson(makeTree(), ['--stdin', '--stdin-filename', 'chat.msg.md'], WIDE);
    expect(result.diagnostics.map((d) => d.location.path)).toEqual(['chat.msg.md', 'chat.msg.md']);
  });
});
