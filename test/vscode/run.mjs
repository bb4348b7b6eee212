#!/usr/bin/env node
// npm run test:vscode: the extension's current .vsix in a real VS Code
// (code-server 4.100.3, VS Code 1.100.3) served to Chromium, used as a new
// user would. It checks that
//   - the Problems panel lists exactly the CLI's problems for the showcase
//     (rule, line, column, severity), with a rule's severity from the
//     `msglint.rules` setting,
//   - a quick fix from the light bulb menu applies the CLI's fix,
//   - Format Document rewrites a legacy JSON tool call as the CLI's --fix does,
//   - a hover on a cell shows the cell, and again after "Restart server",
//   - a file nobody opened has its CLI problems in the Problems panel too
//     (workspace diagnostics: on the Node host, which has the disk),
//   - hovers in .msglintrc.json and in package.json's `msglint` key show the
//     config schema's descriptions,
//   - the conversation's budget shows: inlay hints at the marker lines (a
//     cell's tokens, the running total at a reply), code lenses, and the
//     status bar item's total; the lens "Export view up to here" opens what
//     `msglint export --until ID` writes,
//   - "msglint: Export LLM view…" opens what `msglint export` writes,
//   - "msglint: Import conversation…" picks a JSON file in the open dialog and
//     opens a message file beside it that exports as `msglint import`'s does,
// so a change that breaks activation, the bundled server or formatting in
// VS Code fails. It does so twice, once per extension host:
//   node  the .vsix as it ships: code-server runs its `main` (the server as a
//         Node process);
//   web   the same .vsix without `main` and the Node bundles: code-server has
//         to run its `browser` entry in the web worker extension host, with
//         the server in a Web Worker, as VS Code for the Web does.
// Screenshots and logs go to the run's temporary folder, one folder per host.
//
// Needs: Chromium (/usr/bin/chromium, or $MSGLINT_CHROMIUM) and what
// install.mjs needs for the first run. Run `npm run build` first (the script
// does: the CLI gives the expected results).
//
//   node test/vscode/run.mjs [--host node|web] [--keep]
//     --host  check one extension host only (default: both)
//     --keep  leave code-server's profiles in the run folder

import { execFile } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { packageVsix } from '../../client/build.mjs';
import { CHROMIUM, CHROMIUM_ARGS } from '../chromium.mjs';
import { startCodeServer } from './code-server.mjs';
import { ensureCodeServer } from './install.mjs';
import {
  applyQuickFix,
  clickCodeLens,
  goToLine,
  hoverAtCursor,
  openFile,
  openProblems,
  pickQuickItem,
  readBudget,
  readProblems,
  runCommand,
  saveUntitled,
  saveWhenChanged,
  waitForWorkbench,
} from './workbench.mjs';

const require = createRequire(import.meta.url);
const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../..');
const CLI = path.join(ROOT, 'dist/cli/main.js');
// The whole run after the install; each wait inside has its own, shorter timeout.
const RUN_TIMEOUT_MS = 12 * 60_000;
const HOSTS = ['node', 'web'];

const SHOWCASE = 'showcase.msg.md';
const LEGACY = 'legacy.msg.md';
// Never opened: its problems come from workspace diagnostics.
const UNOPENED = 'never-opened.msg.md';
const UNOPENED_TEXT = '# %% Hi[^1]\n\n[^1]: [markdown]\n\nHello.\n\n#%% Again[^2]\n\n[^2]: [markdown]\n\n# %% Empty[^3]\n\n[^3]: [markdown]\n';
// A clean conversation to export.
const SESSION = 'session.msg.md';
// A conversation to import: OpenAI messages with a system prompt, a tool call and its result.
const IMPORT_JSON = 'chat.json';
const IMPORT_MESSAGES = [
  { role: 'system', content: 'You are a careful coding assistant.' },
  { role: 'user', content: 'What is in app.py?' },
  { role: 'assistant', content: null, tool_calls: [{ id: 'call_7Xk2', type: 'function', function: { name: 'read_file', arguments: '{"path":"app.py","lines":40}' } }] },
  { role: 'tool', tool_call_id: 'call_7Xk2', content: 'def add(a, b):\n    return a - b' },
  { role: 'assistant', content: 'It subtracts where it should add.' },
];
const EXPORT_TARGET = 'openai';
// The reply whose lens exports the view up to it, and its marker line.
const LENS_REPLY = { id: '2', marker: '# %%% Plan[^2]' };
/** A tool call of that reply, with its result: its lens reads "Go to result". */
const LENS_CALL_MARKER = '## %%% Read the file[^2.k7f3q]';
/** The line (from 1) of the first line of `text` that starts with `start`. */
const lineOf = (text, start) => text.split('\n').findIndex((l) => l.startsWith(start)) + 1;
// A body line of a message cell of the showcase, for the hover.
const HOVER_LINE = 23;
// A rule severity set in VS Code's settings (a warning by default): the
// server has to read it from the client, on the web the only way to set
// rules. The CLI gets it as --rule.
const RULES_SETTING = { 'empty-cell': 'error' };

