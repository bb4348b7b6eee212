// `msglint [options] [paths…]`: discover, lint (and fix), report, exit code.

import { statSync } from 'node:fs';
import path from 'node:path';
import { ConfigResolver, describeFsError } from '../config/load.js';
import { allRules } from '../linter.js';
import type { LintCommand } from './args.js';
import { cacheFileOf, LintCache } from './cache.js';
import { checkRuleOverrides, createFileLinter, displayPath, type FileOutcome } from './lint-file.js';
import { WorkerPool, workerCount } from './workers.js';
import { shouldUseColor } from './color.js';
import { discoverFiles, type ArgFiles } from '../config/discover.js';
import { EXIT_FAILURE, EXIT_LINT_ERRORS, EXIT_OK } from './errors.js';
import { decode, type SourceText } from './files.js';
import { encodeText } from '../base/decode.js';
import { replacedLinkLine, writeOutputFile } from './output-file.js';
import { loadFormatter } from './formatters/index.js';
import type { FileReport } from './formatters/types.js';
import { errorsOnly } from './report.js';
import { packageInfo } from '../base/package-info.js';
import { mergeTimes, startTiming, stopTiming, type LintTimes } from '../engine/timing.js';
import { timingReport, timingRows, type PhaseMarks } from './timing.js';

export interface CliIo {
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  /** Receives whole lines, each starting with "msglint: "; shows their control characters (visibleLine). */
  error(line: string): void;
  /** Writes a formatter's text to stderr as it is: the formatter made what it quotes safe, and its colours stay. */
  errorReport(text: string): void;
}

const NOT_A_MESSAGE_FILE = 'not a message file (a *.msg.md file, or a *.md file whose frontmatter declares message_section)';

/** What standard input is called in reports when --stdin-filename is not given (ESLint says "<text>"). */
const STDIN_LABEL = '<stdin>';

export async function runLint(command: LintCommand, io: CliIo): Promise<number> {
  const timingShows = timingRows(io.env.MSGLINT_TIMING);
  if (timingShows === undefined) return lintAndReport(command, io);
  const marks: PhaseMarks = { started: performance.now(), discovered: 0, linted: 0, reported: 0 };
  const times = startTiming();
  const run: RunFacts = { marks, times, files: 0, threads: 1 };
  try {
    const code = await lintAndReport(command, io, run);
    marks.reported = performance.now();
    for (const line of timingReport(marks, times, run.files, run.threads, timingShows)) io.error(line);
    return code;
  } finally {
    stopTiming();
  }
}

/** What MSGLINT_TIMING reports, filled in as the run goes. */
interface RunFacts {
  marks: PhaseMarks;
  times: LintTimes;
  files: number;
  threads: number;
}

