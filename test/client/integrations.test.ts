// The integration files say what works: the pre-commit hooks run the real
// `msglint` binary, the GitHub Actions workflows parse and their msglint
// commands run as written (from dist/, which `npm test` builds), and the
// editor snippets name the real server binary and flags and parse in their
// own languages where a parser is at hand (Neovim's Lua, Python's TOML).

import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { CLIENT, ROOT } from './textmate.js';

const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> };
const CLI = path.join(ROOT, pkg.bin.msglint!);
const SERVER_BIN = 'msglint-language-server';

/** The fenced code blocks of a Markdown file with the given info string. */
function blocks(file: string, lang: string): string[] {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  return [...text.matchAll(/^```(\S*)\n([\s\S]*?)^```$/gm)].filter((m) => m[1] === lang).map((m) => m[2]!);
}

const tmp: string[] = [];
afterAll(() => tmp.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A folder with the examples and one broken message file. */
function workspace(broken: boolean): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'msglint-integrations-'));
  tmp.push(dir);
  cpSync(path.join(ROOT, 'examples'), path.join(dir, 'examples'), { recursive: true });
  writeFileSync(path.join(dir, 'README.md'), '# Not a message file\n\n#%% ignored here\n');
  if (broken) writeFileSync(path.join(dir, 'broken.msg.md'), '#%% [^1]\n\n[^1]: [markdown]\n\nHello.\n');
  return dir;
}

