// Paths, output and number formatting shared by the benchmark's modules.

import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const BENCH = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
export const ROOT = path.dirname(BENCH);
export const OUT = path.join(BENCH, 'out');
export const NODE = process.execPath;
/** markdownlint through its library's sync API with its default config. */
export const MDL = path.join(BENCH, 'markdownlint-cli.mjs');

/**
 * What is measured: the command and the language server (run.mjs points
 * them at a copy of dist/, or at BENCH_CLI / BENCH_LSP), and how peak RSS is read.
 */
export const target = {
  cli: path.join(ROOT, 'dist/cli/main.js'),
  lsp: path.join(ROOT, 'dist/server/lsp/main.js'),
  rssMethod: 'preload',
};

export function fail(message) {
  process.stderr.write(`bench: ${message}\n`);
  process.exit(1);
}

export const log = (s = '') => process.stdout.write(`${s}\n`);
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
export const round = (x, d = 3) => (x === undefined || x === null || Number.isNaN(x) ? null : Math.round(x * 10 ** d) / 10 ** d);
export const fmtS = (s) => (s == null ? '–' : s < 1 ? `${(s * 1000).toFixed(0)} ms` : `${s.toFixed(2)} s`);
export const fmtMs = (ms) => (ms == null ? '–' : `${ms < 10 ? ms.toFixed(1) : ms.toFixed(0)} ms`);
export const fmtMB = (b) => `${(b / 1e6).toFixed(2)} MB`;
