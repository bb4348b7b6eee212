// The language server over stdio on one file: open to first diagnostics,
// one-character edits to their diagnostics, completion and hover.

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { positionAt, startServer } from '../lib/lsp-session.mjs';
import { BENCH, OUT, ROOT, fmtMs, log, median, round, sleep, target } from '../lib/util.mjs';
import { p95, randomKeystrokes, runScenarios, SCENARIOS, screenAround, timeInlayHints } from './keystrokes.mjs';

const SIZES = [
  ['turns10', '10 turns'],
  ['turns1000', '1,000 turns'],
  ['turns5000', '5,000 turns'],
];

const lspNodeArgs = () => (process.env.BENCH_LSP_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);

/**
 * Runs the section and logs its figures; returns results.lsp: the feature
 * latencies on the 5,000-turn file (benchLsp), then every keystroke
 * scenario per file size, memory after random keystrokes, and open time
 * against BENCH_LSP_BASELINE (another build's dist/server/lsp/main.js) when set.
 */
export async function lspSection(manifest, o) {
  log('\n## language server (stdio, 5,000-turn file)');
  const r = await benchLsp(manifest.files.turns5000.path, o.lspSamples);
  if (r.skipped) {
    log(`  skipped: ${r.skipped}`);
    return r;
  }
  log(`  diagnostics: ${r.diagnosticsMode}`);
  log(`  open -> diagnostics            ${fmtMs(r.openToDiagnosticsMs)}`);
  log(`  edit -> diagnostics            median ${fmtMs(r.editToDiagnosticsMs.median)}, max ${fmtMs(r.editToDiagnosticsMs.max)}`);
  log(`  completion                     median ${fmtMs(r.completionMs.median)}, max ${fmtMs(r.completionMs.max)} (${r.completionMs.items} items)`);
  log(`  hover                          median ${fmtMs(r.hoverMs.median)}, max ${fmtMs(r.hoverMs.max)}${r.hoverMs.found ? '' : ' (no hover)'}`);
  log(`  edit -> completion             median ${fmtMs(r.editToCompletionMs.median)}, max ${fmtMs(r.editToCompletionMs.max)}`);
  if (r.serverPeakRssMB) log(`  server peak RSS                ${r.serverPeakRssMB} MB`);
  if (r.warning) log(`  warning: ${r.warning}`);
  r.keystrokes = await keystrokeSection(manifest, o);
  return r;
}

/** The previous run's keystroke figures: the newer of bench/results.json and the last --quick/--only run. */
function previousKeystrokes() {
  let best = null;
  for (const f of [path.join(BENCH, 'results.json'), path.join(OUT, 'results-quick.json')]) {
    try {
      const r = JSON.parse(readFileSync(f, 'utf8'));
      if (r.lsp?.keystrokes && (!best || r.date > best.date)) best = { date: r.date, file: path.relative(ROOT, f), ...r.lsp.keystrokes };
    } catch {
      // none yet
    }
  }
  return best;
}

