// Every rule's page in docs/rules/ has a "Wrong" and a "Right" example; they
// are linted here, so the documentation cannot drift from the rules.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allRules, lint } from '../../server/linter.js';
import { docsDir, example } from './examples.js';

const pages = new Set(readdirSync(docsDir).filter((f) => f.endsWith('.md')).map((f) => f.slice(0, -3)));

describe('docs/rules', () => {
  it('has a page for every rule and no page for a rule that does not exist', () => {
    const ids = allRules.map((r) => r.meta.id);
    expect(ids.filter((id) => !pages.has(id))).toEqual([]);
    expect([...pages].filter((p) => !ids.includes(p))).toEqual([]);
  });

  for (const rule of allRules) {
    const id = rule.meta.id;
    if (!pages.has(id)) continue;
    const page = readFileSync(`${docsDir}${id}.md`, 'utf8');
    describe(id, () => {
      it('starts with its id and states group, severity and fix', () => {
        expect(page.startsWith(`# ${id}\n`)).toBe(true);
        expect(page).toContain(rule.meta.severity);
      });
      // The file's own rules report its bytes or its size, which no text
      // shows: their pages say it in prose, and test/cli/file-limits.test.ts
      // lints such files.
      if (rule.meta.group === 'file') return;
      const wrong = example(page, 'Wrong');
      const right = example(page, 'Right');
      it('wrong example reports exactly this rule', () => {
        expect(wrong).toBeDefined();
        const r = lint(wrong!.text, { fileName: wrong!.fileName, config: wrong!.config, reportUnusedDisableDirectives: true });
        const ids = [...new Set(r.diagnostics.map((d) => d.ruleId))];
        expect(ids).toEqual([id]);
      });
      it('right example reports nothing', () => {
        expect(right).toBeDefined();
        const r = lint(right!.text, { fileName: right!.fileName, config: right!.config, reportUnusedDisableDirectives: true });
        expect(r.diagnostics.map((d) => `${d.ruleId}: ${d.message}`)).toEqual([]);
      });
    });
  }
});
