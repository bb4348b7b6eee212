// The language server's guard figures for bench/compare.mjs, one build at a
// time so that the caller can interleave builds: every keystroke kind on
// the 10-, 1,000- and 5,000-turn files with completion, hover and semantic
// tokens after each keystroke, the first keystroke of each kind on a fresh
// server, and the resident set after random keystrokes.

import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { ClientText } from './client-text.mjs';
import { startServer } from './lsp-session.mjs';
import { fmtMs, log, median, round, sleep } from './util.mjs';
import { memoryAfterKeystrokes } from '../sections/lsp.mjs';
import { p95, runScenarios, SCENARIOS } from '../sections/keystrokes.mjs';

const SIZES = ['turns10', 'turns1000', 'turns5000'];

/** Opens `file` on a fresh server of `script`; returns the session, the URI and the open time. */
async function opened(script, file, text) {
  const session = await startServer(script, {});
  if (session.skipped) throw new Error(session.skipped);
  const t0 = performance.now();
  const uri = await session.open(file, text);
  await session.diagnostics(uri, 'first diagnostics');
  return { session, uri, openMs: performance.now() - t0 };
}

/** Every scenario on each of SIZES, with requests (runScenarios): { [size]: { openMs, scenarios } }. */
export async function keystrokesOnce(script, manifest) {
  const out = {};
  for (const size of SIZES) {
    const file = manifest.files[size].path;
    const text = readFileSync(file, 'utf8');
    const { session, uri, openMs } = await opened(script, file, text);
    try {
      out[size] = { openMs, scenarios: await runScenarios(session, uri, text, { pause: 20, requests: true }) };
    } finally {
      await session.stop();
    }
  }
  return out;
}

/** The first step of each scenario, each on a fresh server `waitMs` after opening `file`: { [key]: ms }. */
export async function firstKeystrokes(script, file, waitMs = 1000) {
  const text = readFileSync(file, 'utf8');
  const out = {};
  for (const s of SCENARIOS) {
    const { session, uri } = await opened(script, file, text);
    try {
      await sleep(waitMs);
      const client = new ClientText(text);
      const step = s.steps(text)[0];
      const change = client.apply(step.at, step.remove, step.insert);
      const t0 = performance.now();
      await session.change(uri, [change]);
      await session.diagnostics(uri, `${s.key}: first keystroke`);
      out[s.key] = performance.now() - t0;
    } finally {
      await session.stop();
    }
  }
  return out;
}

/** Resident set after opening the 5,000-turn file and after `n` random keystrokes (lsp.mjs). */
export function memoryOnce(script, file, n) {
  return memoryAfterKeystrokes(file, n, script);
}

/** Logs the figures gathered over the rounds: `runs[build]` lists each round's results. */
export function logGuard(runs) {
  const builds = Object.keys(runs);
  const fig = (x) => `${fmtMs(x.median)} / ${fmtMs(x.p95)}`;
  if (builds.every((b) => runs[b].keystrokes.length)) {
    // Samples of every round pooled per build, kind and size.
    const pooled = (b, size, key) => runs[b].keystrokes.flatMap((r) => r[size].scenarios[key]?.samples ?? []);
    const stats = (xs) => ({ median: median(xs), p95: p95(xs) });
    log(`\n| keystroke kind -> diagnostics (5,000 turns, median / p95; growth from 10 turns; p95 at 1,000 turns) | ${builds.join(' | ')} |`);
    log(`|---|${builds.map(() => '---|').join('')}`);
    for (const s of SCENARIOS) {
      const cells = builds.map((b) => {
        const large = stats(pooled(b, 'turns5000', s.key));
        const small = stats(pooled(b, 'turns10', s.key));
        return `${fig(large)} (${round(large.median / small.median, 2)}x; ${fmtMs(p95(pooled(b, 'turns1000', s.key)))})`;
      });
      log(`| ${s.key} | ${cells.join(' | ')} |`);
    }
    // Completion, hover and semantic tokens after each keystroke, p95 per kind.
    const asked = (b, key, what) => runs[b].keystrokes.flatMap((r) => r.turns5000.scenarios[key]?.requests?.[what].samples ?? []);
    log(`\n| 5,000 turns, p95: keystroke -> completion / then hover / semantic tokens (full; the screen) | ${builds.join(' | ')} |`);
    log(`|---|${builds.map(() => '---|').join('')}`);
    for (const s of SCENARIOS) {
      const cells = builds.map((b) => {
        const [c, h, t, st] = ['completion', 'hover', 'tokens', 'screenTokens'].map((w) => fmtMs(p95(asked(b, s.key, w))));
        return `${c} / ${h} / ${t}; ${st}`;
      });
      log(`| ${s.key} | ${cells.join(' | ')} |`);
    }
    const opens = (b) => median(runs[b].keystrokes.map((r) => r.turns5000.openMs));
    log(`| open 5,000 turns -> diagnostics (median of ${runs[builds[0]].keystrokes.length}) | ${builds.map((b) => fmtMs(opens(b))).join(' | ')} |`);
  }
  if (builds.every((b) => runs[b].first.length)) {
    log(`\n| first keystroke after opening 5,000 turns (median of ${runs[builds[0]].first.length} fresh servers; max) | ${builds.join(' | ')} |`);
    log(`|---|${builds.map(() => '---|').join('')}`);
    for (const s of SCENARIOS) {
      const cells = builds.map((b) => {
        const xs = runs[b].first.map((r) => r[s.key]);
        return `${fmtMs(median(xs))} (${fmtMs(Math.max(...xs))})`;
      });
      log(`| ${s.key} | ${cells.join(' | ')} |`);
    }
  }
  if (builds.every((b) => runs[b].memory.length)) {
    log('\n| memory, 5,000 turns: after opening -> after random keystrokes, settled (ratio) | ' + builds.join(' | ') + ' |');
    log(`|---|${builds.map(() => '---|').join('')}`);
    const rows = Math.max(...builds.map((b) => runs[b].memory.length));
    for (let i = 0; i < rows; i++) {
      const cells = builds.map((b) => {
        const m = runs[b].memory[i];
        return m && !m.skipped ? `${m.openedMB} -> ${m.afterMB} MB (${m.ratio}x; 2 s after: ${m.soon.ratio}x)` : (m?.skipped ?? '–');
      });
      log(`| round ${i + 1} | ${cells.join(' | ')} |`);
    }
  }
}
