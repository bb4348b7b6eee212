// A real editor as the client: headless Neovim with its built-in LSP client
// opens a message file with errors, receives the diagnostics (with their
// codes), formats the buffer (which applies the safe fixes) and writes it,
// then gets the problems of a file it never opened (msglint.lintWorkspace).
// Skipped when `nvim` is not installed (CI installs it: see .ci/run).
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { allRules } from '../../server/linter.js';
import { ensureBuilt, fixtures, serverMain } from './client.js';

function hasNvim(): boolean {
  try {
    execFileSync('nvim', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const nvim = hasNvim();
if (!nvim) console.warn('neovim.test.ts: skipped, `nvim` is not installed (apt-get install neovim)');
const hasLegacyJsonRule = allRules.some((r) => r.meta.id === 'legacy-json-tool-call');

interface NvimDiagnostic {
  code?: string;
  source?: string;
  lnum: number;
  href?: string;
}

interface NvimReport {
  client: boolean;
  nvim: string;
  got_diagnostics: boolean;
  diagnostics: NvimDiagnostic[];
  diagnostics_after?: NvimDiagnostic[];
  lint_workspace?: { files: number; problems: number };
  workspace?: { file: string; code: string; lnum: number }[];
  errors: string[];
}

describe.skipIf(!nvim)('Neovim (headless, built-in LSP client)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'msglint-nvim-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const run = (): { report: NvimReport; text: string } => {
    ensureBuilt();
    const file = path.join(dir, 'example.msg.md');
    copyFileSync(path.join(fixtures, 'nvim/example.msg.md'), file);
    writeFileSync(path.join(dir, 'unopened.msg.md'), '# %% Hi[^1]\n\n[^1]: [markdown]\n\nHello.\n\n#%% Again[^2]\n\n[^2]: [markdown]\n\nMore.\n');
    const out = path.join(dir, 'report.json');
    const result = spawnSync('nvim', ['--headless', '-n', '-i', 'NONE', '--noplugin', '-u', path.join(fixtures, 'nvim/init.lua')], {
      env: { ...process.env, MSGLINT_FILE: file, MSGLINT_OUT: out, MSGLINT_SERVER: serverMain, MSGLINT_NODE: process.execPath, XDG_STATE_HOME: dir, XDG_DATA_HOME: dir },
      timeout: 50_000,
      encoding: 'utf8',
    });
    let report: NvimReport;
    try {
      report = JSON.parse(readFileSync(out, 'utf8')) as NvimReport;
    } catch {
      throw new Error(`Neovim wrote no report (status ${result.status}, signal ${result.signal}).\nstdout: ${result.stdout}\nstderr: ${result.stderr}`);
    }
    return { report, text: readFileSync(file, 'utf8') };
  };

  let outcome: { report: NvimReport; text: string } | undefined;
  const get = () => (outcome ??= run());

  it('receives the diagnostics with their codes', () => {
    const { report } = get();
    expect(report.errors).toEqual([]);
    expect(report.client).toBe(true);
    expect(report.got_diagnostics).toBe(true);
    const codes = report.diagnostics.map((d) => d.code);
    expect(codes).toContain('cell-marker');
    if (hasLegacyJsonRule) expect(codes).toContain('legacy-json-tool-call');
    for (const d of report.diagnostics) expect(d.source).toBe('msglint');
    expect(report.diagnostics.find((d) => d.code === 'cell-marker')?.lnum).toBe(7);
  });

  it('formatting applies the safe fixes: the `#%%` marker is mended', () => {
    const { report, text } = get();
    expect(text).toContain('\n# %% Fix the bug[^1]\n');
    expect(text).not.toContain('#%%');
    expect((report.diagnostics_after ?? []).map((d) => d.code)).not.toContain('cell-marker');
  });

  it('gets the problems of a file it never opened from msglint.lintWorkspace', () => {
    const { report } = get();
    expect(report.errors).toEqual([]);
    expect(report.lint_workspace).toEqual({ files: 1, problems: 1 });
    expect(report.workspace).toEqual([{ file: 'unopened.msg.md', code: 'cell-marker', lnum: 6 }]);
  });

  it.skipIf(!hasLegacyJsonRule)('formatting rewrites the legacy JSON tool call to XML', () => {
    const { text } = get();
    expect(text).not.toContain('"tool_name"');
    expect(text).toMatch(/<tool_name>read_file<\/tool_name>/);
    expect(text).toMatch(/<path>app\.py<\/path>/);
  });
});

// docs/integrations/editors.md's snippet for Neovim 0.7 and later, run as
// written: the server found as `msglint-language-server` on PATH, the client
// started by the snippet's FileType autocommand for a file given on the
// command line.
describe.skipIf(!nvim)('Neovim: the editors.md snippet for 0.7 and later, as written', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'msglint-nvim07-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const snippet = (): string => {
    const doc = readFileSync(path.join(fixtures, '../../../docs/integrations/editors.md'), 'utf8');
    const block = [...doc.matchAll(/```lua\n([\s\S]*?)```/g)].map((m) => m[1]!).find((b) => b.startsWith('-- msglint on Neovim 0.7'));
    if (!block) throw new Error('editors.md has no Lua block starting "-- msglint on Neovim 0.7"');
    return block;
  };

  it('publishes the diagnostics of a message file opened in a project', () => {
    ensureBuilt();
    const project = path.join(dir, 'project');
    mkdirSync(path.join(project, '.git'), { recursive: true });
    const file = path.join(project, 'broken.msg.md');
    writeFileSync(file, '#%% Hi[^1]\n\n[^1]: [markdown]\n\nHello.\n');
    const bin = path.join(dir, 'bin');
    mkdirSync(bin);
    const server = path.join(bin, 'msglint-language-server');
    writeFileSync(server, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(serverMain)} "$@"\n`);
    chmodSync(server, 0o755);
    const out = path.join(dir, 'report.json');
    const report = `
vim.api.nvim_create_autocmd('VimEnter', { callback = function()
  local buf = vim.api.nvim_get_current_buf()
  local got = vim.wait(20000, function() return #vim.diagnostic.get(buf) > 0 end, 50)
  local codes = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do table.insert(codes, d.code or (d.user_data and d.user_data.lsp or {}).code) end
  local clients = {}
  for _, c in pairs(vim.lsp.get_active_clients()) do table.insert(clients, { name = c.name, root = c.config.root_dir }) end
  vim.fn.writefile({ vim.fn.json_encode({ got = got, codes = codes, clients = clients }) }, vim.env.MSGLINT_OUT)
  for _, c in pairs(vim.lsp.get_active_clients()) do c.stop() end
  vim.wait(1000, function() return #vim.lsp.get_active_clients() == 0 end, 50)
  vim.cmd('qall!')
end })
`;
    const init = path.join(dir, 'init.lua');
    writeFileSync(init, `${snippet()}\n${report}`);
    const result = spawnSync('nvim', ['--headless', '-n', '-i', 'NONE', '-u', init, file], {
      cwd: project,
      env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`, MSGLINT_OUT: out, XDG_CONFIG_HOME: dir, XDG_STATE_HOME: dir, XDG_DATA_HOME: dir },
      timeout: 50_000,
      encoding: 'utf8',
    });
    let got: { got: boolean; codes: string[]; clients: { name: string; root: string }[] };
    try {
      got = JSON.parse(readFileSync(out, 'utf8'));
    } catch {
      throw new Error(`Neovim wrote no report (status ${result.status}, signal ${result.signal}).\nstdout: ${result.stdout}\nstderr: ${result.stderr}`);
    }
    expect(got.got).toBe(true);
    expect(got.codes).toContain('cell-marker');
    expect(got.clients).toEqual([{ name: 'msglint', root: project }]);
  });
});
