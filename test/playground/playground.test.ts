// The playground (client/playground/) in a real browser: Debian's Chromium,
// driven by playwright-core, loading the built page from a static server.
// The page's contract: `#text=<base64url of UTF-8 text>` loads a text; each
// Problems entry has `data-rule` and `data-line` (1-based); the Export
// panel's content is the element whose `data-export` names the target.

import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toLLMView } from '../../server/export/index.js';
import { estimateTokens, MESSAGE_OVERHEAD_TOKENS } from '../../server/llm-view/tokens.js';
import { parse } from '../../server/syntax/document.js';
import { ROOT, startPlayground, whyNoBrowser, type Playground } from './browser.js';

const SHOWCASE = path.join(ROOT, 'test/fixtures/showcase.msg.md');
const CODING_SESSION = path.join(ROOT, 'examples/coding-session.msg.md');

const missing = whyNoBrowser();
if (missing && process.env.CI) {
  // CI installs Chromium (.ci/run): there the tests must run.
  throw new Error(`the playground tests cannot run: ${missing}`);
}
if (missing) console.warn(`test/playground: skipped: ${missing}`);

/**
 * `msglint --format json` of a text: [rule, line] of each problem, in
 * order. Run in a folder without config files, as the page has none.
 */
function cliProblems(text: string, fileName: string): [string, number][] {
  const result = spawnSync(process.execPath, [path.join(ROOT, 'dist/cli/main.js'), '--format', 'json', '--stdin', '--stdin-filename', fileName], {
    input: text,
    encoding: 'utf8',
    cwd: os.tmpdir(),
  });
  const [report] = JSON.parse(result.stdout) as { messages: { ruleId: string; line: number }[] }[];
  return report!.messages.map((m) => [m.ruleId, m.line]);
}

/** The text `msglint --fix` makes of `text`. */
function cliFixed(text: string, fileName: string): string {
  const result = spawnSync(process.execPath, [path.join(ROOT, 'dist/cli/main.js'), '--fix-dry-run', '--format', 'json', '--stdin', '--stdin-filename', fileName], {
    input: text,
    encoding: 'utf8',
    cwd: os.tmpdir(),
  });
  const [report] = JSON.parse(result.stdout) as { output?: string }[];
  return report!.output ?? text;
}

