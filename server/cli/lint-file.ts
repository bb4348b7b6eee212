// Linting one file from disk: read, lint (and fix), write fixes. Used by the
// main thread and by worker threads (--concurrency), so it takes only data
// that can cross a thread boundary and returns plain objects.

import type { Stats } from 'node:fs';
import path from 'node:path';
import { ConfigResolver, describeFsError } from '../config/load.js';
import { leavesBase } from '../config/paths.js';
import { closestRuleId, isKnownRuleId } from '../config/validate.js';
import { UsageError } from './errors.js';
import { allRules, lint, lintAndFix } from '../linter.js';
import type { LintResult, MsglintConfig } from '../engine/types.js';
import { isMessageFile } from '../syntax/format/detect.js';
import type { LintCommand, RuleSeverityOverride } from './args.js';
import { configDigest, type CachedFile } from './cache.js';
import { ChangedSinceReadError, hasStamp, readSource, stampOf, statusOf, writableRoots, writeFileAtomic, type FileStamp, type SourceText } from './files.js';
import type { FileReport } from './formatters/types.js';
import { toFileReport } from './report.js';
import { packageInfo } from '../base/package-info.js';
import { encodeText, encodingName } from '../base/decode.js';

export interface FileOutcome {
  report?: FileReport;
  /** Lines for stderr, each starting with "msglint: ". */
  messages: string[];
  /** A problem that makes the run exit 2 (unreadable file, failed write). */
  failed: boolean;
  /** Content, config and version key, for --cache; absent when not cacheable. */
  cacheKey?: string;
  /** True when the cached report for `cacheKey` still holds. */
  cached?: boolean;
  /** The file's stamp as of the read, when it can be trusted next time (--cache). */
  stamp?: FileStamp;
  /** The text the report was made from, for a format that reads it (rdjson counts columns in bytes). */
  source?: string;
}

/** Throws a UsageError for a --rule that names no rule. */
export function checkRuleOverrides(overrides: readonly [string, RuleSeverityOverride][]): void {
  for (const [id] of overrides) {
    if (!isKnownRuleId(id, allRules)) {
      const hint = closestRuleId(id, allRules);
      throw new UsageError(`unknown rule '${id}' in --rule${hint ? ` (did you mean '${hint}'?)` : ''}`);
    }
  }
}

/** Applies --rule on top of each config; memoised so each config is rebuilt once, not once per file. */
export function withOverrides(overrides: [string, RuleSeverityOverride][]): (config: MsglintConfig) => MsglintConfig {
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

export function displayPath(file: string, cwd: string): string {
  const relative = path.relative(cwd, file);
  return relative && !leavesBase(relative) ? relative : file;
}

export function oneLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s*\n\s*/g, ' ').trim() || (error instanceof Error ? error.name : 'unknown error');
}

export interface FileLinter {
  /** Lints a file from disk; `cached`: what the cache holds for it, if anything. */
  lintPath(file: string, cached?: CachedFile): FileOutcome;
  /** Lints text already read (standard input). */
  lintSource(fileName: string, source: SourceText, label: () => string, reportPath?: string): FileOutcome;
}

