// Every kind of keystroke of issue 21 on files of 10, 1,000 and 5,000 turns:
// one character per didChange (a paste or a deleted cell is one change),
// diagnostics pulled after each; median and p95 per scenario and size, and
// the growth from the smallest file to the largest.

import { performance } from 'node:perf_hooks';
import { generateMessageFile } from '../generate.mjs';
import { ClientText } from '../lib/client-text.mjs';
import { median, round, sleep } from '../lib/util.mjs';

/** The 95th percentile (nearest rank). */
export const p95 = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(0.95 * s.length) - 1)];
};

/** Line starts of the cells' marker lines, and where each line starts. */
function cellStarts(text) {
  const starts = [];
  const re = /^#{1,6} %%/gm;
  for (let m; (m = re.exec(text)); ) starts.push(m.index);
  return starts;
}

/** The cell start nearest the middle of the file whose marker line matches `re`. */
function middleCell(text, re) {
  const starts = cellStarts(text);
  const mid = starts.length >> 1;
  for (let d = 0; d < starts.length; d++) {
    for (const i of [mid + d, mid - d]) {
      const s = starts[i];
      if (s === undefined) continue;
      const end = starts[i + 1] ?? text.length;
      if (re.test(text.slice(s, end))) return { start: s, end, index: i, starts };
    }
  }
  throw new Error(`no cell matching ${re} in the file`);
}

/** The end of the first prose line of a user message near the middle. */
function proseLineEnd(text) {
  const c = middleCell(text, /\]: \[markdown\][^\n]*\n\n[A-Z][^\n]+\n/);
  const line = c.start + text.slice(c.start, c.end).search(/\n\n[A-Z]/) + 2;
  return text.indexOf('\n', line);
}

/** Steps typing `s` at `at`, one character each. */
const typing = (at, s) => [...s].map((ch, i) => ({ at: at + i, remove: 0, insert: ch }));
/** Steps deleting `n` characters before `end` with Backspace, one each. */
const backspaces = (end, n) => Array.from({ length: n }, (_, i) => ({ at: end - i - 1, remove: 1, insert: '' }));

/**
 * The scenarios: each gives the steps for a text (offsets in the text as the
 * earlier steps left it). `measure` false: a step that sets up the next one
 * (the undo of a paste), diagnostics pulled but not counted.
 */