function cliExport(file: string, to: string): unknown {
  const result = spawnSync(process.execPath, [path.join(ROOT, 'dist/cli/main.js'), 'export', file, '--to', to], { encoding: 'utf8' });
  expect(result.status, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
}

const base64url = (text: string): string => Buffer.from(text, 'utf8').toString('base64url');

/** The Problems list once the server has published for the current document. */
async function pageProblems(page: Page): Promise<[string, number][]> {
  await page.waitForSelector('#problems[data-version]', { state: 'attached' });
  return page.$$eval('#problems [data-rule]', (els) => els.map((e) => [(e as HTMLElement).dataset.rule!, Number((e as HTMLElement).dataset.line)] as [string, number]));
}

/** Waits until the Problems list satisfies `ok`; returns it. */
async function problemsUntil(page: Page, ok: (problems: [string, number][]) => boolean): Promise<[string, number][]> {
  let last: [string, number][] = [];
  for (let i = 0; i < 200; i++) {
    last = await pageProblems(page);
    if (ok(last)) return last;
    await page.waitForTimeout(100);
  }
  return last;
}

/** The editor's lines as rendered (all of them, for a text that fits the window). */
const editorText = (page: Page): Promise<string> => page.$$eval('.cm-content .cm-line', (lines) => lines.map((l) => l.textContent).join('\n'));

describe.skipIf(missing !== undefined)('the playground in Chromium', () => {
  let pg: Playground;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    pg = await startPlayground();
    page = await pg.context.newPage();
    page.on('pageerror', (e) => errors.push(String(e)));
  }, 120_000);

  afterAll(async () => {
    await pg?.close();
  });

  it("shows the showcase's problems: the CLI's rules on the CLI's lines", async () => {
    await page.goto(pg.url);
    const expected = cliProblems(readFileSync(SHOWCASE, 'utf8'), 'showcase.msg.md');
    expect(expected.length).toBeGreaterThan(10);
    expect(await pageProblems(page)).toEqual(expected);
    await expect.poll(() => page.$$eval('.cm-lint-marker-error', (els) => els.length)).toBeGreaterThan(0);
    // Highlighting from the server's semantic tokens: the cell markers are keywords.
    await expect.poll(() => page.$$eval('.tok-keyword', (els) => els.map((e) => e.textContent))).toContain('# %%');
    const shot = path.join(pg.dir, 'playground.png');
    await page.screenshot({ path: shot });
    console.log(`test/playground: screenshot ${shot}`);
  });

  it('applies a quick fix', async () => {
    const before = await pageProblems(page);
    expect(before).toContainEqual(['cell-marker', 9]);
    await page.click('#problems [data-rule="cell-marker"] [data-fix]');
    const after = await problemsUntil(page, (p) => !p.some(([rule]) => rule === 'cell-marker'));
    expect(after).toEqual(before.filter(([rule]) => rule !== 'cell-marker'));
    expect((await editorText(page)).split('\n')).toContain('# %% A marker without its space[^1]');
  });

  it('"Fix all" leaves the problems the CLI leaves after --fix', async () => {
    await page.goto(pg.url);
    const showcase = readFileSync(SHOWCASE, 'utf8');
    expect(await pageProblems(page)).toEqual(cliProblems(showcase, 'showcase.msg.md'));
    const fixed = cliFixed(showcase, 'showcase.msg.md');
    expect(fixed).not.toBe(showcase);
    const expected = cliProblems(fixed, 'showcase.msg.md');
    await page.click('#fix-all');
    expect(await problemsUntil(page, (p) => JSON.stringify(p) === JSON.stringify(expected))).toEqual(expected);
  });

  it('loads `#text=`, updates the problems as one types, and shares the typed text', async () => {
    const text = '---\ntitle: Typed\n---\n\n# %% Hello[^1]\n\n[^1]: [markdown]\n\nHi.\n';
    expect(cliProblems(text, 'shared.msg.md')).toEqual([]);
    await page.goto(`${pg.url}#text=${base64url(text)}`);
    await page.reload();
    expect(await problemsUntil(page, () => true)).toEqual([]);
    expect(await editorText(page)).toBe(text);
    await page.click('.cm-content');
    await page.keyboard.press('Control+End');
    await page.keyboard.type('\n# %% Typed here\n\nMore text.\n');
    const typed = text + '\n# %% Typed here\n\nMore text.\n';
    const expected = cliProblems(typed, 'shared.msg.md');
    expect(expected.length).toBeGreaterThan(0);
    expect(await problemsUntil(page, (p) => p.length > 0)).toEqual(expected);
    // The share link carries the typed text.
    await page.click('#share');
    await expect.poll(() => page.url()).toBe(`${pg.url}#text=${base64url(typed)}`);
  });

  it('shows the server`s hover and completion', async () => {
    const text = '---\ntitle: Hover\n---\n\n# %% Hello[^1]\n\n[^1]: [markdown]\n\nHi.\n';
    await page.goto(`${pg.url}#text=${base64url(text)}`);
    await page.reload();
    await pageProblems(page);
    const marker = page.locator('.cm-line', { hasText: '# %% Hello' });
    const box = (await marker.boundingBox())!;
    await page.mouse.move(box.x + 60, box.y + box.height / 2);
    await expect.poll(() => page.locator('.cm-tooltip-hover').textContent(), { timeout: 10_000 }).toContain('Message cell');
    await page.mouse.move(0, 0);
    await page.locator('.cm-line', { hasText: '[^1]: [markdown]' }).click();
    await page.keyboard.press('End');
    await page.keyboard.type(' ');
    await expect.poll(() => page.$$eval('.cm-tooltip-autocomplete li', (els) => els.map((e) => e.textContent)), { timeout: 10_000 }).toEqual(
      expect.arrayContaining(['history', 'time']),
    );
  });

  it("shows each example's problems as the CLI does", async () => {
    await page.goto(pg.url);
    const names = readdirSync(path.join(ROOT, 'examples')).filter((n) => n.endsWith('.md'));
    expect(names.length).toBeGreaterThan(1);
    for (const name of names) {
      await page.selectOption('#examples', { label: name });
      await expect.poll(() => page.textContent('#file-name')).toBe(name);
      expect(await pageProblems(page), name).toEqual(cliProblems(readFileSync(path.join(ROOT, 'examples', name), 'utf8'), name));
    }
  });

  it("exports the file's LLM view as the CLI does", async () => {
    await page.goto(pg.url);
    await page.selectOption('#examples', { label: 'coding-session.msg.md' });
    await pageProblems(page);
    for (const target of ['openai', 'anthropic']) {
      await page.selectOption('#export-target', target);
      const output = page.locator(`[data-export="${target}"]`);
      await expect.poll(async () => (await output.textContent())?.startsWith('[') || (await output.textContent())?.startsWith('{')).toBe(true);
      expect(JSON.parse((await output.textContent())!)).toEqual(cliExport(CODING_SESSION, target));
    }
    expect(await page.textContent('#agents')).toContain('coder (predefined');
  });

  it("shows the server's inlay hints at the end of the marker lines and the view's total beside the problems", async () => {
    await page.goto(pg.url);
    await page.selectOption('#examples', { label: 'coding-session.msg.md' });
    await pageProblems(page);
    const labels = () => page.$$eval('.cm-inlay-hint', (els) => els.map((e) => (e as HTMLElement).dataset.label));
    await expect.poll(labels).toContainEqual(expect.stringMatching(/^≈ \d+ tok · Σ \d+ \/ 128k · <1%$/));
    const plan = page.locator('.cm-line', { hasText: '# %%% Plan[^2]' });
    expect(await plan.locator('.cm-inlay-hint').getAttribute('data-label')).toMatch(/^≈ \d+ tok · Σ \d+ \/ 128k · <1%$/);
    expect(await plan.locator('.cm-inlay-hint').getAttribute('title')).toContain('of the 128,000-token context window of `coder`');
    // The hint is drawn, not text: the line reads as the file's.
    expect(await plan.textContent()).toBe('# %%% Plan[^2]');
    await expect.poll(() => page.textContent('#view-total')).toMatch(/^Σ \d+ \/ 128k · <1%$/);
    const shot = path.join(pg.dir, 'playground-hints.png');
    await page.screenshot({ path: shot });
    console.log(`test/playground: screenshot ${shot}`);
    // Scrolled to the end: the hints there. The file ends with a reply of `reviewer`, which has no system
    // prompt: the whole view's total, sent as the default agent's, is that reply's and `coder`'s prompt.
    await page.click('.cm-content');
    await page.keyboard.press('Control+End');
    await expect.poll(labels).toEqual(expect.arrayContaining(['summary ≈ 11 tok', expect.stringMatching(/^≈ \d+ tok · Σ \d+ \/ 64k · 1%$/)]));
    const last = Number(/Σ (\d+)/.exec((await labels()).at(-1)!)![1]);
    const prompt = toLLMView(parse(readFileSync(CODING_SESSION, 'utf8'), { fileName: CODING_SESSION })).systemPrompt!;
    expect(Number((await page.textContent('#view-total'))!.split(' ')[1])).toBe(last + MESSAGE_OVERHEAD_TOKENS + estimateTokens(prompt));
  });

  it('lints with the rules of the Settings panel (msglint.rules)', async () => {
    await page.goto(pg.url);
    const before = await pageProblems(page);
    expect(before).toContainEqual(['empty-cell', 71]);
    await page.click('.settings-panel summary');
    await page.fill('#settings', '{ "rules": { "empty-cell": "off" } }');
    const after = await problemsUntil(page, (p) => !p.some(([rule]) => rule === 'empty-cell'));
    expect(after).toEqual(before.filter(([rule]) => rule !== 'empty-cell'));
  });

  it('works opened from file://', async () => {
    const local = await pg.context.newPage();
    await local.goto(`file://${path.join(pg.site, 'index.html')}`);
    expect(await pageProblems(local)).toEqual(cliProblems(readFileSync(SHOWCASE, 'utf8'), 'showcase.msg.md'));
    await local.close();
    expect(errors).toEqual([]);
  });
});