let step = 'starting';
let runDir;
/** The host being checked: its folder and its page (for screenshots). */
let current = { dir: undefined, page: undefined };
const cleanups = [];

function log(message) {
  console.log(`test:vscode: ${message}`);
}

async function screenshot(name) {
  if (!current.page) return;
  await current.page.screenshot({ path: path.join(current.dir, `${name}.png`), timeout: 15_000 }).catch(() => {});
}

/** The CLI's JSON report of one file. */
async function cliReport(file, args = []) {
  const { stdout } = await promisify(execFile)(process.execPath, [CLI, '-f', 'json', ...args, file], { cwd: path.dirname(file) }).catch((e) => {
    // Exit code 1 means "lint errors": the report is still on stdout.
    if (e.code === 1 && e.stdout) return e;
    throw e;
  });
  return JSON.parse(stdout)[0];
}

/** Applies ESLint-style fixes ({ range: [start, end], text }) to a text. */
function applyFixes(text, fixes) {
  for (const f of [...fixes].sort((a, b) => b.range[0] - a.range[0])) text = text.slice(0, f.range[0]) + f.text + text.slice(f.range[1]);
  return text;
}

const key = (p) => `${p.line}:${p.column} ${p.rule} (${p.severity === 2 ? 'error' : p.severity === 1 ? 'warning' : `severity ${p.severity}`})`;

/** Waits until `file` on disk has the text `expected`; returns what it has at the end. */
async function waitForFile(file, expected, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  let text;
  do {
    text = await readFile(file, 'utf8');
    if (text === expected) return text;
    await new Promise((r) => setTimeout(r, 200));
  } while (Date.now() < deadline);
  return text;
}

/** The first line where two texts differ, for a failure message. */
function firstDifference(actual, expected) {
  const a = actual.split('\n');
  const e = expected.split('\n');
  for (let i = 0; i < Math.max(a.length, e.length); i++) {
    if (a[i] !== e[i]) return `line ${i + 1} is ${JSON.stringify(a[i] ?? '(missing)')}, expected ${JSON.stringify(e[i] ?? '(missing)')}`;
  }
  return 'they differ only in line ends';
}

/** What the CLI says about the two files, which VS Code has to say too. */
async function expectations(dir) {
  const showcase = path.join(dir, SHOWCASE);
  const legacy = path.join(dir, LEGACY);
  await copyFile(path.join(ROOT, 'test/fixtures', SHOWCASE), showcase);
  await copyFile(path.join(HERE, LEGACY), legacy);
  const report = await cliReport(showcase, Object.entries(RULES_SETTING).flatMap(([id, severity]) => ['--rule', `${id}:${severity}`]));
  const problems = report.messages.map((m) => ({ rule: m.ruleId, line: m.line, column: m.column, severity: m.severity }));
  const fixable = report.messages.find((m) => m.ruleId === 'cell-marker' && m.fix);
  if (!fixable) throw new Error('the CLI reports no fixable cell-marker problem in the showcase');
  const formatted = (await cliReport(legacy, ['--fix-dry-run'])).output;
  if (!formatted || !formatted.includes('<tool_name>')) throw new Error(`the CLI's --fix does not rewrite the legacy call in ${LEGACY}`);
  const showcaseText = await readFile(showcase, 'utf8');
  const unopened = path.join(dir, UNOPENED);
  await writeFile(unopened, UNOPENED_TEXT);
  // Files not open when the Problems panel is read: the never opened one, and the legacy one (opened later).
  const unopenedProblems = {};
  for (const file of [UNOPENED, LEGACY]) {
    const r = await cliReport(path.join(dir, file), Object.entries(RULES_SETTING).flatMap(([id, severity]) => ['--rule', `${id}:${severity}`]));
    unopenedProblems[file] = r.messages.map((m) => ({ rule: m.ruleId, line: m.line, column: m.column, severity: m.severity }));
  }
  const session = path.join(dir, SESSION);
  await copyFile(path.join(ROOT, 'examples/coding-session.msg.md'), session);
  const { stdout: exported } = await promisify(execFile)(process.execPath, [CLI, 'export', session, '--to', EXPORT_TARGET]);
  const { stdout: exportedUntil } = await promisify(execFile)(process.execPath, [CLI, 'export', session, '--until', LENS_REPLY.id, '--to', EXPORT_TARGET]);
  // What the imported file must export: the CLI's import of the same JSON, exported (nonces differ between imports, the export does not).
  const importJson = path.join(dir, IMPORT_JSON);
  await writeFile(importJson, `${JSON.stringify(IMPORT_MESSAGES, null, 2)}\n`);
  const imported = path.join(dir, 'cli-import.msg.md');
  await promisify(execFile)(process.execPath, [CLI, 'import', importJson, '-o', imported, '--force']);
  const { stdout: importExported } = await promisify(execFile)(process.execPath, [CLI, 'export', imported, '--to', 'openai']);
  return {
    importExported: JSON.parse(importExported),
    unopenedProblems,
    sessionText: await readFile(session, 'utf8'),
    exported: JSON.parse(exported),
    exportedUntil: JSON.parse(exportedUntil),
    showcaseText, legacyText: await readFile(legacy, 'utf8'), problems, fixable, fixedShowcase: applyFixes(showcaseText, [fixable.fix]), formatted };
}

