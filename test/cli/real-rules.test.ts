// End-to-end tests that depend on what the real rules report for obvious
// cases: `#%% [^1]` is a cell-marker error whose fix gives `# %% [^1]`, and
// `# %% Hi` without an id is a cell-id-missing warning.

import { chmodSync, existsSync, lstatSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, describe, expect, it } from 'vitest';
import {
  CELL_ID_MISSING,
  CELL_MARKER,
  CLEAN,
  ROOT,
  cleanupTempDirs,
  lines,
  makeTree,
  run,
  runJson,
} from './helpers.js';

afterAll(cleanupTempDirs);

const FIXED_CELL_MARKER = CELL_MARKER.replace('#%%', '# %%');
const ESC = '\u001b[';

describe('with the real rules', () => {
  describe('reports and exit codes', () => {
    it('reports cell-marker as a fixable error and exits 1', () => {
      const dir = makeTree({ 'a.msg.md': CELL_MARKER, 'b.msg.md': CLEAN });
      const result = runJson([], { cwd: dir });
      expect(result.status).toBe(1);
      const a = result.reports.find((r) => r.filePath === path.join(dir, 'a.msg.md'))!;
      expect(a).toMatchObject({ errorCount: 1, warningCount: 0, fixableErrorCount: 1, fixableWarningCount: 0 });
      expect(a.messages).toHaveLength(1);
      expect(a.messages[0]).toMatchObject({ ruleId: 'cell-marker', severity: 2, line: 1 });
      expect(a.messages[0]!.fix).toBeDefined();
      const b = result.reports.find((r) => r.filePath === path.join(dir, 'b.msg.md'))!;
      expect(b).toMatchObject({ messages: [], errorCount: 0, warningCount: 0 });
    });

    it('prints ESLint-style stylish output', () => {
      const dir = makeTree({ 'docs/a.msg.md': CELL_MARKER, 'docs/b.msg.md': CELL_ID_MISSING });
      const result = run([], { cwd: dir });
      expect(result.status).toBe(1);
      expect(result.stdout).not.toContain(ESC);
      const out = result.stdout.split('\n');
      expect(out[0]).toBe('');
      expect(out[1]).toBe('docs/a.msg.md');
      expect(out[2]).toMatch(/^  1:\d+\s+error\s+\S.*\S  cell-marker$/);
      expect(out).toContain('docs/b.msg.md');
      expect(result.stdout).toMatch(/^  1:1\s+warning\s+\S.*\S  cell-id-missing$/m);
      expect(result.stdout).toContain('\n\u2716 2 problems (1 error, 1 warning)\n');
      expect(result.stdout).toContain('\n  1 error and 1 warning potentially fixable with the --fix option.\n');
    });

    it('exits 0 for warnings only, 1 above --max-warnings', () => {
      const dir = makeTree({ 'a.msg.md': CELL_ID_MISSING });
      expect(run([], { cwd: dir }).status).toBe(0);
      expect(run(['--max-warnings', '1'], { cwd: dir }).status).toBe(0);
      const over = run(['--max-warnings', '0'], { cwd: dir });
      expect(over.status).toBe(1);
      expect(lines(over.stderr)).toEqual(['msglint: too many warnings (1, maximum 0)']);
    });

    it('--quiet reports errors only', () => {
      const dir = makeTree({ 'a.msg.md': CELL_ID_MISSING, 'b.msg.md': CELL_MARKER });
      const result = runJson(['--quiet'], { cwd: dir });
      expect(result.status).toBe(1);
      const messages = result.reports.flatMap((r) => r.messages);
      expect(messages.map((m) => m.ruleId)).toEqual(['cell-marker']);
      expect(result.reports.reduce((n, r) => n + r.warningCount, 0)).toBe(0);
      expect(run(['--quiet', 'a.msg.md'], { cwd: dir })).toEqual({ status: 0, stdout: '', stderr: '' });
    });

    it('--rule overrides the default and the config', () => {
      const dir = makeTree({ 'a.msg.md': CELL_ID_MISSING, 'b.msg.md': CELL_MARKER });
      expect(run(['--rule', 'cell-id-missing:error', 'a.msg.md'], { cwd: dir }).status).toBe(1);
      const off = runJson(['--rule', 'cell-marker:off', '--rule=cell-id-missing:0'], { cwd: dir });
      expect(off.status).toBe(0);
      expect(off.reports.flatMap((r) => r.messages)).toEqual([]);
      writeFileSync(path.join(dir, '.msglintrc.json'), '{"rules": {"cell-marker": "off", "cell-id-missing": "error"}}');
      expect(runJson([], { cwd: dir }).reports.flatMap((r) => r.messages.map((m) => [m.ruleId, m.severity]))).toEqual([
        ['cell-id-missing', 2],
      ]);
      expect(runJson(['--rule', 'cell-marker:warn'], { cwd: dir }).reports.flatMap((r) => r.messages.map((m) => m.ruleId)).sort()).toEqual([
        'cell-id-missing',
        'cell-marker',
      ]);
    });

    it('honours disable comments and --report-unused-disable-directives', () => {
      const dir = makeTree({
        'a.msg.md': `<!-- msglint-disable-next-line cell-marker -->\n${CELL_MARKER}`,
        'b.msg.md': `<!-- msglint-disable-next-line cell-marker -->\n${CLEAN}`,
      });
      expect(run([], { cwd: dir }).status).toBe(0);
      const result = runJson(['--report-unused-disable-directives'], { cwd: dir });
      expect(result.reports.flatMap((r) => r.messages.map((m) => `${path.basename(r.filePath)} ${m.ruleId}`))).toEqual([
        'b.msg.md unused-disable',
      ]);
    });
  });

  describe('fixing', () => {
    it('--fix writes only changed files, atomically, keeping the mode', () => {
      const dir = makeTree({ 'a.msg.md': CELL_MARKER, 'b.msg.md': CLEAN });
      const a = path.join(dir, 'a.msg.md');
      const b = path.join(dir, 'b.msg.md');
      chmodSync(a, 0o640);
      const before = statSync(b);
      const result = run(['--fix'], { cwd: dir });
      expect(result).toEqual({ status: 0, stdout: '', stderr: '' });
      expect(readFileSync(a, 'utf8')).toBe(FIXED_CELL_MARKER);
      expect(statSync(a).mode & 0o777).toBe(0o640);
      const after = statSync(b);
      expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
      expect(readdirSync(dir).filter((name) => name.includes('msglint-tmp'))).toEqual([]);
    });

    it('--fix reports what remains and includes the output in JSON', () => {
      const dir = makeTree({ 'a.msg.md': CELL_MARKER + '\n# %% Second\n\nText.\n' });
      const result = runJson(['--fix', '--rule', 'cell-id-missing:off'], { cwd: dir });
      expect(result.reports[0]!.output).toBe(readFileSync(path.join(dir, 'a.msg.md'), 'utf8'));
      expect(result.reports[0]!.output!.startsWith('# %% [^1]')).toBe(true);
    });

    it('--fix-dry-run computes fixes but writes nothing', () => {
      const dir = makeTree({ 'a.msg.md': CELL_MARKER });
      const file = path.join(dir, 'a.msg.md');
      const before = statSync(file);
      const result = runJson(['--fix-dry-run'], { cwd: dir });
      expect(result.status).toBe(0);
      expect(result.reports[0]!.output).toBe(FIXED_CELL_MARKER);
      expect(result.reports[0]!.messages).toEqual([]);
      expect(readFileSync(file, 'utf8')).toBe(CELL_MARKER);
      expect(statSync(file).mtimeMs).toBe(before.mtimeMs);
    });

    it('--fix-dry-run works on standard input', () => {
      const result = runJson(['--stdin', '--fix-dry-run'], { cwd: makeTree(), input: CELL_MARKER });
      expect(result.reports[0]!.output).toBe(FIXED_CELL_MARKER);
    });

    it('follows a symlink instead of replacing it', () => {
      const dir = makeTree({ 'real/a.msg.md': CELL_MARKER });
      const link = path.join(dir, 'link.msg.md');
      symlinkSync(path.join(dir, 'real/a.msg.md'), link);
      expect(run(['--fix', 'link.msg.md'], { cwd: dir }).status).toBe(0);
      expect(readFileSync(path.join(dir, 'real/a.msg.md'), 'utf8')).toBe(FIXED_CELL_MARKER);
      expect(lstatSync(link).isSymbolicLink()).toBe(true);
    });
  });

  describe('formats', () => {
    it('sarif: a SARIF 2.1.0 log GitHub code scanning accepts', () => {
      const dir = makeTree({ 'docs/a b.msg.md': CELL_MARKER, 'c.msg.md': CELL_ID_MISSING });
      const result = run(['--format', 'sarif'], { cwd: dir });
      expect(result.status).toBe(1);
      const log = JSON.parse(result.stdout);
      expect(log.version).toBe('2.1.0');
      expect(log.$schema).toMatch(/sarif-2\.1\.0/);
      expect(log.runs).toHaveLength(1);
      const [runLog] = log.runs;
      const driver = runLog.tool.driver;
      expect(driver.name).toBe('msglint');
      expect(driver.version).toMatch(/^\d+\.\d+\.\d+/);
      // The repository, where the docs are: msglint has no registry page yet (issue 47).
      expect(driver.informationUri).toMatch(/^https:\/\/github\.com\/msglint\/msglint\b/);
      const ids = driver.rules.map((r: { id: string }) => r.id);
      expect(new Set(ids).size).toBe(ids.length);
      for (const rule of driver.rules) {
        expect(rule.shortDescription.text).toBeTruthy();
        expect(['error', 'warning']).toContain(rule.defaultConfiguration.level);
        expect(rule.helpUri).toMatch(/^https?:\/\//);
      }
      const byRule = Object.fromEntries(runLog.results.map((r: { ruleId: string }) => [r.ruleId, r]));
      const marker = byRule['cell-marker'];
      expect(driver.rules[marker.ruleIndex].id).toBe('cell-marker');
      expect(marker.level).toBe('error');
      expect(marker.message.text).toBeTruthy();
      const location = marker.locations[0].physicalLocation;
      expect(location.artifactLocation.uri).toBe('docs/a%20b.msg.md');
      expect(location.region).toMatchObject({ startLine: 1, endLine: 1 });
      expect(location.region.startColumn).toBeGreaterThanOrEqual(1);
      expect(location.region.endColumn).toBeGreaterThanOrEqual(location.region.startColumn);
      expect(byRule['cell-id-missing'].level).toBe('warning');
    });

    it('github: one workflow command per message', () => {
      const dir = makeTree({ 'docs/a.msg.md': CELL_MARKER, 'c.msg.md': CELL_ID_MISSING });
      const result = run(['--format', 'github'], { cwd: dir });
      expect(result.status).toBe(1);
      const out = lines(result.stdout);
      expect(out).toHaveLength(2);
      expect(out[0]).toMatch(/^::warning file=c\.msg\.md,line=1,col=1,endLine=1,endColumn=\d+,title=cell-id-missing::\S/);
      expect(out[1]).toMatch(/^::error file=docs\/a\.msg\.md,line=1,col=\d+,endLine=1,endColumn=\d+,title=cell-marker::\S/);
    });

    it('junit: a testsuite per file, a failure per message, a passing case for a clean file', () => {
      const dir = makeTree({ 'a.msg.md': CELL_MARKER, 'b.msg.md': CLEAN });
      const result = run(['--format', 'junit'], { cwd: dir });
      expect(result.status).toBe(1);
      const xml = new XMLParser({ ignoreAttributes: false, isArray: (name) => ['testsuite', 'testcase'].includes(name) }).parse(
        result.stdout,
      );
      const suites = xml.testsuites.testsuite;
      expect(suites.map((s: Record<string, string>) => s['@_name'])).toEqual(['a.msg.md', 'b.msg.md']);
      expect(suites[0]['@_failures']).toBe('1');
      expect(suites[0].testcase[0].failure['@_type']).toBe('error');
      expect(suites[0].testcase[0].failure['#text']).toContain('cell-marker');
      expect(suites[1]['@_failures']).toBe('0');
      expect(suites[1].testcase).toHaveLength(1);
      expect(suites[1].testcase[0].failure).toBeUndefined();
    });
  });

  describe('colour', () => {
    const dir = () => makeTree({ 'a.msg.md': CELL_MARKER });
    it('is off when stdout is not a terminal, on with --color or FORCE_COLOR', () => {
      const d = dir();
      expect(run([], { cwd: d }).stdout).not.toContain(ESC);
      expect(run(['--color'], { cwd: d }).stdout).toContain(ESC);
      expect(run([], { cwd: d, env: { FORCE_COLOR: '1' } }).stdout).toContain(ESC);
      expect(run([], { cwd: d, env: { FORCE_COLOR: '0' } }).stdout).not.toContain(ESC);
      expect(run(['--color'], { cwd: d, env: { NO_COLOR: '1' } }).stdout).toContain(ESC);
      expect(run(['--no-color'], { cwd: d, env: { FORCE_COLOR: '1' } }).stdout).not.toContain(ESC);
    });
  });

  describe('robustness', () => {
    it('lints a marker line of 100,000 "[^" quickly (no quadratic scan)', () => {
      const dir = makeTree({ 'a.msg.md': `#%% ${'[^'.repeat(100_000)}\n`, 'b.msg.md': `# %% x${'[^'.repeat(100_000)}\n` });
      const result = run(['--format', 'json'], { cwd: dir, timeout: 15_000 });
      expect([0, 1]).toContain(result.status);
    });
  });

  describe('msglint rules', () => {
    it('lists the rules with group, severity, fixability and docs', () => {
      const rules = JSON.parse(run(['rules', '--format', 'json'], { cwd: ROOT }).stdout) as Record<string, unknown>[];
      expect(rules.find((r) => r.id === 'cell-marker')).toMatchObject({
        group: 'structure',
        severity: 'error',
        fixable: 'fix',
        docs: expect.stringMatching(/^https?:\/\//),
      });
      expect(rules.find((r) => r.id === 'cell-id-missing')).toMatchObject({ severity: 'warning', fixable: 'fix' });
    });

    // A copy of the catalog's tables (test/fixtures/catalog/README.md says where from).
    const catalog = path.join(ROOT, 'test/fixtures/catalog/rules.json');
    it('has every rule of the catalog with its severity and fix, and no other but the disable-comment rules', () => {
      const rows = JSON.parse(readFileSync(catalog, 'utf8')) as { id: string; severity: string; fix: string | null }[];
      expect(rows.length).toBeGreaterThan(40);
      const rules = JSON.parse(run(['rules', '--format', 'json'], { cwd: ROOT }).stdout) as { id: string; severity: string; fixable: string | null }[];
      for (const row of rows) {
        expect(rules.find((r) => r.id === row.id), row.id).toMatchObject({ severity: row.severity, fixable: row.fix });
      }
      const extra = rules.filter((r) => !rows.some((row) => row.id === r.id)).map((r) => r.id);
      expect(extra).toEqual(['file-too-large', 'file-encoding', 'unknown-rule', 'unused-disable']);
    });
  });
});
