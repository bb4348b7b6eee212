// The rules a linter runs (see createLinter in linter.ts) and, per config,
// which of them run with which severity and options.

import type { MsglintConfig, Rule, RuleSetting, Severity } from './types.js';

/** The severity a rule runs at under a config, or 0 when it is off. */
export function ruleSeverity(rule: Rule, config: MsglintConfig | undefined): 0 | Severity {
  const setting: RuleSetting | undefined = config?.rules?.[rule.meta.id];
  if (setting === undefined) return rule.meta.severity === 'error' ? 2 : 1;
  const s = Array.isArray(setting) ? setting[0] : setting;
  if (s === 'off' || s === 0) return 0;
  if (s === 'warn' || s === 1) return 1;
  return 2;
}

/** The options a config gives a rule (the second element of `[severity, options]`). */
export function ruleOptions(rule: Rule, config: MsglintConfig | undefined): unknown {
  const setting = config?.rules?.[rule.meta.id];
  return Array.isArray(setting) ? setting[1] : undefined;
}

export interface SegmentRule {
  rule: Rule;
  severity: Severity;
  options: unknown;
}

/** The rules a config turns on. */
export interface RulePlan {
  segmentRules: SegmentRule[];
  severityOf: Map<string, Severity>;
  /** Which segment rules run with which options: a change of config invalidates cached findings. */
  rulesKey: string;
  checks: { rule: Rule; severity: Severity }[];
}

/**
 * The rules one linter runs (see createLinter in linter.ts), with what the
 * engine works out from them once: the rules by id, and per config object
 * the rules it turns on.
 */
export class RuleSet {
  private readonly byId: ReadonlyMap<string, Rule>;
  /** Per config object: a CLI run lints many files with one. */
  private readonly plans = new WeakMap<MsglintConfig, RulePlan>();

  constructor(readonly rules: readonly Rule[]) {
    const byId = new Map<string, Rule>();
    for (const rule of rules) {
      if (byId.has(rule.meta.id)) throw new Error(`Two rules have the id '${rule.meta.id}'.`);
      byId.set(rule.meta.id, rule);
    }
    this.byId = byId;
  }

  getRule(id: string): Rule | undefined {
    return this.byId.get(id);
  }

  /** The rules `config` turns on, worked out once per config object. */
  planOf(config: MsglintConfig): RulePlan {
    let plan = this.plans.get(config);
    if (!plan) {
      const segmentRules: SegmentRule[] = [];
      const checks: RulePlan['checks'] = [];
      for (const rule of this.rules) {
        const severity = ruleSeverity(rule, config);
        if (severity === 0) continue;
        if (rule.checkSegment) segmentRules.push({ rule, severity, options: ruleOptions(rule, config) });
        if (rule.check) checks.push({ rule, severity });
      }
      plan = {
        segmentRules,
        severityOf: new Map(segmentRules.map((r) => [r.rule.meta.id, r.severity])),
        rulesKey: JSON.stringify(segmentRules.map((r) => [r.rule.meta.id, r.options ?? null])),
        checks,
      };
      this.plans.set(config, plan);
    }
    return plan;
  }
}
