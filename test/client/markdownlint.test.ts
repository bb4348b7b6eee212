// The markdownlint config shipped for message files (markdownlint.json,
// `msglint/markdownlint.json` in the package): markdownlint-cli2 with it
// finds nothing in the bundled examples, and it turns off only the three
// rules the format contradicts (cells are headings, tool calls are XML,
// metadata lines are footnote definitions).
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../cli/helpers.js';

const CLI2 = path.join(ROOT, 'node_modules/markdownlint-cli2/markdownlint-cli2-bin.mjs');
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A project with the examples in `conversations/`, msglint installed as a package, and the given folder config. */
function project(folderConfig?: object): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'msglint-mdl-'));
  dirs.push(dir);
  mkdirSync(path.join(dir, 'node_modules'));
  symlinkSync(ROOT, path.join(dir, 'node_modules/msglint'), 'dir');
  cpSync(path.join(ROOT, 'examples'), path.join(dir, 'conversations'), { recursive: true });
  if (folderConfig) writeFileSync(path.join(dir, 'conversations/.markdownlint-cli2.jsonc'), JSON.stringify(folderConfig));
  return dir;
}

function markdownlint(dir: string): { status: number | null; rules: string[]; output: string } {
  const r = spawnSync(process.execPath, [CLI2, 'conversations/**/*.md'], { cwd: dir, encoding: 'utf8', timeout: 30_000 });
  const output = r.stdout + r.stderr;
  return { status: r.status, rules: [...output.matchAll(/ (MD\d{3})\//g)].map((m) => m[1]!), output };
}

const RECIPE = { config: { extends: 'msglint/markdownlint.json' } };

describe('markdownlint.json: markdownlint beside msglint', () => {
  it('without it, markdownlint-cli2 reports the examples (cell headings, <tool>, metadata lines)', () => {
    const { status, rules } = markdownlint(project());
    expect(status).toBe(1);
    expect(new Set(rules)).toEqual(new Set(['MD025', 'MD033', 'MD053']));
  });

  it('with it, as the README sets it up, markdownlint-cli2 finds nothing in the examples', () => {
    const { status, rules, output } = markdownlint(project(RECIPE));
    expect(rules, output).toEqual([]);
    expect(status, output).toBe(0);
  });

  it('turns off only MD025, MD033 and MD053: other rules still report in message files', () => {
    const config = JSON.parse(readFileSync(path.join(ROOT, 'markdownlint.json'), 'utf8')) as Record<string, unknown>;
    const { $schema: _schema, ...rules } = config;
    expect(rules).toEqual({ MD025: false, MD033: false, MD053: false });
    const dir = project(RECIPE);
    // Trailing spaces (MD009) and a heading that skips a level (MD001) in a message file.
    writeFileSync(path.join(dir, 'conversations/untidy.msg.md'), '# %% Hi[^1]   \n\n[^1]: [markdown]\n\n### Too deep\n\nHello.\n');
    const { status, rules: reported } = markdownlint(dir);
    expect(status).toBe(1);
    expect(new Set(reported)).toEqual(new Set(['MD009', 'MD001']));
  });

  it('is in the package, under its own export', () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { files: string[]; exports: Record<string, unknown> };
    expect(pkg.files).toContain('markdownlint.json');
    expect(pkg.exports['./markdownlint.json']).toBe('./markdownlint.json');
  });
});