/** Checks one extension host: a fresh profile, workspace, code-server and browser page of its own. */
async function checkHost(host, { installDir, expected, keep }) {
  const dir = path.join(runDir, host);
  const workspace = path.join(dir, 'workspace');
  await mkdir(workspace, { recursive: true });
  const showcase = path.join(workspace, SHOWCASE);
  const legacy = path.join(workspace, LEGACY);
  await writeFile(showcase, expected.showcaseText);
  await writeFile(legacy, expected.legacyText);
  await writeFile(path.join(workspace, UNOPENED), UNOPENED_TEXT);
  await writeFile(path.join(workspace, SESSION), expected.sessionText);
  await writeFile(path.join(workspace, IMPORT_JSON), `${JSON.stringify(IMPORT_MESSAGES, null, 2)}\n`);
  // Config files for the schema's hovers. They change nothing: the rule is set as the msglint.rules setting
  // sets it, and package.json's msglint key gives way to .msglintrc.json in the same folder.
  await writeFile(path.join(workspace, '.msglintrc.json'), `${JSON.stringify({ rules: RULES_SETTING }, null, 2)}\n`);
  await writeFile(path.join(workspace, 'package.json'), '{\n  "name": "workspace",\n  "msglint": {\n    "agents": []\n  }\n}\n');
  current = { dir, page: undefined };
  const say = (m) => log(`${host}: ${m}`);

  step = `${host}: packing the .vsix`;
  const vsix = await packageVsix(path.join(dir, 'msglint.vsix'), { webOnly: host === 'web' });

  step = `${host}: starting code-server`;
  const server = await startCodeServer({ installDir, runDir: dir, vsix, settings: { 'msglint.rules': RULES_SETTING } });
  const own = [server.stop];
  if (!keep) own.push(() => rm(server.userData, { recursive: true, force: true }), () => rm(path.join(dir, 'extensions'), { recursive: true, force: true }));
  cleanups.push(...own);

  step = `${host}: starting Chromium`;
  const { chromium } = require('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 60_000 });
  const closeBrowser = () => browser.close();
  cleanups.unshift(closeBrowser);
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  page.setDefaultTimeout(30_000);
  current.page = page;
  // The workbench's console: the web extension host's and its workers' errors land there.
  const consoleLog = createWriteStream(path.join(dir, 'browser-console.log'));
  const closeLog = () => new Promise((r) => consoleLog.end(r));
  cleanups.push(closeLog);
  page.on('console', (m) => consoleLog.write(`[${m.type()}] ${m.text()}\n`));
  page.on('pageerror', (e) => consoleLog.write(`[pageerror] ${e.message}\n`));

  step = `${host}: opening the folder`;
  await page.goto(`${server.url}/?folder=${encodeURIComponent(workspace)}`, { timeout: 60_000 });
  await waitForWorkbench(page, SHOWCASE);

  step = `${host}: reading the Problems panel`;
  await openFile(page, SHOWCASE);
  // The web host has no disk to find files nobody opened: only the Node host lists them.
  const unopenedWanted = host === 'node' ? expected.unopenedProblems : { [UNOPENED]: [], [LEGACY]: [] };
  const unopenedCount = Object.values(unopenedWanted).flat().length;
  const total = expected.problems.length + unopenedCount;
  const shown = await openProblems(page, total);
  const listed = (await readProblems(page, { whileMaximized: () => screenshot('1-problems') })).filter((p) => p.source === 'msglint');
  if (shown !== String(total) || listed.length !== total) {
    throw new Error(`the Problems panel shows ${shown} problems (${listed.length} rows from msglint); the CLI reports ${total} (${unopenedCount} in files not open)`);
  }
  for (const [file, problems] of [[SHOWCASE, expected.problems], ...Object.entries(unopenedWanted)]) {
    const want = problems.map(key).sort();
    const got = listed.filter((p) => p.file === file).map(key).sort();
    const missing = want.filter((k) => !got.includes(k));
    const extra = got.filter((k) => !want.includes(k));
    if (missing.length || extra.length) {
      throw new Error(`the Problems panel differs from the CLI for ${file}: missing ${missing.join('; ') || 'none'}; extra ${extra.join('; ') || 'none'}`);
    }
  }
  say(`Problems panel: the CLI's ${expected.problems.length} problems (rule, line, column, severity)`);
  if (host === 'node') say(`Problems panel: the CLI's ${unopenedCount} problems of ${UNOPENED} and ${LEGACY}, which are not open`);

  step = `${host}: applying a quick fix`;
  const { fixable } = expected;
  await openFile(page, SHOWCASE);
  await goToLine(page, fixable.line);
  await applyQuickFix(page, `Fix this ${fixable.ruleId} problem`);
  await screenshot('2-quick-fix');
  await saveWhenChanged(page, 'the quick fix');
  const onDisk = await waitForFile(showcase, expected.fixedShowcase);
  if (onDisk !== expected.fixedShowcase) throw new Error(`the ${fixable.ruleId} quick fix did not give the CLI's fix: ${firstDifference(onDisk, expected.fixedShowcase)}`);
  say(`quick fix: ${fixable.ruleId} on line ${fixable.line}, as the CLI fixes it`);

  step = `${host}: hovering a cell`;
  await goToLine(page, HOVER_LINE);
  const hover = await hoverAtCursor(page, /Message cell/);
  await screenshot('3-hover');
  if (!/Message cell/.test(hover)) throw new Error(`the hover on line ${HOVER_LINE} shows ${JSON.stringify(hover)}, not the cell ("Message cell ...")`);
  say(`hover: ${JSON.stringify(hover.split('\n')[0])}`);
  await page.keyboard.press('Escape');

  step = `${host}: formatting a legacy tool call`;
  await openFile(page, LEGACY);
  await screenshot('4-legacy-call');
  await runCommand(page, 'Format Document');
  await saveWhenChanged(page, 'Format Document');
  const formattedOnDisk = await waitForFile(legacy, expected.formatted);
  await screenshot('5-formatted');
  if (formattedOnDisk !== expected.formatted) throw new Error(`Format Document did not give the CLI's --fix output: ${firstDifference(formattedOnDisk, expected.formatted)}`);
  say("Format Document: the legacy JSON call is XML, as the CLI's --fix writes it");

  // The restarted client (a new server process, or a new worker on the web) has to answer again.
  step = `${host}: restarting the server`;
  await runCommand(page, 'msglint: Restart server');
  await openFile(page, SHOWCASE);
  await goToLine(page, HOVER_LINE);
  const again = await hoverAtCursor(page, /Message cell/, 60_000);
  await screenshot('6-after-restart');
  if (!/Message cell/.test(again)) throw new Error(`after "msglint: Restart server" the hover on line ${HOVER_LINE} shows ${JSON.stringify(again)}`);
  say('Restart server: a hover is answered after it');

  step = `${host}: hovering in config files`;
  for (const [file, line, description] of [
    ['.msglintrc.json', 3, /A cell with no content/],
    ['package.json', 4, /Agent names defined elsewhere/],
  ]) {
    await openFile(page, file);
    await goToLine(page, line);
    // Inside the key's quotes: the JSON hover describes the key under the cursor.
    for (let i = 0; i < 7; i++) await page.keyboard.press('ArrowRight');
    const text = await hoverAtCursor(page, description, 60_000);
    await screenshot(`7-schema-${file}`);
    if (!description.test(text)) throw new Error(`the hover in ${file} shows ${JSON.stringify(text)}, not the config schema's description`);
    await page.keyboard.press('Escape');
  }
  say("config schema: hovers in .msglintrc.json and package.json's msglint key describe the keys");

  step = `${host}: inlay hints, code lenses and the status bar`;
  await openFile(page, SESSION);
  // The reply and a tool call after it in view: lenses are resolved as they are shown.
  await goToLine(page, lineOf(expected.sessionText, LENS_CALL_MARKER));
  const budget = await readBudget(page, LENS_REPLY.marker, ['Export view up to here', 'Go to result']);
  await screenshot('8-budget');
  if (!/^≈ \d+ tok · Σ \d+ \/ 128k · <1%$/.test(budget.hint)) throw new Error(`the inlay hint of ${LENS_REPLY.marker} reads ${JSON.stringify(budget.hint)}`);
  if (!budget.lenses.includes('Export view up to here') || !budget.lenses.includes('Go to result')) throw new Error(`the code lenses read ${JSON.stringify(budget.lenses)}`);
  if (!/Σ \d+ \/ 128k · <1%/.test(budget.status)) throw new Error(`the status bar item reads ${JSON.stringify(budget.status)}, with no total`);
  say(`inlay hint ${JSON.stringify(budget.hint)} at ${LENS_REPLY.marker}; code lenses ${[...new Set(budget.lenses)].join(', ')}; status bar ${JSON.stringify(budget.status.trim())}`);

  step = `${host}: exporting the view up to a reply from its code lens`;
  await clickCodeLens(page, LENS_REPLY.marker, 'Export view up to here');
  await pickQuickItem(page, `msglint: Export the LLM view up to ${LENS_REPLY.id}`, EXPORT_TARGET);
  await waitForUntitled(page);
  await screenshot('8-export-until');
  const untilFile = path.join(workspace, await saveUntitled(page, '.json'));
  const exportedUntil = JSON.parse(await readFile(untilFile, 'utf8'));
  if (JSON.stringify(exportedUntil) !== JSON.stringify(expected.exportedUntil)) throw new Error(`"Export view up to here" differs from msglint export --until ${LENS_REPLY.id}: ${firstDifference(JSON.stringify(exportedUntil, null, 1), JSON.stringify(expected.exportedUntil, null, 1))}`);
  say(`code lens "Export view up to here": ${EXPORT_TARGET}, as msglint export --until ${LENS_REPLY.id} writes it`);
  // Gone again, so that the next export's untitled editor is saved under the same name without a question.
  await runCommand(page, 'View: Close Editor');
  await rm(untilFile);

  step = `${host}: exporting the LLM view`;
  await openFile(page, SESSION);
  await runCommand(page, 'msglint: Export LLM view…', { asks: true });
  await pickQuickItem(page, 'msglint: Export LLM view', EXPORT_TARGET);
  await waitForUntitled(page);
  await screenshot('8-export');
  const exportFile = path.join(workspace, await saveUntitled(page, '.json'));
  const exported = JSON.parse(await readFile(exportFile, 'utf8'));
  if (JSON.stringify(exported) !== JSON.stringify(expected.exported)) throw new Error(`"Export LLM view…" (${EXPORT_TARGET}) differs from msglint export: ${firstDifference(JSON.stringify(exported, null, 1), JSON.stringify(expected.exported, null, 1))}`);
  say(`Export LLM view: ${EXPORT_TARGET}, as msglint export writes it, beside the file`);

  step = `${host}: importing a conversation`;
  await runCommand(page, 'msglint: Import conversation…', { asks: true });
  await pickQuickItem(page, 'msglint: Import conversation', 'From a JSON file…');
  await pickDialogFile(page, IMPORT_JSON);
  const importedName = IMPORT_JSON.replace(/\.json$/, '.msg.md');
  await page.waitForSelector(`.tabs-container .tab.active[data-resource-name="${importedName}"]`, { timeout: 30_000 }).catch((e) => {
    throw new Error(`"Import conversation…" opened no ${importedName}: ${String(e?.message ?? e).split('\n')[0]}`);
  });
  await screenshot('9-import');
  await page.keyboard.press('Control+S');
  // The editor already has its path; should a save dialog ask anyway, it proposes that path.
  await page.waitForSelector('.quick-input-widget input.input', { state: 'visible', timeout: 3_000 }).then(() => page.keyboard.press('Enter'), () => {});
  const importedFile = path.join(workspace, importedName);
  const deadline = Date.now() + 20_000;
  while (!existsSync(importedFile) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  if (!existsSync(importedFile)) throw new Error(`saving the imported conversation wrote no ${importedName}`);
  const { stdout: reexported } = await promisify(execFile)(process.execPath, [CLI, 'export', importedFile, '--to', 'openai']);
  if (JSON.stringify(JSON.parse(reexported)) !== JSON.stringify(expected.importExported)) {
    throw new Error(`the imported file does not export as msglint import's does: ${firstDifference(JSON.stringify(JSON.parse(reexported), null, 1), JSON.stringify(expected.importExported, null, 1))}`);
  }
  say(`Import conversation: ${IMPORT_JSON} opened as ${importedName}, saved beside it, and exports as msglint import's file does`);

  // This host's cleanups now, not at exit: the next host starts from nothing.
  for (const c of [closeBrowser, closeLog, ...own]) {
    cleanups.splice(cleanups.indexOf(c), 1);
    await Promise.resolve().then(c).catch(() => {});
  }
  current = { dir: undefined, page: undefined };
}

/**
 * Picks a file of the workspace folder in the simple open dialog (code-server
 * has no native one): once the folder is listed, its name is typed after the
 * folder's path the dialog proposes, and the dialog accepted.
 */
async function pickDialogFile(page, name) {
  const row = page.locator('.quick-input-list .monaco-list-row').filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${name.replace(/[.]/g, '\\.')}$`) }) }).first();
  await row.waitFor({ state: 'visible', timeout: 30_000 }).catch((e) => {
    throw new Error(`the open dialog does not list ${name}: ${String(e?.message ?? e).split('\n')[0]}`);
  });
  const input = page.locator('.quick-input-widget input.input');
  const folder = await input.inputValue();
  await input.fill(`${folder.endsWith('/') ? folder : `${folder}/`}${name}`);
  await page.waitForFunction((n) => document.querySelector('.quick-input-widget input.input')?.value.endsWith(n), name, { timeout: 10_000 });
  await page.keyboard.press('Enter');
  await page.waitForSelector('.quick-input-widget', { state: 'hidden', timeout: 30_000 }).catch(() => {
    throw new Error(`the open dialog did not take ${name}`);
  });
}

/** Waits for an untitled editor to be the active one (what the export opens). */
async function waitForUntitled(page) {
  await page.waitForSelector('.tabs-container .tab.active[data-resource-name^="Untitled"]', { timeout: 30_000 }).catch((e) => {
    throw new Error(`no untitled editor opened: ${String(e?.message ?? e).split('\n')[0]}`);
  });
}

async function main() {
  const args = process.argv.slice(2);
  const keep = args.includes('--keep');
  const only = args.includes('--host') ? args[args.indexOf('--host') + 1] : undefined;
  if (only !== undefined && !HOSTS.includes(only)) throw new Error(`--host is ${HOSTS.join(' or ')}, not ${only}`);
  if (!existsSync(CLI)) throw new Error(`${path.relative(ROOT, CLI)} is missing: run npm run build first`);
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM} (Debian: apt-get install chromium; or set MSGLINT_CHROMIUM)`);

  step = 'installing code-server';
  const installDir = await ensureCodeServer({ log });

  const watchdog = setTimeout(() => {
    console.error(`test:vscode: FAILED: timed out after ${RUN_TIMEOUT_MS / 60_000} min while ${step}; see ${runDir}`);
    Promise.race([cleanup(), new Promise((r) => setTimeout(r, 10_000))]).finally(() => process.exit(1));
  }, RUN_TIMEOUT_MS);
  watchdog.unref();

  runDir = await mkdtemp(path.join(os.tmpdir(), 'msglint-vscode-'));
  log(`run folder ${runDir}`);
  step = 'asking the CLI';
  const cliDir = path.join(runDir, 'cli');
  await mkdir(cliDir);
  const expected = await expectations(cliDir);

  for (const host of only ? [only] : HOSTS) await checkHost(host, { installDir, expected, keep });
  clearTimeout(watchdog);
}

async function cleanup() {
  while (cleanups.length) {
    const c = cleanups.shift();
    await Promise.resolve()
      .then(c)
      .catch(() => {});
  }
}

main()
  .then(async () => {
    await cleanup();
    log(`ok; screenshots in ${runDir}`);
    process.exit(0);
  })
  .catch(async (e) => {
    await screenshot('failure');
    await cleanup();
    console.error(`test:vscode: FAILED while ${step}: ${e instanceof Error ? e.message : e}${runDir ? ` (screenshots and logs in ${runDir})` : ''}`);
    if (process.env.MSGLINT_DEBUG && e instanceof Error) console.error(e.stack);
    process.exit(1);
  });