async function keystrokeSection(manifest, o) {
  const prev = previousKeystrokes();
  const out = { sizes: {}, previous: prev ? { date: prev.date, file: prev.file } : null };
  log(`\n## keystrokes (one character per didChange, diagnostics pulled after each; ms median / p95${prev ? `, previous run ${prev.date.slice(0, 16)} in brackets` : ''})`);
  for (const [key, label] of SIZES) {
    const file = manifest.files[key].path;
    const text = readFileSync(file, 'utf8');
    const session = await startServer(target.lsp, { nodeArgs: lspNodeArgs() });
    if (session.skipped) return { skipped: session.skipped };
    try {
      const t0 = performance.now();
      const uri = await session.open(file, text);
      await session.diagnostics(uri, 'first diagnostics');
      const openMs = performance.now() - t0;
      // The first inlay hints after opening: the top screen (where an editor opens a file), then one in the middle.
      const middleLine = text.slice(0, text.length >> 1).split('\n').length;
      const [firstHintsMs, firstHints] = await timeInlayHints(session, uri, screenAround(0));
      const [middleHintsMs] = await timeInlayHints(session, uri, screenAround(middleLine));
      const scenarios = await runScenarios(session, uri, text, { pause: 20, hints: true });
      const completion = [];
      const hover = [];
      // The agent of a reply's metadata line near the middle: complete after `[`, hover on the name.
      const found = text.indexOf(']: [coder]', text.length >> 1);
      const at = (found === -1 ? text.indexOf(']: [coder]') : found) + 3;
      const pos = positionAt(text, at);
      for (let i = 0; i < o.lspSamples; i++) {
        let t = performance.now();
        await session.request('textDocument/completion', { textDocument: { uri }, position: { line: pos.line, character: pos.character + 1 }, context: { triggerKind: 2, triggerCharacter: '[' } });
        completion.push(performance.now() - t);
        t = performance.now();
        await session.request('textDocument/hover', { textDocument: { uri }, position: { line: pos.line, character: pos.character + 3 } });
        hover.push(performance.now() - t);
      }
      out.sizes[key] = {
        label,
        bytes: manifest.files[key].bytes,
        openMs: round(openMs, 1),
        firstHints: { topMs: round(firstHintsMs, 2), middleMs: round(middleHintsMs, 2), hints: Array.isArray(firstHints) ? firstHints.length : null },
        scenarios,
        completionMs: { median: round(median(completion), 2), p95: round(p95(completion), 2) },
        hoverMs: { median: round(median(hover), 2), p95: round(p95(hover), 2) },
      };
      log(`  ${label}: open -> diagnostics ${fmtMs(openMs)}${prev?.sizes?.[key] ? ` [${fmtMs(prev.sizes[key].openMs)}]` : ''}`);
    } catch (e) {
      out.sizes[key] = { skipped: `${e.message}\n${session.stderr().trim().split('\n').slice(0, 10).join('\n')}` };
      log(`  ${label}: failed: ${out.sizes[key].skipped}`);
    } finally {
      await session.stop();
    }
  }
  const small = out.sizes.turns10?.scenarios;
  const large = out.sizes.turns5000?.scenarios;
  out.growth = {};
  if (small && large) for (const s of SCENARIOS) if (small[s.key] && large[s.key]) out.growth[s.key] = round(large[s.key].median / small[s.key].median, 2);
  out.memory = await memoryAfterKeystrokes(manifest.files.turns5000.path, o.quick ? 500 : 10_000);
  const baseline = process.env.BENCH_LSP_BASELINE;
  if (baseline) out.openAgainstBaseline = await openAgainst(baseline, manifest.files.turns5000.path, o.quick ? 1 : 3);
  logKeystrokes(out, prev);
  return out;
}

/**
 * The server's resident set 2 s after its last work (`soon`) and once it
 * has settled: read every second until it has stayed within 1 MB for 20 s
 * (at most 60 s). The server's idle collection (lsp/idle-gc.ts) frees the
 * versions typed since the last pause, but V8 gives the pages they leave
 * partly used back to the system only when its memory reducer compacts
 * them, 10 to 20 s later; the settled figure is what the server keeps.
 */
async function settledMemory(session) {
  const t0 = performance.now();
  await sleep(2000);
  const soon = session.memory();
  let last = soon;
  let steady = 0;
  while (last && steady < 20 && performance.now() - t0 < 60_000) {
    await sleep(1000);
    const now = session.memory();
    steady = Math.abs(now.rssMB - last.rssMB) < 1 ? steady + 1 : 0;
    last = now;
  }
  return last && { ...last, soonMB: soon.rssMB, seconds: round((performance.now() - t0) / 1000, 0) };
}