/** Runs `npx msglint ARGS` (as a workflow or hook writes it) with the built CLI. */
function runMsglint(command: string, cwd: string, files: string[] = []): { status: number | null; stdout: string; stderr: string } {
  const words = command.trim().split(/\s+/);
  const start = words.indexOf('msglint');
  expect(start, command).toBeGreaterThanOrEqual(0);
  const r = spawnSync(process.execPath, [CLI, ...words.slice(start + 1), ...files], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('.pre-commit-hooks.yaml', () => {
  const hooks = parseYaml(readFileSync(path.join(ROOT, '.pre-commit-hooks.yaml'), 'utf8')) as Record<string, unknown>[];

  it('defines msglint (and msglint-fix) as node hooks on .md files', () => {
    expect(hooks.map((h) => h.id)).toEqual(['msglint', 'msglint-fix']);
    const [lint] = hooks;
    // pre-commit passes plain .md files too: each is said as skipped, not an error (issue 47).
    expect(lint).toMatchObject({ id: 'msglint', entry: 'msglint --no-error-on-unmatched-pattern', language: 'node', files: '\\.md$' });
    for (const h of hooks) {
      expect(Object.keys(pkg.bin)).toContain(String(h.entry).split(' ')[0]);
      const files = new RegExp(String(h.files));
      expect(files.test('chat.msg.md') && files.test('docs/notes.md')).toBe(true);
      expect(files.test('notes.mdx') || files.test('notes.txt')).toBe(false);
    }
  });

  it.skipIf(!existsSync(CLI))('runs on the staged .md files as pre-commit passes them', () => {
    const clean = workspace(false);
    const files = ['README.md', 'examples/coding-session.msg.md', 'examples/release-notes.md'];
    expect(runMsglint(String(hooks[0]!.entry), clean, files)).toMatchObject({ status: 0, stdout: '' });
    // A commit of plain Markdown alone passes too.
    expect(runMsglint(String(hooks[0]!.entry), clean, ['README.md'])).toMatchObject({ status: 0, stdout: '' });

    const broken = workspace(true);
    const r = runMsglint(String(hooks[0]!.entry), broken, ['README.md', 'broken.msg.md']);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('cell-marker');

    const fixed = runMsglint(String(hooks[1]!.entry), broken, ['README.md', 'broken.msg.md']);
    expect(fixed.status).toBe(0);
    expect(readFileSync(path.join(broken, 'broken.msg.md'), 'utf8').startsWith('# %% [^1]')).toBe(true);
    expect(readFileSync(path.join(broken, 'README.md'), 'utf8')).toContain('#%% ignored here');
  });
});

describe('docs/integrations/github-actions.md', () => {
  const workflows = blocks('docs/integrations/github-actions.md', 'yaml')
    .map((y) => parseYaml(y) as { name?: string; on?: unknown; jobs?: Record<string, { steps: { run?: string; uses?: string; with?: Record<string, unknown>; if?: string }[] }>; permissions?: Record<string, string> })
    .filter((w) => w.jobs);
  const steps = workflows.flatMap((w) => Object.values(w.jobs!).flatMap((j) => j.steps));
  const commands = steps.map((s) => s.run).filter((r): r is string => !!r && r.includes('msglint'));

  it('has a workflow with --format github and one uploading SARIF', () => {
    // The action's, then one with --format github, then one with SARIF.
    expect(workflows).toHaveLength(3);
    expect(commands.some((c) => c.includes('--format github'))).toBe(true);
    expect(commands.some((c) => c.includes('--format sarif'))).toBe(true);
    const upload = steps.find((s) => s.uses?.startsWith('github/codeql-action/upload-sarif@'));
    expect(upload?.with?.sarif_file).toBe('msglint.sarif');
    expect(upload?.if).toBe('always()');
    expect(workflows[2]!.permissions?.['security-events']).toBe('write');
  });

  it('uses the action with inputs it has', () => {
    const action = parseYaml(readFileSync(path.join(ROOT, 'action.yml'), 'utf8')) as { inputs: Record<string, unknown> };
    const uses = steps.find((s) => s.uses?.startsWith('msglint/msglint@'));
    expect(Object.keys(uses!.with!).every((input) => input in action.inputs)).toBe(true);
  });

  it.skipIf(!existsSync(CLI))('runs its msglint commands as written: quiet and 0 on clean files, annotations and 1 on errors', () => {
    const github = commands.find((c) => c.includes('--format github'))!;
    expect(runMsglint(github, workspace(false))).toMatchObject({ status: 0, stdout: '' });
    const r = runMsglint(github, workspace(true));
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^::error file=.*broken\.msg\.md,line=1,col=1,.*title=cell-marker::/m);

    const sarif = commands.find((c) => c.includes('--format sarif'))!;
    const dir = workspace(true);
    expect(runMsglint(sarif, dir).status).toBe(1);
    const log = JSON.parse(readFileSync(path.join(dir, 'msglint.sarif'), 'utf8'));
    expect(log.version).toBe('2.1.0');
    expect(log.runs[0].results.map((res: { ruleId: string }) => res.ruleId)).toContain('cell-marker');
  });
});

describe('docs/integrations/editors.md', () => {
  const file = 'docs/integrations/editors.md';

  it('starts the server as it is: the package bin with --stdio', () => {
    expect(pkg.bin[SERVER_BIN]).toBe('./dist/server/lsp/main.js');
    const main = readFileSync(path.join(ROOT, 'server/lsp/main.ts'), 'utf8');
    for (const flag of ['--stdio', '--node-ipc', '--socket=', '--pipe=']) expect(main).toContain(flag);
    const snippets = [...blocks(file, 'lua'), ...blocks(file, 'toml'), ...blocks(file, 'elisp')].filter((s) => s.includes(SERVER_BIN));
    expect(snippets.length).toBe(6);
    for (const s of snippets) expect(s, s).toMatch(/msglint-language-server['"]?,?\s*(args = \[)?\s*['"]--stdio['"]/);
  });

  it('gives VS Code fix-on-save settings that name the server’s fix-all kind', () => {
    const [json] = blocks(file, 'json');
    expect(JSON.parse(json!)).toEqual({ 'editor.codeActionsOnSave': { 'source.fixAll.msglint': 'explicit' } });
    const code = readFileSync(path.join(ROOT, 'server/lsp/code-actions.ts'), 'utf8');
    expect(code).toContain("'source.fixAll.msglint'");
  });

  it('names every extension command by its title, here and in the extension’s README', () => {
    const manifest = JSON.parse(readFileSync(path.join(CLIENT, 'package.json'), 'utf8')) as { contributes: { commands: { title: string; category?: string }[] } };
    for (const doc of [path.join(ROOT, file), path.join(CLIENT, 'README.md')]) {
      // Titles may be wrapped over lines in the Markdown source.
      const text = readFileSync(doc, 'utf8').replace(/\s+/g, ' ');
      for (const c of manifest.contributes.commands) expect(text, doc).toContain(`msglint: ${c.title}`);
    }
  });

  const nvim = spawnSync('nvim', ['--version'], { encoding: 'utf8' }).status === 0;
  it.skipIf(!nvim)('has Lua that Neovim parses', () => {
    for (const lua of blocks(file, 'lua')) {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'msglint-lua-'));
      tmp.push(dir);
      const f = path.join(dir, 'snippet.lua');
      writeFileSync(f, lua);
      const check = `local f, err = loadfile(${JSON.stringify(f)}); if not f then io.stderr:write(err) vim.cmd('cquit 1') end`;
      const r = spawnSync('nvim', ['--headless', '-u', 'NONE', '-i', 'NONE', '-n', '-c', `lua ${check}`, '-c', 'qa!'], { encoding: 'utf8', timeout: 20_000 });
      expect(r.status, `${r.stderr}\n${lua}`).toBe(0);
    }
  });

  const tomllib = spawnSync('python3', ['-c', 'import tomllib'], { encoding: 'utf8' }).status === 0;
  it.skipIf(!tomllib)('has a Helix languages.toml that parses, with the settings under config.msglint', () => {
    const [toml] = blocks(file, 'toml');
    const out = execFileSync('python3', ['-c', 'import json, sys, tomllib; print(json.dumps(tomllib.loads(sys.stdin.read())))'], { input: toml, encoding: 'utf8' });
    const parsed = JSON.parse(out);
    expect(parsed['language-server'].msglint).toMatchObject({ command: SERVER_BIN, args: ['--stdio'], config: { msglint: { run: 'onType', rules: { 'empty-cell': 'off' } } } });
    expect(parsed.language[0]).toMatchObject({ name: 'markdown' });
    expect(parsed.language[0]['language-servers']).toContain('msglint');
  });

  it.skipIf(!tomllib)('says how to turn on inlay hints in Helix and Neovim, and handles the lenses\' export in Neovim', () => {
    const parsed = blocks(file, 'toml').map((toml) => JSON.parse(execFileSync('python3', ['-c', 'import json, sys, tomllib; print(json.dumps(tomllib.loads(sys.stdin.read())))'], { input: toml, encoding: 'utf8' })));
    expect(parsed).toContainEqual({ editor: { lsp: { 'display-inlay-hints': true } } });
    const lua = blocks(file, 'lua').join('\n');
    expect(lua).toContain('vim.lsp.inlay_hint.enable(true)');
    expect(lua).toContain('vim.lsp.codelens.refresh(');
    // The command the server's "Export view up to here" lens runs.
    expect(lua).toContain("vim.lsp.commands['msglint.exportLLMView']");
    expect(readFileSync(path.join(ROOT, 'server/lsp/code-lenses.ts'), 'utf8')).toContain('command: EXPORT_LLM_VIEW_COMMAND');
    expect(readFileSync(path.join(ROOT, 'server/lsp/export.ts'), 'utf8')).toContain("EXPORT_LLM_VIEW_COMMAND = 'msglint.exportLLMView'");
  });

  it('has balanced Emacs Lisp', () => {
    for (const el of blocks(file, 'elisp')) {
      let depth = 0;
      let inString = false;
      for (let i = 0; i < el.length; i++) {
        const c = el[i];
        if (inString) {
          if (c === '\\') i++;
          else if (c === '"') inString = false;
        } else if (c === ';') {
          while (i < el.length && el[i] !== '\n') i++;
        } else if (c === '"') inString = true;
        else if (c === '(') depth++;
        else if (c === ')') expect(--depth, el).toBeGreaterThanOrEqual(0);
      }
      expect(depth, el).toBe(0);
      expect(inString).toBe(false);
    }
  });
});
