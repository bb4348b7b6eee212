// The README's rule table is generated from the rules' meta; this test keeps
// it in step. Run `UPDATE_README=1 npx vitest run --config test/vitest.config.ts
// test/docs/readme.test.ts` to rewrite it after a change. Its format example
// lints clean.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { allRules, lint } from '../../server/linter.js';

const readmePath = fileURLToPath(new URL('../../README.md', import.meta.url));

const GROUPS: Record<string, string> = {
  structure: 'Structure',
  'tool-calls': 'Tool calls',
  'code-execution': 'Code execution',
  agents: 'Agents and frontmatter',
  sections: 'Sections in ordinary Markdown files',
  'llm-view': 'The LLM view',
  directives: 'Disable comments',
};

/** One table, each group opened by a row with its title in bold. */
function table(): string {
  let out = '\n| rule | severity | fix | reports |\n|---|---|---|---|\n';
  for (const [group, title] of Object.entries(GROUPS)) {
    const rules = allRules.filter((r) => r.meta.group === group);
    if (!rules.length) continue;
    out += `| **${title}** | | | |\n`;
    for (const r of rules) {
      const fix = r.meta.fixable === 'fix' ? 'fix' : r.meta.fixable === 'suggestion' ? 'suggestion' : '-';
      out += `| [\`${r.meta.id}\`](docs/rules/${r.meta.id}.md) | ${r.meta.severity} | ${fix} | ${r.meta.description.replace(/\|/g, '\\|')} |\n`;
    }
  }
  return out + '\n';
}

it('README lists every rule as the registry describes it', () => {
  const readme = readFileSync(readmePath, 'utf8');
  const start = readme.indexOf('<!-- rules:start -->\n');
  const end = readme.indexOf('<!-- rules:end -->');
  expect(start).toBeGreaterThan(-1);
  const current = readme.slice(start + '<!-- rules:start -->\n'.length, end);
  if (process.env.UPDATE_README && current !== table()) {
    writeFileSync(readmePath, readme.slice(0, start) + '<!-- rules:start -->\n' + table() + readme.slice(end));
    return;
  }
  expect(current).toBe(table());
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