/** Resident set after opening the 5,000-turn file and after `n` random keystrokes (on the server at `script`). */
export async function memoryAfterKeystrokes(file, n, script = target.lsp) {
  const text = readFileSync(file, 'utf8');
  const session = await startServer(script, { nodeArgs: lspNodeArgs() });
  if (session.skipped) return { skipped: session.skipped };
  try {
    const uri = await session.open(file, text);
    await session.diagnostics(uri, 'first diagnostics');
    const opened = await settledMemory(session);
    const t0 = performance.now();
    await randomKeystrokes(session, uri, text, n);
    const seconds = (performance.now() - t0) / 1000;
    const after = await settledMemory(session);
    if (!opened || !after) return { skipped: 'no /proc here' };
    return {
      keystrokes: n,
      seconds: round(seconds, 1),
      openedMB: round(opened.rssMB, 1),
      afterMB: round(after.rssMB, 1),
      ratio: round(after.rssMB / opened.rssMB, 2),
      peakMB: round(after.peakMB, 1),
      // 2 s after the last keystroke, before V8 compacted what the typing left.
      soon: { openedMB: round(opened.soonMB, 1), afterMB: round(after.soonMB, 1), ratio: round(after.soonMB / opened.soonMB, 2) },
      settledSeconds: [opened.seconds, after.seconds],
    };
  } catch (e) {
    return { skipped: `${e.message}\n${session.stderr().trim().split('\n').slice(0, 10).join('\n')}` };
  } finally {
    await session.stop();
  }
}

/**
 * Open -> first diagnostics of the 5,000-turn file, this build and another,
 * and a server that only keeps the text (text-only-server.mjs: the part of
 * an open no server can save), interleaved; medians.
 */
async function openAgainst(baseline, file, rounds) {
  const script = baseline.endsWith('.js') ? path.resolve(baseline) : path.resolve(baseline, 'dist/server/lsp/main.js');
  if (!existsSync(script)) return { skipped: `${script} is missing` };
  const scripts = { current: target.lsp, baseline: script, textOnly: path.join(ROOT, 'bench/lib/text-only-server.mjs') };
  const text = readFileSync(file, 'utf8');
  const times = { current: [], baseline: [], textOnly: [] };
  for (let i = 0; i < rounds; i++) {
    for (const which of i % 2 ? ['current', 'textOnly', 'baseline'] : ['baseline', 'textOnly', 'current']) {
      const session = await startServer(scripts[which], {});
      if (session.skipped) return { skipped: session.skipped };
      try {
        const t0 = performance.now();
        const uri = await session.open(file, text);
        await session.diagnostics(uri, 'first diagnostics');
        times[which].push(performance.now() - t0);
      } finally {
        await session.stop();
      }
    }
  }
  const c = median(times.current);
  const b = median(times.baseline);
  const t = median(times.textOnly);
  return { baseline: path.relative(ROOT, script), rounds, currentMs: round(c, 1), baselineMs: round(b, 1), ratio: round(c / b, 2), textOnlyMs: round(t, 1), textOnlyRatio: round(t / b, 2) };
}

