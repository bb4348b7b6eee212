// Drives the VS Code workbench (served by code-server) the way a user does:
// keyboard, Quick Open, the Command Palette, the Problems panel. Every wait
// has a timeout, and a failed wait throws an Error that says what was awaited.

const WAIT = 30_000;

async function waitFor(what, promise) {
  try {
    return await promise;
  } catch (e) {
    throw new Error(`${what}: ${String(e?.message ?? e).split('\n')[0]}`);
  }
}

/** Waits until the workbench has loaded the folder and the explorer lists `fileName`. */
export async function waitForWorkbench(page, fileName, timeout = 90_000) {
  await waitFor('the workbench did not load', page.waitForSelector('.monaco-workbench', { timeout }));
  await waitFor(`the explorer did not list ${fileName}`, page.waitForSelector(`.explorer-folders-view .monaco-list-row[aria-label^="${fileName}"]`, { timeout }));
}

/** Opens a quick input (F1 or Ctrl+P), types `text`, and waits for it to show. */
async function quickInput(page, key, text) {
  await page.keyboard.press(key);
  const input = await waitFor(`${key} opened no quick input`, page.waitForSelector('.quick-input-widget input.input', { state: 'visible', timeout: WAIT }));
  await input.fill(text);
}

/**
 * Opens a file of the folder with Quick Open and waits for its editor tab.
 * A second try when the first leaves another tab active: a key pressed while
 * Quick Open still lists recent files can pick one of those.
 */
export async function openFile(page, fileName) {
  const tab = `.tabs-container .tab.active[data-resource-name="${fileName}"]`;
  for (let attempt = 1; ; attempt++) {
    await quickInput(page, 'Control+P', fileName);
    const row = page.locator(`.quick-input-list .monaco-list-row[aria-label*="${fileName}"]`).first();
    await waitFor(`Quick Open did not find ${fileName}`, row.waitFor({ state: 'visible', timeout: WAIT }));
    await row.click({ timeout: WAIT });
    try {
      await page.waitForSelector(tab, { timeout: attempt === 1 ? 10_000 : WAIT });
      break;
    } catch (e) {
      if (attempt === 2) throw new Error(`${fileName} did not open in an editor: ${String(e?.message ?? e).split('\n')[0]}`);
      await page.keyboard.press('Escape');
    }
  }
  await waitFor(`the editor of ${fileName} did not get focus`, page.waitForSelector('.editor-instance .monaco-editor.focused', { timeout: WAIT }));
}

/**
 * Saves the active editor once `what` (an edit that runs asynchronously:
 * a quick fix, formatting) has changed it, and waits until it is saved.
 */
export async function saveWhenChanged(page, what) {
  await waitFor(`${what} did not change the file in the editor`, page.waitForSelector('.tabs-container .tab.active.dirty', { timeout: WAIT }));
  await page.keyboard.press('Control+S');
  await waitFor(`the file did not save after ${what}`, page.waitForSelector('.tabs-container .tab.active:not(.dirty)', { timeout: WAIT }));
}

/** Picks the item labelled `label` in the quick pick titled `title` (typing it first). */
export async function pickQuickItem(page, title, label) {
  const titled = page.locator('.quick-input-widget .quick-input-title').filter({ hasText: title });
  await waitFor(`no quick pick "${title}" opened`, titled.waitFor({ state: 'visible', timeout: WAIT }));
  const input = await page.waitForSelector('.quick-input-widget input.input', { state: 'visible', timeout: WAIT });
  await input.fill(label);
  const row = page.locator('.quick-input-list .monaco-list-row').filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${escape(label)}$`) }) }).first();
  await waitFor(`the quick pick has no "${label}"`, row.waitFor({ state: 'visible', timeout: WAIT }));
  await row.click({ timeout: WAIT });
}

/**
 * Saves the active untitled editor where VS Code's save dialog proposes (the
 * folder, under the editor's name with the extension of its language) and
 * returns the saved file's name. Typing a path of our own into that dialog
 * is not reliable: it rewrites the input as it lists the folder.
 */
export async function saveUntitled(page, extension) {
  await page.keyboard.press('Control+S');
  const selector = '.quick-input-widget input.input';
  await waitFor('Save did not ask where', page.waitForSelector(selector, { state: 'visible', timeout: WAIT }));
  await waitFor('the save dialog proposed no path', page.waitForFunction((s) => document.querySelector(s)?.value.length > 0, selector, { timeout: WAIT }));
  await page.keyboard.press('Enter');
  const saved = `.tabs-container .tab.active[data-resource-name$="${extension}"]:not(.dirty)`;
  await waitFor(`the editor was not saved as a ${extension} file`, page.waitForSelector(saved, { timeout: WAIT }));
  return page.$eval(saved, (tab) => tab.getAttribute('data-resource-name'));
}

/** Runs a command by its exact Command Palette label; `asks`: the command shows a quick pick of its own, in the palette's place. */
export async function runCommand(page, label, { asks = false } = {}) {
  await quickInput(page, 'F1', `>${label}`);
  const row = page.locator('.quick-input-list .monaco-list-row').filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${escape(label)}$`) }) }).first();
  await waitFor(`the Command Palette has no command "${label}"`, row.waitFor({ state: 'visible', timeout: WAIT }));
  await row.click({ timeout: WAIT });
  if (asks) return;
  await waitFor(`the Command Palette did not close after "${label}"`, page.waitForSelector('.quick-input-widget', { state: 'hidden', timeout: WAIT }));
}