export const SCENARIOS = [
  {
    key: 'prose',
    what: 'prose inside a cell in the middle',
    steps(text) {
      return typing(proseLineEnd(text), ' and the quick brown fox jumps');
    },
  },
  {
    key: 'newCell',
    what: 'a new message cell at the end (marker, id, metadata line, text)',
    steps(text) {
      const ids = [...text.matchAll(/\[\^(\d+)\]/g)].map((m) => Number(m[1]));
      const id = Math.max(0, ...ids) + 1;
      const at = text.length;
      return typing(at, `\n# %% Next question[^${id}]\n\n[^${id}]: [markdown] history=include\n\nWhy does it fail?\n`);
    },
  },
  {
    key: 'marker',
    what: 'a cell marker deleted and typed again',
    steps(text) {
      const c = middleCell(text, /^# %% Question/);
      return [...backspaces(c.start + 5, 5), ...typing(c.start, '# %% ')];
    },
  },
  {
    key: 'id',
    what: "a cell's id deleted and typed again",
    steps(text) {
      const c = middleCell(text, /^# %%% Answer \d+\[\^\d+\]/);
      const m = /\[\^(\d+)\]/.exec(text.slice(c.start, c.end));
      const idEnd = c.start + m.index + 2 + m[1].length;
      return [...backspaces(idEnd, m[1].length), ...typing(idEnd - m[1].length, m[1])];
    },
  },
  {
    key: 'metadata',
    what: 'a metadata value in the middle (status="success" -> "error_with_retry")',
    steps(text) {
      const c = middleCell(text, /status="success"/);
      const at = c.start + text.slice(c.start, c.end).indexOf('status="success"') + 'status="'.length;
      return [...backspaces(at + 7, 7), ...typing(at, 'error_with_retry')];
    },
  },
  {
    key: 'toolXml',
    what: "a tool call's XML (a new argument element)",
    steps(text) {
      const c = middleCell(text, /<arguments>\n/);
      const at = c.start + text.slice(c.start, c.end).indexOf('<arguments>') + '<arguments>'.length;
      return typing(at, '\n  <mode>fast</mode>');
    },
  },
  {
    key: 'fence',
    what: 'a code fence opened and closed in a message',
    steps(text) {
      return typing(proseLineEnd(text), '\n\n```\nx = 1\n```');
    },
  },
  {
    key: 'openFence',
    what: 'a code block typed in a message, with a fence no later line could close',
    steps(text) {
      // The files hold no ~~~ line: while the block is open, every keystroke has it open to the end of the file.
      return typing(proseLineEnd(text), '\n\n~~~\nx = 1\ny = 2\n~~~');
    },
  },
  {
    key: 'paste',
    what: 'a block of 50 cells pasted in the middle (then undone)',
    steps(text) {
      const block = pastedCells(50);
      const c = middleCell(text, /^# %% Question/);
      const steps = [];
      for (let i = 0; i < 5; i++) {
        steps.push({ at: c.start, remove: 0, insert: block });
        steps.push({ at: c.start, remove: block.length, insert: '', measure: false });
      }
      return steps;
    },
  },
  {
    key: 'deleteCell',
    what: 'a message cell deleted (then undone)',
    steps(text) {
      const c = middleCell(text, /^# %% Question/);
      const steps = [];
      for (let k = 0; k < 5; k++) {
        const start = c.starts[c.index + k];
        const len = (c.starts[c.index + k + 1] ?? text.length) - start;
        const cell = text.slice(start, start + len);
        steps.push({ at: start, remove: len, insert: '' });
        steps.push({ at: start, remove: 0, insert: cell, measure: false });
      }
      return steps;
    },
  },
];

/** 50 cells of another conversation, with ids no cell of the benchmark's files has. */
function pastedCells(n) {
  const other = generateMessageFile({ turns: 40, seed: 7 });
  const starts = cellStarts(other);
  return other.slice(starts[0], starts[n]).replace(/\[\^(\d+)/g, (_, d) => `[^${Number(d) + 9_000_000}`);
}

/** One screen of 60 lines around a line, as an editor asks inlay hints for it. */
export function screenAround(line) {
  const start = Math.max(0, line - 30);
  return { start: { line: start, character: 0 }, end: { line: start + 60, character: 0 } };
}

/** Times an inlay-hint request for `range`; returns [ms, hints]. */
export async function timeInlayHints(session, uri, range) {
  const t0 = performance.now();
  const hints = await session.request('textDocument/inlayHint', { textDocument: { uri }, range });
  return [performance.now() - t0, hints];
}

/**
 * Runs every scenario on one open document of `session`, each from the
 * file's text as opened (after a scenario the text is put back with one
 * change, not measured). Returns { [key]: { median, p95, samples } }; with
 * `hints`, also the inlay hints of the screen around each edit, asked after
 * its diagnostics (`hints: { median, p95, samples }`); with `requests`,
 * completion at the cursor asked right after the keystroke, before its
 * diagnostics (timed from the keystroke, and the diagnostics' time includes
 * it), then hover at the cursor, the full semantic tokens and those of the
 * screen around the cursor, each after the diagnostics (`requests: {
 * completion, hover, tokens, screenTokens }`, each `{ median, p95, samples }`).
 * `settle`: milliseconds waited before the first keystroke, as a user reads a
 * file before typing in it; the server warms its typing path then
 * (server/lsp/warm-up.ts). A keystroke sooner after opening is the
 * first-keystroke row's (compare-lsp.mjs, firstKeystrokes).
 */
export async function runScenarios(session, uri, text, { pause = 20, settle = 3000, only, hints = false, requests = false } = {}) {
  const out = {};
  await sleep(settle);
  // The editor's copy of the text: each change's range is found in it
  // before the clock starts, without reading the whole text (client-text.mjs).
  const client = new ClientText(text);
  const apply = (step) => session.change(uri, [client.apply(step.at, step.remove, step.insert)]);
  for (const s of SCENARIOS) {
    if (only && !only.includes(s.key)) continue;
    const ms = [];
    const hintMs = [];
    const asked = { completion: [], hover: [], tokens: [], screenTokens: [] };
    for (const step of s.steps(client.text)) {
      await sleep(pause); // a typist's pause: no work of the previous keystroke left over
      const change = client.apply(step.at, step.remove, step.insert);
      const position = client.positionAt(step.at + step.insert.length);
      const t0 = performance.now();
      await session.change(uri, [change]);
      // As an editor asks it while typing: before the diagnostics, timed from the keystroke.
      if (requests) await session.request('textDocument/completion', { textDocument: { uri }, position }, `${s.key}: completion`);
      const completed = performance.now();
      await session.diagnostics(uri, `${s.key}: diagnostics`);
      if (step.measure === false) continue;
      ms.push(performance.now() - t0);
      if (hints) hintMs.push((await timeInlayHints(session, uri, screenAround(change.range.start.line)))[0]);
      if (!requests) continue;
      asked.completion.push(completed - t0);
      for (const [key, method, params] of [
        ['hover', 'textDocument/hover', { textDocument: { uri }, position }],
        ['tokens', 'textDocument/semanticTokens/full', { textDocument: { uri } }],
        ['screenTokens', 'textDocument/semanticTokens/range', { textDocument: { uri }, range: screenAround(position.line) }],
      ]) {
        const t = performance.now();
        await session.request(method, params, `${s.key}: ${key}`);
        asked[key].push(performance.now() - t);
      }
    }
    const stats = (xs) => ({ median: round(median(xs), 2), p95: round(p95(xs), 2), samples: xs.map((x) => round(x, 2)) });
    out[s.key] = stats(ms);
    if (hints) out[s.key].hints = stats(hintMs);
    if (requests) out[s.key].requests = Object.fromEntries(Object.entries(asked).map(([k, xs]) => [k, stats(xs)]));
    // Put the file back as it was opened: one change over the scenario's span.
    const current = client.text;
    if (current !== text) {
      let a = 0;
      while (a < current.length && a < text.length && current.charCodeAt(a) === text.charCodeAt(a)) a++;
      let b = 0;
      while (b < current.length - a && b < text.length - a && current.charCodeAt(current.length - 1 - b) === text.charCodeAt(text.length - 1 - b)) b++;
      await apply({ at: a, remove: current.length - b - a, insert: text.slice(a, text.length - b) });
      await session.diagnostics(uri, `${s.key}: diagnostics after the undo`);
    }
  }
  return out;
}

/**
 * `n` random keystrokes in bursts: a random place, then 1 to 20 characters
 * typed or deleted there, diagnostics pulled after each burst. `pause`: a
 * typist's pause before each keystroke (the server collects its garbage
 * when it is idle, as it is between a person's keystrokes: see
 * server/lsp/idle-gc.ts).
 */
export async function randomKeystrokes(session, uri, text, n, seed = 21, pause = 20) {
  let a = seed >>> 0;
  const rnd = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const chars = 'abcdefghij klmnop\n#%[]^"=<>`.';
  // Positions found without reading the whole text (client-text.mjs).
  const client = new ClientText(text);
  let length = text.length;
  let done = 0;
  while (done < n) {
    let at = Math.floor(rnd() * length);
    const burst = Math.min(n - done, 1 + Math.floor(rnd() * 20));
    const del = rnd() < 0.3;
    for (let i = 0; i < burst; i++) {
      await sleep(pause);
      if (del && at > 0) {
        await session.change(uri, [client.apply(at - 1, 1, '')]);
        at--;
        length--;
      } else {
        await session.change(uri, [client.apply(at, 0, chars[Math.floor(rnd() * chars.length)])]);
        at++;
        length++;
      }
    }
    done += burst;
    await session.diagnostics(uri, 'diagnostics after random keystrokes');
  }
  return client.text;
}