function logKeystrokes(k, prev) {
  const fig = (x) => (x ? `${fmtMs(x.median)} / ${fmtMs(x.p95)}` : '–');
  const was = (size, key) => {
    const x = prev?.sizes?.[size]?.scenarios?.[key];
    return x ? ` [${fig(x)}]` : '';
  };
  log('');
  log(`  | what the user types | ${SIZES.map(([, l]) => l).join(' | ')} | growth 10 -> 5,000 (median) |`);
  log(`  |---|${SIZES.map(() => '---|').join('')}---|`);
  for (const s of SCENARIOS) {
    const cells = SIZES.map(([key]) => `${fig(k.sizes[key]?.scenarios?.[s.key])}${was(key, s.key)}`);
    const g = k.growth[s.key];
    const pg = prev?.growth?.[s.key];
    log(`  | ${s.what} | ${cells.join(' | ')} | ${g != null ? `${g}x` : '–'}${pg != null ? ` [${pg}x]` : ''} |`);
  }
  const openRow = SIZES.map(([key]) => `${fmtMs(k.sizes[key]?.openMs)}${prev?.sizes?.[key]?.openMs != null ? ` [${fmtMs(prev.sizes[key].openMs)}]` : ''}`);
  log(`  | opening the file, to first diagnostics | ${openRow.join(' | ')} | |`);
  const cmp = SIZES.map(([key]) => `${fig(k.sizes[key]?.completionMs)} · ${fig(k.sizes[key]?.hoverMs)}`);
  log(`  | completion · hover | ${cmp.join(' | ')} | |`);
  log('');
  log('  inlay hints of one screen (60 lines) around the edit, asked after its diagnostics (ms median / p95):');
  log(`  | what the user types | ${SIZES.map(([, l]) => l).join(' | ')} |`);
  log(`  |---|${SIZES.map(() => '---|').join('')}`);
  for (const s of SCENARIOS) log(`  | ${s.what} | ${SIZES.map(([key]) => fig(k.sizes[key]?.scenarios?.[s.key]?.hints)).join(' | ')} |`);
  const first = SIZES.map(([key]) => {
    const f = k.sizes[key]?.firstHints;
    return f ? `${fmtMs(f.topMs)} · ${fmtMs(f.middleMs)}` : '–';
  });
  log(`  | first after opening: top screen · a screen in the middle | ${first.join(' | ')} |`);
  const m = k.memory;
  if (m && !m.skipped) {
    log(`\n  memory (5,000 turns): ${m.openedMB} MB after opening, ${m.afterMB} MB after ${m.keystrokes} random keystrokes (${m.ratio}x; ${m.seconds} s of typing; settled after ${m.settledSeconds?.join(' and ')} s; 2 s after: ${m.soon?.openedMB} and ${m.soon?.afterMB} MB, ${m.soon?.ratio}x)${prev?.memory?.ratio != null ? ` [${prev.memory.ratio}x]` : ''}`);
  } else if (m) log(`\n  memory: skipped: ${m.skipped}`);
  const b = k.openAgainstBaseline;
  if (b && !b.skipped) log(`  open (5,000 turns) against ${b.baseline}: ${fmtMs(b.currentMs)} vs ${fmtMs(b.baselineMs)} (${b.ratio}x, medians of ${b.rounds}); a server that only keeps the text: ${fmtMs(b.textOnlyMs)} (${b.textOnlyRatio}x)`);
  else if (b) log(`  open against the baseline: skipped: ${b.skipped}`);
}

