// `msglint [options] [paths…]`: discover, lint (and fix), report, exit code.

import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigResolver, describeFsError } from '../config/load.js';
import { closestRuleId, isKnownRuleId } from '../config/validate.js';
import { lint, lintAndFix } from '../engine/lint.js';
import { allRules } from '../engine/registry.js';
import type { LintResult, MsglintConfig } from '../engine/types.js';
import { isMessageFile } from '../syntax/detect.js';
import type { LintCommand, RuleSeverityOverride } from './args.js';
import { shouldUseColor } from './color.js';
import { discoverFiles } from './discover.js';
import { EXIT_FAILURE, EXIT_LINT_ERRORS, EXIT_OK, UsageError } from './errors.js';
import { decode, readSource, writeFileAtomic, type SourceText } from './files.js';
import { loadFormatter } from './formatters/index.js';
import type { FileReport } from './formatters/types.js';
import { errorsOnly, toFileReport } from './report.js';
import { packageInfo } from './version.js';

export interface CliIo {
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  /** Receives whole lines, each starting with "msglint: ". */
  error(line: string): void;
}

/** What standard input is called in reports when --stdin-filename is not given (ESLint says "<text>"). */
const STDIN_LABEL = '<stdin>';

export async function runLint(command: LintCommand, io: CliIo): Promise<number> {
  for (const [id] of command.ruleOverrides) {
    if (!isKnownRuleId(id)) {
      const hint = closestRuleId(id);
      throw new UsageError(`unknown rule '${id}' in --rule${hint ? ` (did you mean '${hint}'?)` : ''}`);
    }
  }
  const configs = new ConfigResolver(command.configPath === undefined ? undefined : path.resolve(io.cwd, command.configPath));
  const effectiveConfig = withOverrides(command.ruleOverrides);
  const fixing = command.fix || command.fixDryRun;

  let failed = false;
  const fail = (line: string) => {
    failed = true;
    io.error(`msglint: ${line}`);
  };
  const display = (file: string) => displayPath(file, io.cwd);

  const reports: FileReport[] = [];

  /**
   * Lints one file's text; returns undefined for a file that is not a message
   * file. `label` names the file in messages (computed only when one is
   * printed); `reportPath` replaces the file name in the report.
   */
  const lintOne = (fileName: string, source: SourceText, label: () => string, reportPath?: string): FileReport | undefined => {
    if (!isMessageFile(fileName, source.text)) return undefined;
    const options = {
      fileName,
      config: effectiveConfig(configs.forFile(fileName).config),
      reportUnusedDisableDirectives: command.reportUnusedDisableDirectives,
    };
    let result: LintResult;
    let output: string | undefined;
    try {
      if (fixing && source.validUtf8) {
        result = lintAndFix(source.text, options);
        if (result.text !== source.text) output = result.text;
      } else {
        if (fixing) io.error(`msglint: ${label()}: not valid UTF-8; linted, but fixes are not applied`);
        result = lint(source.text, options);
      }
    } catch (error) {
      // An engine bug on one file must not hide the results for the others.
      fail(`${label()}: internal error: ${oneLine(error)}`);
      return undefined;
    }
    if (!result.isMessageFile) return undefined;
    return toFileReport(reportPath ?? fileName, result, output);
  };

  if (command.stdin) {
    const fileName = path.resolve(io.cwd, command.stdinFilename ?? 'stdin.msg.md');
    const source = decode(await readAll(io.stdin));
    const report =
      command.stdinFilename === undefined
        ? lintOne(fileName, source, () => STDIN_LABEL, STDIN_LABEL)
        : lintOne(fileName, source, () => display(fileName));
    if (report) reports.push(report);
  } else {
    const { files, problems } = await discoverFiles(command.paths, io.cwd, configs);
    for (const problem of problems) fail(problem);

    for (const file of files) {
      let source: SourceText;
      try {
        source = readSource(file);
      } catch (error) {
        fail(`${display(file)}: ${describeFsError(error)}`);
        continue;
      }
      const report = lintOne(file, source, () => display(file));
      if (!report) continue;
      reports.push(report);
      if (command.fix && report.output !== undefined) {
        try {
          writeFileAtomic(file, report.output);
        } catch (error) {
          fail(`${display(file)}: cannot write fixes: ${describeFsError(error)}`);
        }
      }
    }
  }

  let errorCount = 0;
  let warningCount = 0;
  for (const report of reports) {
    errorCount += report.errorCount;
    warningCount += report.warningCount;
  }

  const shown = command.quiet ? reports.map(errorsOnly) : reports;
  const formatter = await loadFormatter(command.format);
  const { version, homepage } = packageInfo();
  const destination = command.outputFile === undefined ? io.stdout : undefined;
  const text = formatter(shown, {
    cwd: io.cwd,
    // A report file gets colour only on request: it is read by tools, not terminals.
    color: destination ? shouldUseColor(command.color, io.env, destination) : command.color === true,
    rules: allRules.map((rule) => rule.meta),
    version,
    ...(homepage !== undefined ? { homepage } : {}),
  });

  if (command.outputFile !== undefined) {
    const target = path.resolve(io.cwd, command.outputFile);
    try {
      await mkdir(path.dirname(target), { recursive: true });
      // Written even when empty, so a report from an earlier run never lingers.
      await writeFile(target, text);
    } catch (error) {
      fail(`${command.outputFile}: cannot write report: ${describeFsError(error)}`);
    }
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

/** Applies --rule on top of each config; memoised so each config is rebuilt once, not once per file. */
function withOverrides(overrides: [string, RuleSeverityOverride][]): (config: MsglintConfig) => MsglintConfig {
  if (overrides.length === 0) return (config) => config;
  const cache = new WeakMap<MsglintConfig, MsglintConfig>();
  return (config) => {
    let result = cache.get(config);
    if (!result) {
      const rules = { ...config.rules };
      for (const [id, severity] of overrides) {
        const current = rules[id];
        // Keep configured options: --rule changes severity only.
        rules[id] = Array.isArray(current) && current.length > 1 ? [severity, current[1]] : severity;
      }
      result = { ...config, rules };
      cache.set(config, result);
    }
    return result;
  };
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}

function displayPath(file: string, cwd: string): string {
  const relative = path.relative(cwd, file);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}

export function oneLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s*\n\s*/g, ' ').trim() || (error instanceof Error ? error.name : 'unknown error');
}
