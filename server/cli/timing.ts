// MSGLINT_TIMING: where a run's time went, by phase and by rule, printed on
// stderr after the report (stdout stays the report alone, so
// `--format json` output still parses).

import type { LintTimes } from '../engine/timing.js';
import { UsageError } from './errors.js';

/** Rules listed when no larger number is asked for (as ESLint's TIMING). */
const DEFAULT_ROWS = 10;

/**
 * How many rules to list: undefined when timing is off (the variable unset,
 * empty or 0), Infinity for `all`. A number below 10 still lists 10, as
 * ESLint's TIMING does, so `MSGLINT_TIMING=1` means "on".
 */
export function timingRows(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim().toLowerCase();
  if (v === '' || v === '0') return undefined;
  if (v === 'all') return Infinity;
  if (/^[0-9]+$/.test(v)) return Math.max(DEFAULT_ROWS, Number(v));
  throw new UsageError(`MSGLINT_TIMING: expected 'all' or a number of rules, got '${value}'`);
}

/** Milliseconds from the process's start, at each end of a phase. */
export interface PhaseMarks {
  /** The lint command starts: Node, the bundle and the arguments are loaded. */
  started: number;
  /** The files are known (walked, ignores and configs applied). */
  discovered: number;
  /** Every file is linted (read, parsed, checked), on every thread. */
  linted: number;
  /** The cache is saved and the report written. */
  reported: number;
}

/** The lines to print: a phase table, then the slowest rules. */
export function timingReport(marks: PhaseMarks, times: LintTimes, files: number, threads: number, rows: number): string[] {
  const phases: [string, number][] = [
    ['start-up', marks.started],
    ['discovery', marks.discovered - marks.started],
    ['lint', marks.linted - marks.discovered],
    ['report', marks.reported - marks.linted],
  ];
  const total = marks.reported;
  const ranked: [string, number][] = [['(parsing)', times.parse], ...times.rules];
  const engine = ranked.reduce((sum, [, ms]) => sum + ms, 0);
  ranked.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const shown = ranked.slice(0, rows);
  const across = threads > 1 ? `, summed over ${threads} threads` : '';
  return [
    `msglint: timing (MSGLINT_TIMING): ${count(files, 'file')}, ${count(threads, 'thread')}`,
    '',
    ...table('Phase', [...phases, ['total', total]], total),
    '',
    `Parsing and rules: ${fmt(engine)} ms in ${count(times.lints, 'lint')}${across}; the rest of the lint phase reads files and builds reports.`,
    ...table('Rule', shown, engine),
  ];
}

function table(title: string, rows: [string, number][], whole: number): string[] {
  const width = Math.max(title.length, ...rows.map(([name]) => name.length));
  const line = (name: string, ms: string, share: string) => `${name.padEnd(width)} | ${ms.padStart(9)} | ${share.padStart(8)}`;
  return [
    line(title, 'Time (ms)', 'Relative'),
    `:${'-'.repeat(width)}|${'-'.repeat(10)}:|${'-'.repeat(8)}:`,
    ...rows.map(([name, ms]) => line(name, fmt(ms), whole > 0 ? `${((ms / whole) * 100).toFixed(1)}%` : '-')),
  ];
}

function fmt(ms: number): string {
  return ms.toFixed(1);
}

function count(n: number, noun: string): string {
  // Not toLocaleString: it loads Intl's data, a cost that would be charged to the run.
  return `${String(n).replace(/\B(?=(\d{3})+$)/g, ',')} ${noun}${n === 1 ? '' : 's'}`;
}