export async function benchLsp(file, samples) {
  if (!existsSync(target.lsp)) return { skipped: `${path.relative(ROOT, target.lsp)} is missing` };
  const text = readFileSync(file, 'utf8');
  const lines = text.split('\n');
  const mid = lines.length >> 1;
  // The reply metadata line nearest the middle: hover on the agent name, complete after `[`.
  let metaLine = -1;
  for (let d = 0; d < lines.length && metaLine === -1; d++) {
    for (const l of [mid + d, mid - d]) if (/^\[\^\d+\]: \[coder\]/.test(lines[l] ?? '')) metaLine = l;
  }
  // A prose line of a user message near the middle: the edits type there.
  let proseLine = -1;
  for (let l = mid; l < lines.length && proseLine === -1; l++) {
    if (/^\[\^\d+\]: \[markdown\]/.test(lines[l]) && /^[A-Z]/.test(lines[l + 2] ?? '')) proseLine = l + 2;
  }
  if (metaLine === -1 || proseLine === -1) return { skipped: 'no reply metadata or prose line found in the middle of the file' };
  const bracket = lines[metaLine].indexOf('[coder]');
  const hoverPos = { line: metaLine, character: bracket + 3 };
  const completionPos = { line: metaLine, character: bracket + 1 };

  // BENCH_LSP_NODE_ARGS: extra node options for the server (say, `--cpu-prof --cpu-prof-dir=/tmp/p` to profile it).
  const session = await startServer(target.lsp, { nodeArgs: lspNodeArgs() });
  if (session.skipped) return { skipped: session.skipped };
  const { stop, withTimeout } = session;
  let uri;
  const edit = (line, character, newText, removeLength = 0) =>
    session.change(uri, [{ range: { start: { line, character }, end: { line, character: character + removeLength } }, text: newText }]);
  const diagnosticsNow = (what) => session.diagnostics(uri, what);
  const conn = { sendRequest: (method, params) => session.request(method, params) };

  const result = { file: path.relative(ROOT, file), bytes: Buffer.byteLength(text) };
  try {
    const pull = session.diagnosticsMode === 'pull';
    result.diagnosticsMode = session.diagnosticsMode;
    // open -> first diagnostics
    let t0 = performance.now();
    uri = await session.open(file, text);
    const first = await diagnosticsNow('first diagnostics');
    result.openToDiagnosticsMs = round(performance.now() - t0, 1);
    result.firstDiagnostics = first?.length ?? null;
    if (first?.length) result.warning = `the server reports ${first.length} diagnostic(s) on a clean file: ${first[0].message}`;

    // one-character edits, each followed by the diagnostics of the new version
    let col = lines[proseLine].length;
    const editMs = [];
    for (let i = 0; i < samples; i++) {
      await sleep(30); // a typist's pause: no work of the previous keystroke left over
      t0 = performance.now();
      await edit(proseLine, col, 'x');
      await diagnosticsNow(`diagnostics after edit ${i + 1}`);
      editMs.push(performance.now() - t0);
      col++;
    }
    result.editToDiagnosticsMs = { median: round(median(editMs), 1), max: round(Math.max(...editMs), 1), samples: editMs.map((x) => round(x, 1)) };

    // completion and hover on the current (already analysed) version
    const timeRequest = async (method, params) => {
      const ms = [];
      let last;
      for (let i = 0; i < samples; i++) {
        t0 = performance.now();
        last = await withTimeout(conn.sendRequest(method, params), 60_000, method);
        ms.push(performance.now() - t0);
      }
      return { median: round(median(ms), 1), max: round(Math.max(...ms), 1), samples: ms.map((x) => round(x, 1)), last };
    };
    const comp = await timeRequest('textDocument/completion', { textDocument: { uri }, position: completionPos, context: { triggerKind: 2, triggerCharacter: '[' } });
    const items = Array.isArray(comp.last) ? comp.last.length : comp.last?.items?.length ?? 0;
    delete comp.last;
    result.completionMs = { ...comp, items, position: completionPos };
    const hov = await timeRequest('textDocument/hover', { textDocument: { uri }, position: hoverPos });
    const hoverFound = !!hov.last;
    delete hov.last;
    result.hoverMs = { ...hov, found: hoverFound, position: hoverPos };

    // completion right after a keystroke (the document changed, nothing analysed yet)
    const afterEdit = [];
    for (let i = 0; i < samples; i++) {
      await sleep(30);
      t0 = performance.now();
      await edit(proseLine, col, 'x');
      await withTimeout(conn.sendRequest('textDocument/completion', { textDocument: { uri }, position: completionPos, context: { triggerKind: 1 } }), 60_000, 'completion');
      afterEdit.push(performance.now() - t0);
      col++;
      if (!pull) await diagnosticsNow('push after edit'); // let the debounced push settle
    }
    result.editToCompletionMs = { median: round(median(afterEdit), 1), max: round(Math.max(...afterEdit), 1) };

    // sanity: a deliberate error must be reported, or the figures above measured nothing
    await edit(metaLine, bracket + 1, 'cdoer', 5);
    const broken = await diagnosticsNow('diagnostics of a broken file');
    result.reportsErrors = !!broken?.length;
    if (!result.reportsErrors) result.warning = 'the server reported nothing for a deliberate error ([cdoer]): the latencies may measure no linting';

    const mem = session.memory();
    if (mem) result.serverPeakRssMB = round(mem.peakMB, 1);
  } catch (e) {
    await stop();
    return { ...result, skipped: `the language server failed: ${e.message}${session.stderr() ? `\n${session.stderr().trim().split('\n').slice(0, 10).join('\n')}` : ''}` };
  }
  await stop();
  return result;
}
