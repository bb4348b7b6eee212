#!/usr/bin/env node
// npm run test:vscode: the extension's current .vsix in a real VS Code
// (code-server 4.100.3, VS Code 1.100.3) served to Chromium, used as a new
// user would. It checks that
//   - the Problems panel lists exactly the CLI's problems for the showcase
//     (rule, line, column, severity),
//   - a quick fix from the light bulb menu applies the CLI's fix,
//   - Format Document rewrites a legacy JSON tool call as the CLI's --fix does,
//   - a hover on a cell shows the cell,
// so a change that breaks activation, the bundled server or formatting in
// VS Code fails. Screenshots and logs go to the run's temporary folder.
//
// Needs: Chromium (/usr/bin/chromium, or $MSGLINT_CHROMIUM) and what
// install.mjs needs for the first run. Run `npm run build` first (the script
// does: the CLI gives the expected results).
//
//   node test/vscode/run.mjs [--keep]   --keep leaves code-server's profile in the run folder

import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { packageVsix } from '../../client/build.mjs';
import { startCodeServer } from './code-server.mjs';
import { ensureCodeServer } from './install.mjs';
import { applyQuickFix, goToLine, hoverAtCursor, openFile, openProblems, readProblems, runCommand, waitForWorkbench } from './workbench.mjs';

const require = createRequire(import.meta.url);
const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../..');
const CLI = path.join(ROOT, 'dist/cli/main.js');
const CHROMIUM = process.env.MSGLINT_CHROMIUM || '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];
// The whole run after the install; each wait inside has its own, shorter timeout.
const RUN_TIMEOUT_MS = 10 * 60_000;

const SHOWCASE = 'showcase.msg.md';
const LEGACY = 'legacy.msg.md';
// A body line of a message cell of the showcase, for the hover.
const HOVER_LINE = 23;

let step = 'starting';
let page;
let runDir;
const cleanups = [];

function log(message) {
  console.log(`test:vscode: ${message}`);
}

async function screenshot(name) {
  if (!page) return;
  await page.screenshot({ path: path.join(runDir, `${name}.png`), timeout: 15_000 }).catch(() => {});
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

async function main() {
  const keep = process.argv.includes('--keep');
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
  const workspace = path.join(runDir, 'workspace');
  const showcase = path.join(workspace, SHOWCASE);
  const legacy = path.join(workspace, LEGACY);
  await mkdir(workspace);
  await copyFile(path.join(ROOT, 'test/fixtures', SHOWCASE), showcase);
  await copyFile(path.join(HERE, LEGACY), legacy);

  step = 'asking the CLI';
  const showcaseText = await readFile(showcase, 'utf8');
  const showcaseReport = await cliReport(showcase);
  const expected = showcaseReport.messages.map((m) => ({ rule: m.ruleId, line: m.line, column: m.column, severity: m.severity }));
  const fixable = showcaseReport.messages.find((m) => m.ruleId === 'cell-marker' && m.fix);
  if (!fixable) throw new Error('the CLI reports no fixable cell-marker problem in the showcase');
  const formatted = (await cliReport(legacy, ['--fix-dry-run'])).output;
  if (!formatted || !formatted.includes('<tool_name>')) throw new Error(`the CLI's --fix does not rewrite the legacy call in ${LEGACY}`);

  step = 'packing the .vsix';
  const vsix = await packageVsix(path.join(runDir, 'msglint.vsix'));

  step = 'starting code-server';
  const server = await startCodeServer({ installDir, runDir, vsix });
  cleanups.push(server.stop);
  if (!keep) cleanups.push(() => rm(server.userData, { recursive: true, force: true }), () => rm(path.join(runDir, 'extensions'), { recursive: true, force: true }));

  step = 'starting Chromium';
  const { chromium } = require('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 60_000 });
  cleanups.unshift(() => browser.close());
  page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  page.setDefaultTimeout(30_000);

  step = 'opening the folder';
  await page.goto(`${server.url}/?folder=${encodeURIComponent(workspace)}`, { timeout: 60_000 });
  await waitForWorkbench(page, SHOWCASE);

  step = 'reading the Problems panel';
  await openFile(page, SHOWCASE);
  const shown = await openProblems(page, expected.length);
  await screenshot('1-problems');
  const listed = (await readProblems(page)).filter((p) => p.source === 'msglint');
  if (shown !== String(expected.length) || listed.length !== expected.length) {
    throw new Error(`the Problems panel shows ${shown} problems (${listed.length} rows from msglint); the CLI reports ${expected.length}`);
  }
  const want = expected.map(key).sort();
  const got = listed.map(key).sort();
  const missing = want.filter((k) => !got.includes(k));
  const extra = got.filter((k) => !want.includes(k));
  if (missing.length || extra.length) {
    throw new Error(`the Problems panel differs from the CLI: missing ${missing.join('; ') || 'none'}; extra ${extra.join('; ') || 'none'}`);
  }
  log(`Problems panel: the CLI's ${expected.length} problems (rule, line, column, severity)`);

  step = 'applying a quick fix';
  await openFile(page, SHOWCASE);
  await goToLine(page, fixable.line);
  await applyQuickFix(page, `Fix this ${fixable.ruleId} problem`);
  await screenshot('2-quick-fix');
  await page.keyboard.press('Control+S');
  const fixedText = applyFixes(showcaseText, [fixable.fix]);
  const onDisk = await waitForFile(showcase, fixedText);
  if (onDisk !== fixedText) throw new Error(`the ${fixable.ruleId} quick fix did not give the CLI's fix: ${firstDifference(onDisk, fixedText)}`);
  log(`quick fix: ${fixable.ruleId} on line ${fixable.line} applied as the CLI's fix`);

  step = 'hovering a cell';
  await goToLine(page, HOVER_LINE);
  const hover = await hoverAtCursor(page, /Message cell/);
  await screenshot('3-hover');
  if (!/Message cell/.test(hover)) throw new Error(`the hover on line ${HOVER_LINE} shows ${JSON.stringify(hover)}, not the cell ("Message cell ...")`);
  log(`hover: ${JSON.stringify(hover.split('\n')[0])}`);
  await page.keyboard.press('Escape');

  step = 'formatting a legacy tool call';
  await openFile(page, LEGACY);
  await screenshot('4-legacy-call');
  await runCommand(page, 'Format Document');
  await page.keyboard.press('Control+S');
  const formattedOnDisk = await waitForFile(legacy, formatted);
  await screenshot('5-formatted');
  if (formattedOnDisk !== formatted) throw new Error(`Format Document did not give the CLI's --fix output: ${firstDifference(formattedOnDisk, formatted)}`);
  log('Format Document: the legacy JSON call is XML, as with the CLI\'s --fix');

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