async function lintAndReport(command: LintCommand, io: CliIo, run?: RunFacts): Promise<number> {
  checkRuleOverrides(command.ruleOverrides);
  const configs = new ConfigResolver(allRules, command.configPath === undefined ? undefined : path.resolve(io.cwd, command.configPath));
  const fixing = command.fix || command.fixDryRun;
  const linter = createFileLinter(command, io.cwd, configs);

  let failed = false;
  const fail = (line: string) => {
    failed = true;
    io.error(`msglint: ${line}`);
  };
  const display = (file: string) => displayPath(file, io.cwd);
  // A path that yields no message file: an error, as ESLint's "No files matching", unless the user allows it.
  const unmatched = (arg: string, why: string) => (command.errorOnUnmatchedPattern ? fail(`${arg}: ${why}`) : io.error(`msglint: ${arg}: ${why}; skipped`));
  /** Says which arguments gave no message file (those that gave a problem of their own, or a file that failed, have said so). */
  const sayUnmatched = (args: readonly ArgFiles[], files: readonly string[], outcomes: readonly FileOutcome[], reports: readonly FileReport[]) => {
    const linted = new Set(reports.map((r) => r.filePath));
    const failedFiles = new Set(files.filter((_, i) => outcomes[i]!.failed));
    for (const { arg, files: own, ignoredBy, failed } of args) {
      if (ignoredBy !== undefined) {
        io.error(`msglint: ${arg}: skipped: ignored by ${ignoredBy}`);
        continue;
      }
      if (failed || own.some((f) => linted.has(f) || failedFiles.has(f))) continue;
      const named = own.length === 1 && own[0] === path.resolve(io.cwd, arg);
      unmatched(arg, named ? NOT_A_MESSAGE_FILE : own.length ? `no message file found (${own.length === 1 ? '1 Markdown file, not a message file' : `${own.length} Markdown files, none a message file`})` : 'no message file found');
    }
  };

  const reports: FileReport[] = [];
  /** The text of each report's file, when the format reads it (rdjson). */
  const sources = new Map<string, string>();
  const take = (outcome: FileOutcome): void => {
    for (const line of outcome.messages) io.error(line);
    if (outcome.failed) failed = true;
    if (!outcome.report) return;
    reports.push(outcome.report);
    if (outcome.source !== undefined) sources.set(outcome.report.filePath, outcome.source);
  };

  if (command.stdin) {
    const fileName = path.resolve(io.cwd, command.stdinFilename ?? 'stdin.msg.md');
    const source = decode(await readAll(io.stdin));
    if (run) {
      run.marks.discovered = performance.now();
      run.files = 1;
    }
    const outcome =
      command.stdinFilename === undefined
        ? linter.lintSource(fileName, source, () => STDIN_LABEL, STDIN_LABEL)
        : linter.lintSource(fileName, source, () => display(fileName));
    if (run) run.marks.linted = performance.now();
    if (command.fix) return printFixed(outcome, source, command, io);
    take(outcome);
    if (!outcome.report && !outcome.failed) unmatched(command.stdinFilename ?? STDIN_LABEL, NOT_A_MESSAGE_FILE);
  } else {
    // A number of threads is known before the files: the workers load their
    // modules while the files are discovered (`auto` waits for the sizes).
    let pool = typeof command.concurrency === 'number' && command.concurrency > 1 ? new WorkerPool(command, io.cwd, command.concurrency - 1) : undefined;
    let outcomes: FileOutcome[];
    let files: string[];
    let args: ArgFiles[];
    // The cache holds reports of plain lint runs; fixing always lints afresh.
    const cacheLocation = cacheFileOf(command.cacheLocation ?? '.msglintcache', io.cwd);
    let cache: LintCache | undefined;
    try {
      if (command.cache && !fixing) cache = LintCache.open(path.resolve(io.cwd, cacheLocation), cacheLocation, io.env, io.error);
      const discovered = await discoverFiles(command.paths, io.cwd, configs, { ignorePatterns: command.ignorePatterns, noIgnore: command.noIgnore });
      files = discovered.files;
      args = discovered.args;
      for (const problem of discovered.problems) fail(problem);
      const cached = files.map((file) => cache?.entryOf(file));
      const threads = workerCount(command.concurrency, files.length, command.concurrency === 'auto' ? totalSize(files) : undefined);
      if (run) {
        // After the cache is read: loading it is part of finding what to lint.
        run.marks.discovered = performance.now();
        run.files = files.length;
        run.threads = threads;
      }
      if (threads > 1) pool ??= new WorkerPool(command, io.cwd, threads - 1);
      outcomes = threads > 1 ? await pool!.lint(linter, files, cached, threads, run !== undefined) : files.map((file, i) => linter.lintPath(file, cached[i]));
      if (run) {
        run.marks.linted = performance.now();
        for (const t of pool?.times ?? []) mergeTimes(run.times, t);
      }
    } finally {
      pool?.close();
    }
    for (let i = 0; i < files.length; i++) {
      const outcome = outcomes[i]!;
      const file = files[i]!;
      if (outcome.cached) {
        cache!.restamp(file, outcome.stamp);
        const report = cache!.reportOf(file);
        if (report) reports.push(report);
        continue;
      }
      if (cache && outcome.cacheKey !== undefined && !outcome.failed) cache.set(file, outcome.cacheKey, outcome.report, outcome.stamp);
      take(outcome);
    }
    const cacheProblem = cache?.save();
    if (cacheProblem) io.error(cacheProblem);
    sayUnmatched(args, files, outcomes, reports);
  }

  let errorCount = 0;
  let warningCount = 0;
  for (const report of reports) {
    errorCount += report.errorCount;
    warningCount += report.warningCount;
  }

  const destination = command.outputFile === undefined ? io.stdout : undefined;
  // A report file gets colour only on request: it is read by tools, not terminals.
  const color = destination ? shouldUseColor(command.color, io.env, destination) : command.color === true;
  const text = await formatReports(command.quiet ? reports.map(errorsOnly) : reports, command, io.cwd, color, sources);
  if (command.outputFile !== undefined) {
    const problem = writeReport(text, command.outputFile, io);
    if (problem) fail(problem);
  } else if (text) {
    io.stdout.write(text);
  }

  // --quiet hides warnings but does not exempt them from --max-warnings (as ESLint 8).
  const tooManyWarnings = command.maxWarnings !== undefined && warningCount > command.maxWarnings;
  if (tooManyWarnings) {
    io.error(`msglint: too many warnings (${warningCount}, maximum ${command.maxWarnings})`);
  }
  if (failed) return EXIT_FAILURE;
  return errorCount > 0 || tooManyWarnings ? EXIT_LINT_ERRORS : EXIT_OK;
}

