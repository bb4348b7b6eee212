// The README's rule table is generated from the rules' meta by
// scripts/sync.mjs (`npm run sync`); this test keeps it in step. Its format
// example lints clean.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { allRules, lint } from '../../server/linter.js';
// @ts-expect-error: a plain ES module without type declarations.
import { currentRuleTable, README, readmeRuleTable, RULE_GROUPS } from '../../scripts/sync.mjs';

const GROUPS = RULE_GROUPS as Record<string, string>;
const readmePath = README as string;

it('README lists every rule as the registry describes it (npm run sync rewrites it)', () => {
  const current = currentRuleTable(readFileSync(readmePath, 'utf8'));
  expect(current).toBeDefined();
  expect(current).toBe(readmeRuleTable(allRules));
});

it('puts every rule in a group the table shows', () => {
  expect(allRules.filter((r) => !(r.meta.group in GROUPS)).map((r) => r.meta.id)).toEqual([]);
});

it('shows the format with an example that lints clean', () => {
  const readme = readFileSync(readmePath, 'utf8');
  const example = /^## The format in one example\n\n````markdown\n([\s\S]*?)^````$/m.exec(readme)?.[1];
  expect(example).toContain('# %%');
  const r = lint(example!, { fileName: 'example.msg.md', reportUnusedDisableDirectives: true });
  expect(r.diagnostics.map((d) => `${d.range.start.line + 1}: ${d.ruleId} ${d.message}`)).toEqual([]);
});
