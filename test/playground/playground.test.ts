// The playground (client/playground/) in a real browser: Debian's Chromium,
// driven by playwright-core, loading the built page from a static server.
// The page's contract: `#text=<base64url of UTF-8 text>` loads a text; each
// Problems entry has `data-rule` and `data-line` (1-based); the Export
// panel's content is the element whose `data-export` names the target.

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

  it('loads `#text=` and updates the problems as one types', async () => {
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

  it('works opened from file://', async () => {
    const local = await pg.context.newPage();
    await local.goto(`file://${path.join(pg.site, 'index.html')}`);
    expect(await pageProblems(local)).toEqual(cliProblems(readFileSync(SHOWCASE, 'utf8'), 'showcase.msg.md'));
    await local.close();
    expect(errors).toEqual([]);
  });
});