/** Moves the cursor of the active editor to the start of a 1-based line (Quick Open's `:line`). */
export async function goToLine(page, line) {
  await quickInput(page, 'Control+P', `:${line}`);
  await waitFor(`Quick Open did not offer line ${line}`, page.waitForSelector('.quick-input-list .monaco-list-row', { timeout: WAIT }));
  await page.keyboard.press('Enter');
  const position = page.locator('.statusbar').getByText(new RegExp(`^Ln ${line}, Col 1$`));
  await waitFor(`the cursor did not move to line ${line}`, position.waitFor({ state: 'visible', timeout: WAIT }));
  await waitFor('the editor did not get focus', page.waitForSelector('.editor-instance .monaco-editor.focused', { timeout: WAIT }));
}

/** Opens the Problems panel and waits until its badge shows `count` problems; returns the count it shows. */
export async function openProblems(page, count, timeout = 60_000) {
  await runCommand(page, 'Problems: Focus on Problems View');
  const badge = '.panel .composite-bar .action-item.checked .badge-content';
  try {
    await page.waitForFunction(
      ({ badge, count }) => document.querySelector(badge)?.textContent?.trim() === String(count),
      { badge, count },
      { timeout },
    );
  } catch {
    // Reported by the caller, with what the panel lists.
  }
  return (await page.$eval(badge, (e) => e.textContent.trim()).catch(() => '0')) || '0';
}

/**
 * The problems the Problems panel lists, as { file, rule, line, column,
 * severity } (file: its name; severity 2 error, 1 warning), read from the
 * rendered rows. The panel is
 * maximized while reading, so that its virtual list renders every row;
 * `whileMaximized` runs then (for a screenshot).
 */
export async function readProblems(page, { whileMaximized } = {}) {
  await runCommand(page, 'View: Toggle Maximized Panel');
  try {
    await page.waitForTimeout(500); // the list re-renders after the resize
    await whileMaximized?.();
    // The list renders the rows in view: scroll through it, keeping each row by its index.
    const byIndex = new Map();
    const panel = await page.$('.markers-panel .monaco-list');
    const box = await panel?.boundingBox();
    if (box) await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    for (let pass = 0; pass < 20; pass++) {
      const before = byIndex.size;
      for (const row of await renderedProblemRows(page)) byIndex.set(row.index, row);
      if (pass > 0 && byIndex.size === before) break;
      await page.mouse.wheel(0, (box?.height ?? 600) / 2);
      await page.waitForTimeout(200);
    }
    const rows = [...byIndex.values()];
    let file = '';
    const problems = [];
    for (const row of rows.sort((a, b) => a.index - b.index)) {
      if ('file' in row) file = row.file;
      else if (!row.related) problems.push({ ...row, file });
    }
    return problems;
  } finally {
    await runCommand(page, 'View: Toggle Maximized Panel');
  }
}

/** The rows of the Problems panel now rendered: a file's row ({ index, file }) heads its problems' rows. */
function renderedProblemRows(page) {
  return page.$$eval('.markers-panel .monaco-list-row', (rows) =>
    rows.map((r) => {
        const index = Number(r.getAttribute('data-index'));
        if (!r.querySelector('.marker-code')) {
          // A file's row (with its icon) heads its problems' rows; a related location's row is neither.
          const label = r.querySelector('.monaco-icon-label.file-icon .label-name');
          return label ? { index, file: label.textContent.trim() } : { index, related: true };
        }
        const where = /\[Ln (\d+), Col (\d+)\]/.exec(r.querySelector('.marker-line')?.textContent ?? '') ?? [];
        const icon = r.querySelector('.marker-icon');
        return {
          rule: r.querySelector('.marker-code').textContent.trim(),
          line: Number(where[1]),
          column: Number(where[2]),
          severity: icon?.classList.contains('error') ? 2 : icon?.classList.contains('warning') ? 1 : 0,
          source: r.querySelector('.marker-source')?.textContent.trim() ?? '',
          index,
        };
      }),
  );
}

/** Opens the quick fix menu at the cursor and applies the action labelled `label`. */
export async function applyQuickFix(page, label) {
  await page.keyboard.press('Control+.');
  const item = page.locator(`.action-widget .monaco-list-row.action[aria-label="${label}"]`);
  await waitFor(`the quick fix menu has no "${label}"`, item.waitFor({ state: 'visible', timeout: WAIT }));
  // The menu is driven by keys: a block over the page takes the mouse while it is open.
  const rows = await page.locator('.action-widget .monaco-list-row.action').count();
  for (let i = 0; i <= rows; i++) {
    if ((await item.getAttribute('class'))?.split(' ').includes('focused')) break;
    if (i === rows) throw new Error(`the quick fix menu did not focus "${label}"`);
    await page.keyboard.press('ArrowDown');
  }
  await page.keyboard.press('Enter');
  await waitFor('the quick fix menu did not close', page.waitForSelector('.action-widget', { state: 'hidden', timeout: WAIT }));
}