/**
 * `--stdin --fix`: the fixed text (or the text as it came, when nothing
 * changed) on stdout, for editors that format through a command. Those
 * replace the buffer only on exit 0, so problems left unfixed do not change
 * the exit code; they go to `--output-file` when one is named. A bad config
 * or text that is not UTF-8 prints nothing, so the editor keeps its buffer.
 */
async function printFixed(outcome: FileOutcome, source: SourceText, command: LintCommand, io: CliIo): Promise<number> {
  for (const line of outcome.messages) io.error(line);
  if (outcome.failed || outcome.messages.length > 0) return EXIT_FAILURE;
  if (command.outputFile !== undefined && outcome.report) {
    const report = command.quiet ? errorsOnly(outcome.report) : outcome.report;
    const problem = writeReport(await formatReports([report], command, io.cwd, command.color === true), command.outputFile, io);
    if (problem) {
      io.error(`msglint: ${problem}`);
      return EXIT_FAILURE;
    }
  }
  const text = outcome.report?.output ?? source.text;
  // In the encoding it came in: a UTF-16 buffer stays UTF-16.
  io.stdout.write(source.encoding === 'utf-8' ? text : encodeText(text, source.encoding));
  return EXIT_OK;
}

async function formatReports(reports: readonly FileReport[], command: LintCommand, cwd: string, color: boolean, sources?: ReadonlyMap<string, string>): Promise<string> {
  const formatter = await loadFormatter(command.format);
  const { version, homepage } = packageInfo();
  return formatter(reports, {
    cwd,
    color,
    ...(sources?.size ? { sources } : {}),
    rules: allRules.map((rule) => rule.meta),
    version,
    ...(homepage !== undefined ? { homepage } : {}),
  });
}

/** Writes a report file (see output-file.ts); returns what went wrong, for one line on stderr. */
function writeReport(text: string, outputFile: string, io: CliIo): string | undefined {
  try {
    // Written even when empty, so a report from an earlier run never lingers.
    if (writeOutputFile(path.resolve(io.cwd, outputFile), text)) io.error(replacedLinkLine(outputFile, 'report'));
    return undefined;
  } catch (error) {
    return `${outputFile}: cannot write report: ${describeFsError(error)}`;
  }
}

function totalSize(files: string[]): number {
  let total = 0;
  for (const f of files) {
    try {
      total += statSync(f).size;
    } catch {
      // Reported when the file is read.
    }
  }
  return total;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}

export { oneLine } from './lint-file.js';
