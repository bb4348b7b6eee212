// The goals the benchmark checks, and results.md.

import { fmtMB, fmtMs, fmtS } from './util.mjs';

export function goals(r) {
  const g = [];
  const add = (goal, target, value, pass, note) => g.push({ goal, target, value, pass, ...(note ? { note } : {}) });
  const t1 = r.cli?.turns1000;
  if (t1?.ratio != null) add('CLI vs markdownlint, 1,000-turn file', '≥ 20x faster', `${t1.ratio}x`, t1.ratio >= 20);
  else add('CLI vs markdownlint, 1,000-turn file', '≥ 20x faster', null, null, 'not run');
  const t5 = r.cli?.turns5000?.msglint;
  add('5,000-turn file, whole process', '< 1.5 s', t5 ? fmtS(t5.best) : null, t5 ? t5.best < 1.5 : null, t5 ? undefined : 'not run');
  add('5,000-turn file, peak RSS', '< 400 MB', t5?.peakRssMB != null ? `${t5.peakRssMB} MB` : null, t5?.peakRssMB != null ? t5.peakRssMB < 400 : null, t5 ? undefined : 'not run');
  const gr = r.growth;
  add('Growth, 50,000 / 5,000 cells', '≤ 12x', gr ? `${gr.ratio}x` : null, gr ? gr.ratio <= 12 : null, gr ? undefined : 'not run');
  for (const [name, c] of Object.entries(gr?.crafted ?? {})) {
    add(`Growth of a crafted file, 4n / n: ${name} (issue 35)`, '≤ 5x', c.ratio != null ? `${c.ratio}x` : null, c.ratio != null ? c.ratio <= 5 : null, c.ratio != null && c.ratio > 5 ? c.owner : undefined);
  }
  const l = r.lsp;
  const lspNote = !l ? 'not run' : l.skipped ? `skipped: ${l.skipped.split('\n')[0]}` : l.reportsErrors === false ? 'suspect: no diagnostics for a deliberate error' : undefined;
  const ok = l && !l.skipped;
  // Issue 48: every cross-cell rule runs on every lint; a keystroke never waits for it (the lint is stepped).
  add('LSP edit -> diagnostics, median', '≤ 300 ms', ok ? fmtMs(l.editToDiagnosticsMs.median) : null, ok ? l.editToDiagnosticsMs.median <= 300 : null, lspNote);
  add('LSP completion, median', '< 20 ms', ok ? fmtMs(l.completionMs.median) : null, ok ? l.completionMs.median < 20 : null, lspNote);
  add('LSP hover, median', '< 20 ms', ok ? fmtMs(l.hoverMs.median) : null, ok ? l.hoverMs.median < 20 : null, lspNote);
  const k = ok ? l.keystrokes : undefined;
  const kNote = !k ? lspNote ?? 'not run' : undefined;
  const keys = Object.keys(k?.growth ?? {});
  const worst = (f) => (keys.length ? keys.reduce((a, b) => (f(b) > f(a) ? b : a)) : null);
  const big = k?.sizes?.turns5000?.scenarios;
  const small = k?.sizes?.turns1000?.scenarios;
  const w1 = small && worst((x) => small[x]?.p95 ?? 0);
  add('Keystroke -> diagnostics, 1,000 turns, p95 (worst)', '≤ 50 ms', w1 ? `${fmtMs(small[w1].p95)} (${w1})` : null, w1 ? small[w1].p95 <= 50 : null, kNote);
  const wp = big && worst((x) => big[x]?.p95 ?? 0);
  add('Keystroke -> diagnostics, 5,000 turns, p95 (worst)', '≤ 300 ms', wp ? `${fmtMs(big[wp].p95)} (${wp})` : null, wp ? big[wp].p95 <= 300 : null, kNote);
  const wh = big && worst((x) => big[x]?.hints?.p95 ?? 0);
  add('Inlay hints of one screen after a keystroke, 5,000 turns, p95 (worst)', '≤ 16 ms', wh && big[wh].hints ? `${fmtMs(big[wh].hints.p95)} (${wh})` : null, wh && big[wh].hints ? big[wh].hints.p95 <= 16 : null, kNote);
  const fh = k?.sizes?.turns5000?.firstHints;
  add('First inlay hints after opening 5,000 turns (top screen)', '≤ 50 ms', fh ? `${fmtMs(fh.topMs)} (a screen in the middle next: ${fmtMs(fh.middleMs)})` : null, fh ? fh.topMs <= 50 : null, kNote);
  const ob = k?.openAgainstBaseline;
  add('Open 5,000 turns vs the build of 2026-11-25', '≤ 0.33x', ob?.ratio != null ? `${ob.ratio}x${ob.textOnlyRatio != null ? ` (a server that only keeps the text: ${ob.textOnlyRatio}x)` : ''}` : null, ob?.ratio != null ? ob.ratio <= 1 / 3 : null, ob?.ratio != null ? undefined : 'BENCH_LSP_BASELINE not set');
  const mem = k?.memory;
  add('RSS after random keystrokes vs after opening', '≤ 1.5x', mem?.ratio != null ? `${mem.ratio}x (${mem.keystrokes}, settled${mem.soon ? `; ${mem.soon.ratio}x 2 s after` : ''})` : null, mem?.ratio != null ? mem.ratio <= 1.5 : null, mem?.ratio != null ? undefined : kNote ?? mem?.skipped);
  const tr = r.tree;
  const trNote = (k) => (!tr ? 'not run' : typeof tr[k] === 'string' ? tr[k] : undefined);
  add('--concurrency 2 vs 1, 2,000 files', '≥ 1.6x', tr?.concurrencySpeedup != null ? `${tr.concurrencySpeedup}x` : null, tr?.concurrencySpeedup != null ? tr.concurrencySpeedup >= 1.6 : null, trNote('concurrency'));
  add('--cache second vs first run', '≥ 5x', tr?.cacheSpeedup != null ? `${tr.cacheSpeedup}x` : null, tr?.cacheSpeedup != null ? tr.cacheSpeedup >= 5 : null, trNote('cache'));
  return g;
}

