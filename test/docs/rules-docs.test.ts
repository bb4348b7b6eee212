// Every rule's page in docs/rules/ has a "Wrong" and a "Right" example; they
// are linted here, so the documentation cannot drift from the rules.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { lint } from '../../server/engine/lint.js';
import { allRules } from '../../server/engine/registry.js';
import type { MsglintConfig } from '../../server/engine/types.js';

const docsDir = fileURLToPath(new URL('../../docs/rules/', import.meta.url));

interface Example {
  text: string;
  fileName: string;
  config?: MsglintConfig;
}

/** The first fenced block under a `## heading` of the page; its info string may say `file=NAME` and `config=JSON`. */
function example(page: string, heading: string): Example | undefined {
  const at = page.search(new RegExp(`^## ${heading}\\s*$`, 'm'));
  if (at === -1) return undefined;
  const rest = page.slice(at);
  const open = /^(`{3,}|~{3,})(.*)$/m.exec(rest);
  if (!open) return undefined;
  const fence = open[1]!;
  const info = open[2]!;
  const body = rest.slice(open.index + open[0].length + 1);
  const close = body.search(new RegExp(`^${fence}\\s*$`, 'm'));
  const text = close === -1 ? body : body.slice(0, close);
  const fileName = /file=(\S+)/.exec(info)?.[1] ?? 'example.msg.md';
  const configText = /config=(\{.*\})\s*$/.exec(info)?.[1];
  return { text, fileName, config: configText ? (JSON.parse(configText) as MsglintConfig) : undefined };
}

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
