import { parse, type MessageDocument } from '../syntax/document.js';
import { applyDirectives, collectDirectives } from './directives.js';
import { applyEdits, fixesOf, mergeEdits } from './fix.js';
import { allRules, getRule } from './registry.js';
import type { Diagnostic, LintOptions, LintResult, MsglintConfig, Rule, RuleSetting, Severity } from './types.js';

/** The severity a rule runs at under a config, or 0 when it is off. */
export function ruleSeverity(rule: Rule, config: MsglintConfig | undefined): 0 | Severity {
  const setting: RuleSetting | undefined = config?.rules?.[rule.meta.id];
  if (setting === undefined) return rule.meta.severity === 'error' ? 2 : 1;
  const s = Array.isArray(setting) ? setting[0] : setting;
  if (s === 'off' || s === 0) return 0;
  if (s === 'warn' || s === 1) return 1;
  return 2;
}

function ruleOptions(rule: Rule, config: MsglintConfig | undefined): unknown {
  const setting = config?.rules?.[rule.meta.id];
  return Array.isArray(setting) ? setting[1] : undefined;
}

/** Runs every enabled rule over a parsed document, then applies disable comments. */
export function lintDocument(doc: MessageDocument, options: LintOptions = {}): Diagnostic[] {
  if (!doc.isMessageFile) return [];
  const config = options.config ?? {};
  const out: Diagnostic[] = [];
  for (const rule of allRules) {
    const severity = ruleSeverity(rule, config);
    if (severity === 0) continue;
    const ruleId = rule.meta.id;
    try {
      rule.check({
        doc,
        config,
        options: ruleOptions(rule, config),
        report(d) {
          const diag: Diagnostic = {
            ruleId,
            severity: d.severity !== undefined ? (Math.min(d.severity, severity) as Severity) : severity,
            message: d.message,
            range: doc.range(d.at[0], d.at[1]),
          };
          if (d.fix) diag.fix = mergeEdits(doc.text, d.fix);
          if (d.suggestions?.length) diag.suggestions = d.suggestions.map((s) => ({ desc: s.desc, fix: mergeEdits(doc.text, s.fix) }));
          if (d.related?.length) diag.related = d.related.map((r) => ({ range: doc.range(r.at[0], r.at[1]), message: r.message }));
          if (d.tags?.length) diag.tags = d.tags;
          out.push(diag);
        },
      });
    } catch (e) {
      // A rule that throws must not take the others down: report it where it can be seen.
      out.push({
        ruleId,
        severity: 2,
        message: `Internal error in rule '${ruleId}': ${(e as Error)?.message ?? String(e)}. Please report this.`,
        range: doc.range(0, 0),
      });
    }
  }

  const { directives, unknownRules } = collectDirectives(doc, (id) => getRule(id) !== undefined);
  const { kept, unused } = applyDirectives(out, directives);
  const unknownRule = getRule('unknown-rule');
  const unknownSeverity = unknownRule ? ruleSeverity(unknownRule, config) : 0;
  if (unknownSeverity) {
    for (const u of unknownRules) {
      kept.push({ ruleId: 'unknown-rule', severity: unknownSeverity, message: `Unknown rule '${u.name}' in a msglint directive.`, range: doc.range(u.at[0], u.at[1]) });
    }
  }
  const unusedRule = getRule('unused-disable');
  const unusedSeverity = unusedRule ? ruleSeverity(unusedRule, config) : 0;
  if (options.reportUnusedDisableDirectives && unusedSeverity) {
    for (const u of unused) {
      kept.push({ ruleId: 'unused-disable', severity: unusedSeverity, message: u.message, range: doc.range(u.at[0], u.at[1]), tags: [1] });
    }
  }
  kept.sort((a, b) => a.range.start.offset - b.range.start.offset || a.range.end.offset - b.range.end.offset || a.ruleId.localeCompare(b.ruleId));
  return kept;
}

export function parseForLint(text: string, options: LintOptions = {}): MessageDocument {
  return parse(text, {
    fileName: options.fileName,
    agents: options.config?.agents,
    languages: options.config?.languages,
    previous: options.previous,
  });
}

export function lint(text: string, options: LintOptions = {}): LintResult {
  const doc = parseForLint(text, options);
  return {
    filePath: options.fileName ?? '<text>',
    isMessageFile: doc.isMessageFile,
    diagnostics: lintDocument(doc, options),
    text,
  };
}

/**
 * Applies fixes and lints again until nothing changes (at most `maxPasses`
 * passes, 10 by default). The result's diagnostics are those of the final text.
 */
export function lintAndFix(text: string, options: LintOptions & { maxPasses?: number } = {}): LintResult {
  const maxPasses = options.maxPasses ?? 10;
  let current = text;
  let doc = parseForLint(current, options);
  let diagnostics = lintDocument(doc, options);
  for (let pass = 0; pass < maxPasses; pass++) {
    const edits = fixesOf(diagnostics);
    if (edits.length === 0) break;
    const { text: next } = applyEdits(current, edits);
    if (next === current) break;
    current = next;
    doc = parseForLint(current, { ...options, previous: doc });
    diagnostics = lintDocument(doc, options);
  }
  return {
    filePath: options.fileName ?? '<text>',
    isMessageFile: doc.isMessageFile,
    diagnostics,
    text: current,
    originalText: text,
  };
}