/**
 * Shows the hover at the cursor (Ctrl+K Ctrl+I) and returns its text once it
 * matches `expected`, or the last text shown when `timeout` runs out. The
 * keys are pressed again every few seconds: a server that is (re)starting
 * has no hover provider yet, and VS Code does not ask again by itself.
 */
export async function hoverAtCursor(page, expected, timeout = WAIT) {
  const hover = '.monaco-editor .monaco-hover:not(.hidden) .hover-contents';
  const deadline = Date.now() + timeout;
  let text = '';
  do {
    await page.keyboard.press('Control+K');
    await page.keyboard.press('Control+I');
    try {
      await page.waitForFunction(
        ({ hover, source }) => [...document.querySelectorAll(hover)].some((e) => new RegExp(source).test(e.textContent)),
        { hover, source: expected.source },
        { timeout: Math.max(1, Math.min(5000, deadline - Date.now())) },
      );
    } catch {
      // Not yet: try again until the deadline.
    }
    text = (await page.$$eval(hover, (els) => els.map((e) => e.innerText).join('\n'))).trim();
    if (expected.test(text)) return text;
    await page.keyboard.press('Escape');
  } while (Date.now() < deadline);
  if (!text) throw new Error(`no hover appeared at the cursor within ${timeout / 1000} s`);
  return text;
}

/**
 * What the active editor shows of the conversation's budget, once the line
 * starting with `marker` has its inlay hint: that hint's text (injected
 * after the line's text), the code lenses' titles on screen, and the text of
 * msglint's status bar item.
 */
export async function readBudget(page, marker, lenses = [], timeout = 60_000) {
  const read = ({ marker }) => {
    const norm = (t) => (t ?? '').replace(/\u00a0/g, ' ');
    const line = [...document.querySelectorAll('.editor-instance .monaco-editor .view-line')].find((l) => norm(l.textContent).startsWith(marker));
    const hint = line ? norm(line.textContent).slice(marker.length).trim() : '';
    const lenses = [...document.querySelectorAll('.editor-instance .codelens-decoration a, .editor-instance .codelens-decoration span')]
      .map((e) => norm(e.textContent).trim())
      .filter((t) => t !== '' && t !== '|');
    const status = [...document.querySelectorAll('.statusbar-item')].map((e) => norm(e.textContent)).find((t) => t.includes('msglint')) ?? '';
    return { hint, lenses, status };
  };
  await waitFor(
    `no inlay hint with a total after ${marker}, no code lens${lenses.length ? ` (${lenses.join(', ')})` : ''}, or no total in the status bar`,
    page.waitForFunction((arg) => {
      const norm = (t) => (t ?? '').replace(/\u00a0/g, ' ');
      const line = [...document.querySelectorAll('.editor-instance .monaco-editor .view-line')].find((l) => norm(l.textContent).startsWith(arg.marker));
      const status = [...document.querySelectorAll('.statusbar-item')].some((e) => /msglint.*Σ/.test(norm(e.textContent)));
      // Lenses are resolved as they are shown: wait for each title asked for.
      const titles = [...document.querySelectorAll('.editor-instance .codelens-decoration a')].map((e) => norm(e.textContent).trim());
      return !!line && norm(line.textContent).includes('Σ') && status && titles.length > 0 && arg.lenses.every((t) => titles.includes(t));
    }, { marker, lenses }, { timeout }),
  );
  return page.evaluate(read, { marker });
}

/** Clicks the code lens titled `title` shown above the line starting with `marker`. */
export async function clickCodeLens(page, marker, title) {
  // VS Code draws a lens again when the lenses are refreshed or resolved, so
  // an element found may be replaced before the click lands: find it again.
  const deadline = Date.now() + WAIT;
  for (;;) {
    const lens = await page.evaluateHandle(
      ({ marker, title }) => {
        const norm = (t) => (t ?? '').replace(/\u00a0/g, ' ');
        const line = [...document.querySelectorAll('.editor-instance .monaco-editor .view-line')].find((l) => norm(l.textContent).startsWith(marker));
        if (!line) return null;
        const top = line.getBoundingClientRect().top;
        const above = [...document.querySelectorAll('.editor-instance .codelens-decoration a')]
          .filter((a) => norm(a.textContent).trim() === title && a.getBoundingClientRect().bottom <= top + 2)
          .sort((a, b) => b.getBoundingClientRect().bottom - a.getBoundingClientRect().bottom);
        return above[0] ?? null;
      },
      { marker, title },
    );
    const element = lens.asElement();
    if (!element) {
      if (Date.now() > deadline) throw new Error(`no code lens "${title}" above ${marker}`);
    } else {
      try {
        await element.click({ timeout: 2_000 });
        return;
      } catch (e) {
        if (Date.now() > deadline) throw e;
      }
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

function escape(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
