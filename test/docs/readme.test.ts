// The README's rule table is generated from the rules' meta; this test keeps
// it in step. Run `UPDATE_README=1 npm test` to rewrite it after a change.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { allRules } from '../../server/engine/registry.js';

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

function table(): string {
  let out = '';
  for (const [group, title] of Object.entries(GROUPS)) {
    const rules = allRules.filter((r) => r.meta.group === group);
    if (!rules.length) continue;
    out += `\n**${title}**\n\n| rule | severity | fix | reports |\n|---|---|---|---|\n`;
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