export function renderMarkdown(r) {
  const m = r.machine;
  const out = [];
  out.push(`Benchmark of msglint ${r.msglint.version} against markdownlint ${r.markdownlint.version} (default config), ${r.date.slice(0, 10)}.`);
  // The load average counts the benchmark's own processes (a msglint run
  // keeps about 1.5 cores busy, markdownlint about 1.2) and lags by about a
  // minute, so only a high load at the start says the machine was busy.
  const busy = r.loadAverage.start[0] > m.cores;
  out.push(
    `Machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, Node ${m.node}; 1-minute load average ${r.loadAverage.start[0]} at the start, ${r.loadAverage.during.mean} (max ${r.loadAverage.during.max}) during the run (it counts the benchmark's own processes)${busy ? ': **the machine was busy when the run started, wall times may be inflated** (CPU times are steadier)' : ''}.`,
  );
  out.push(`Whole processes, best of ${r.options.runs}${r.options.quick ? ' (quick run)' : ''}: wall time (user + system CPU time), MB/s of wall time, peak RSS by ${r.peakRssMethod}.`);
  out.push('');
  const rows = [];
  const cell = (x) => `${fmtS(x.best)} (${fmtS(x.cpu)}) · ${x.mbPerS} MB/s · ${x.peakRssMB ?? '?'} MB`;
  const fig = (label, size, x, y, ratio, ratioCpu) =>
    rows.push(`| ${label} | ${size} | ${x ? cell(x) : '–'} | ${y && !y.skipped ? cell(y) : y?.skipped ? 'not run (--full)' : '–'} | ${ratio != null ? `${ratio}x${ratioCpu != null ? ` (${ratioCpu}x)` : ''}` : '–'} |`);
  if (r.cli) {
    for (const [label, key] of [['1,000 turns', 'turns1000'], ['5,000 turns', 'turns5000']]) {
      const e = r.cli[key];
      if (e) fig(label, fmtMB(e.bytes), e.msglint, e.markdownlint, e.ratio, e.ratioCpu);
    }
  }
  if (r.growth) {
    fig('5,000 cells', fmtMB(r.corpora.cells5000.bytes), r.growth.cells5000);
    fig('50,000 cells', fmtMB(r.corpora.cells50000.bytes), r.growth.cells50000);
  }
  if (r.tree) fig(`tree, ${r.tree.files} files`, fmtMB(r.tree.bytes), r.tree.default, r.tree.markdownlint, r.tree.ratio);
  if (rows.length) {
    out.push('| corpus | size | msglint: wall (cpu) · MB/s · peak RSS | markdownlint | ratio: wall (cpu) |', '|---|---|---|---|---|', ...rows, '');
  }
  if (r.msglint.rules) out.push(`msglint checks ${r.msglint.rules.total} rules${r.msglint.rules.off.length ? ` (off by default: ${r.msglint.rules.off.join(', ')})` : ', all on by default'}; markdownlint reports ${r.cli?.turns1000?.markdownlint?.findings ?? '–'} findings on the 1,000-turn file.`);
  if (r.growth?.crafted) {
    const lines = Object.entries(r.growth.crafted).map(([name, c]) => `${name} (n = ${c.n}) ${fmtS(c.seconds[0])} -> ${fmtS(c.seconds[1])}, ${c.ratio}x`);
    out.push(`Crafted files of issue 35 at n and 4n (the command without start-up; \`fixes\`: the language server's formatting): ${lines.join('; ')}.`);
  }
  if (r.startup) out.push(`msglint start-up (\`--version\`): ${fmtS(r.startup.best)}.${r.growth ? ` Growth 50k/5k without start-up: ${r.growth.ratioWithoutStartup}x.` : ''}`);
  if (r.tree && typeof r.tree.concurrency !== 'string') {
    out.push(`Tree: --concurrency 1 ${fmtS(r.tree.concurrency1.best)}, 2 ${fmtS(r.tree.concurrency2.best)}, auto ${fmtS(r.tree.concurrencyAuto.best)}.`);
    if (r.tree.oneCore1) {
      out.push(
        `Tree on one core (taskset -c 0): --concurrency 1 ${fmtS(r.tree.oneCore1.best)}, 2 ${fmtS(r.tree.oneCore2.best)}; on 2 cores the same commands are ${r.tree.coresSpeedup1}x and ${r.tree.coresSpeedup2}x faster.`,
      );
    }
    const t = r.tree.timing;
    if (t) {
      out.push(
        `Tree with MSGLINT_TIMING, --concurrency 1: start-up ${fmtMs(t.threads1.startupMs)}, discovery ${fmtMs(t.threads1.discoveryMs)}, lint ${fmtMs(t.threads1.lintMs)}, report ${fmtMs(t.threads1.reportMs)}; ` +
          `with ${fmtS(t.threads1.serialS)} serial, two perfect threads would be at most ${t.bound2}x faster. ` +
          `Parsing and rules: ${fmtMs(t.threads1.engineMs)} on one thread, ${fmtMs(t.threads2.engineMs)} summed over two (${t.perFileSlowdown}x per file).`,
      );
    }
  }
  if (r.tree && typeof r.tree.cache !== 'string') out.push(`Tree: --cache first run ${fmtS(r.tree.cacheCold.best)}, second run ${fmtS(r.tree.cacheWarm.best)}.`);
  if (r.lsp && !r.lsp.skipped) {
    const l = r.lsp;
    out.push(
      `Language server (${l.diagnosticsMode} diagnostics): open -> diagnostics ${fmtMs(l.openToDiagnosticsMs)}; edit -> diagnostics median ${fmtMs(l.editToDiagnosticsMs.median)}, max ${fmtMs(l.editToDiagnosticsMs.max)}; ` +
        `completion ${fmtMs(l.completionMs.median)}, hover ${fmtMs(l.hoverMs.median)} (medians of ${l.editToDiagnosticsMs.samples.length}); edit -> completion ${fmtMs(l.editToCompletionMs.median)}` +
        `${l.serverPeakRssMB ? `; server peak RSS ${l.serverPeakRssMB} MB` : ''}.`,
    );
  }
  const k = r.lsp?.keystrokes;
  if (k?.sizes) {
    const sizes = ['turns10', 'turns1000', 'turns5000'];
    const fig = (x) => (x ? `${fmtMs(x.median)} / ${fmtMs(x.p95)}` : '–');
    out.push('', 'Keystrokes (one character per didChange, diagnostics pulled after each; median / p95):', '');
    out.push(`| what the user types | ${sizes.map((s) => k.sizes[s]?.label ?? s).join(' | ')} | growth 10 -> 5,000 (median) |`, `|---|${sizes.map(() => '---|').join('')}---|`);
    for (const key of Object.keys(k.sizes.turns5000?.scenarios ?? {})) {
      out.push(`| ${key} | ${sizes.map((s) => fig(k.sizes[s]?.scenarios?.[key])).join(' | ')} | ${k.growth?.[key] ?? '–'}x |`);
    }
    out.push(`| open -> diagnostics | ${sizes.map((s) => fmtMs(k.sizes[s]?.openMs)).join(' | ')} | |`);
    out.push(`| completion · hover | ${sizes.map((s) => `${fig(k.sizes[s]?.completionMs)} · ${fig(k.sizes[s]?.hoverMs)}`).join(' | ')} | |`);
    if (k.memory?.ratio != null) out.push('', `Memory (5,000 turns): ${k.memory.openedMB} MB after opening, ${k.memory.afterMB} MB after ${k.memory.keystrokes} random keystrokes (${k.memory.ratio}x), both once settled${k.memory.soon ? `; 2 s after the last work, ${k.memory.soon.openedMB} and ${k.memory.soon.afterMB} MB (${k.memory.soon.ratio}x)` : ''}.`);
    const b = k.openAgainstBaseline;
    if (b?.ratio != null) out.push(`Open (5,000 turns) against ${b.baseline}: ${fmtMs(b.currentMs)} vs ${fmtMs(b.baselineMs)} (${b.ratio}x, medians of ${b.rounds}); a server that only keeps the text (bench/lib/text-only-server.mjs): ${fmtMs(b.textOnlyMs)} (${b.textOnlyRatio}x).`);
  }
  const mem = r.memory;
  if (mem) {
    const row = (what, x) => `| ${what} | ${x.peakRssMB ?? '?'} MB | ${x.ratio ?? '?'}x | ${x.ratio == null ? '–' : x.ratio <= mem.goal ? 'pass' : '**FAIL**'} |`;
    out.push('', `Peak RSS against the file: a ${fmtMB(mem.realistic.bytes)} conversation (goal ≤ ${mem.goal}x the file):`, '');
    out.push('| command | peak RSS | × file | goal |', '|---|---|---|---|', row('msglint FILE', mem.realistic.lint));
    for (const [to, x] of Object.entries(mem.realistic.export)) out.push(row(`msglint export FILE --to ${to}`, x));
    const crafted = Object.entries(mem.crafted).map(([name, xs]) => `${name} ${xs.map((x) => `n = ${x.n}: ${x.peakRssMB} MB (${x.ratio}x)`).join(', ')}`);
    out.push('', `Crafted files: ${crafted.join('; ')}.`);
  }
  out.push('');
  out.push('| goal | target | measured | result |', '|---|---|---|---|');
  for (const g of r.goals) {
    const result = g.pass === true ? 'pass' : g.pass === false ? '**FAIL**' : g.note ?? 'n/a';
    out.push(`| ${g.goal} | ${g.target} | ${g.value ?? '–'} | ${result}${g.pass != null && g.note ? ` (${g.note})` : ''} |`);
  }
  return `${out.join('\n')}\n`;
}