export function createFileLinter(command: LintCommand, cwd: string, configs?: ConfigResolver): FileLinter {
  const resolver = configs ?? new ConfigResolver(allRules, command.configPath === undefined ? undefined : path.resolve(cwd, command.configPath));
  const effectiveConfig = withOverrides(command.ruleOverrides);
  const fixing = command.fix || command.fixDryRun;
  const keepSource = command.format === 'rdjson';
  // Where --fix may write: never through a symlink out of the linted paths.
  let roots: string[] | undefined;
  const version = packageInfo().version;
  const configKeys = new WeakMap<MsglintConfig, string>();
  /** `:` and the digest of what besides the bytes decides a file's report. */
  const configPart = (config: MsglintConfig): string => {
    let part = configKeys.get(config);
    if (part === undefined) {
      const key = JSON.stringify([version, command.reportUnusedDisableDirectives, config]);
      part = `:${configDigest(key)}`;
      configKeys.set(config, part);
    }
    return part;
  };

  const lintSource = (fileName: string, source: SourceText, label: () => string, reportPath?: string, cacheKey?: string): FileOutcome => {
    const messages: string[] = [];
    if (!isMessageFile(fileName, source.text)) return { messages, failed: false, cacheKey };
    const options = {
      fileName,
      config: effectiveConfig(resolver.forFile(fileName).config),
      reportUnusedDisableDirectives: command.reportUnusedDisableDirectives,
      encoding: source.problem,
    };
    let result: LintResult;
    let output: string | undefined;
    try {
      if (fixing && !source.problem) {
        result = lintAndFix(source.text, options);
        if (result.text !== source.text) output = result.text;
      } else {
        if (fixing && source.problem) {
          const why = source.problem.kind === 'binary' ? 'binary, not text; not linted' : `not valid ${encodingName(source.encoding)}; linted, but fixes are not applied`;
          messages.push(`msglint: ${label()}: ${why}`);
        }
        result = lint(source.text, options);
      }
    } catch (error) {
      // An engine bug on one file must not hide the results for the others.
      messages.push(`msglint: ${label()}: internal error: ${oneLine(error)}`);
      return { messages, failed: true };
    }
    if (!result.isMessageFile) return { messages, failed: false, cacheKey };
    const outcome: FileOutcome = { report: toFileReport(reportPath ?? fileName, result, output), messages, failed: false, cacheKey };
    if (keepSource) outcome.source = source.text;
    return outcome;
  };

  return {
    lintSource: (fileName, source, label, reportPath) => lintSource(fileName, source, label, reportPath),
    lintPath(file, cached) {
      const label = () => displayPath(file, cwd);
      // The key hashes the whole file: only worth making when a cache is kept.
      const ofConfig = !fixing && command.cache ? configPart(effectiveConfig(resolver.forFile(file).config)) : undefined;
      if (ofConfig !== undefined && cached?.stamp && hasStamp(file, cached.stamp)) {
        // The bytes are those the cache hashed: no need to read them.
        const key = cached.key.slice(0, cached.key.indexOf(':')) + ofConfig;
        if (key === cached.key) return { messages: [], failed: false, cacheKey: key, cached: true, stamp: cached.stamp };
      }
      let read: ReturnType<typeof readSource>;
      try {
        read = readSource(file, ofConfig !== undefined, (digest) => cached?.key === digest + ofConfig);
      } catch (error) {
        return { messages: [`msglint: ${label()}: ${describeFsError(error)}`], failed: true };
      }
      const { stats, source } = read;
      const stamp = ofConfig !== undefined ? stampOf(stats, Date.now()) : undefined;
      const cacheKey = read.digest !== undefined ? read.digest + ofConfig : undefined;
      // Decoded only when not cached: a file whose report is cached is never decoded.
      if (!source) return { messages: [], failed: false, cacheKey, cached: true, stamp };
      const outcome = lintSource(file, source, label, undefined, cacheKey);
      if (stamp) outcome.stamp = stamp;
      if (command.fix && outcome.report?.output !== undefined) {
        try {
          // Written only over the text it was made from (what an agent appended meanwhile is not lost), in the encoding it was read in.
          const output = source.encoding === 'utf-8' ? outcome.report.output : encodeText(outcome.report.output, source.encoding);
          writeFileAtomic(file, output, (roots ??= writableRoots(command.paths, cwd)), statusOf(stats));
        } catch (error) {
          outcome.messages.push(`msglint: ${label()}: ${error instanceof ChangedSinceReadError ? error.message : `cannot write fixes: ${describeFsError(error)}`}`);
          outcome.failed = true;
        }
      }
      return outcome;
    },
  };
}
