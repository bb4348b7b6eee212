// The bundled examples lint clean; the showcase shows every structure rule,
// and the README shows the showcase's real findings.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { allRules, lint } from '../server/linter.js';

const root = fileURLToPath(new URL('../', import.meta.url));

describe('examples', () => {
  const files = readdirSync(`${root}examples`).filter((f) => f.endsWith('.md'));
  it('has the three kinds the README promises', () => {
    expect(files.some((f) => f.endsWith('.msg.md'))).toBe(true);
    expect(files.some((f) => !f.endsWith('.msg.md'))).toBe(true);
  });
  for (const f of files) {
    it(`${f} is a message file that lints clean`, () => {
      const r = lint(readFileSync(`${root}examples/${f}`, 'utf8'), { fileName: f, reportUnusedDisableDirectives: true });
      expect(r.isMessageFile).toBe(true);
      expect(r.diagnostics.map((d) => `${d.range.start.line + 1}: ${d.ruleId} ${d.message}`)).toEqual([]);
    });
  }
});

describe('showcase', () => {
  const text = readFileSync(`${root}test/fixtures/showcase.msg.md`, 'utf8');
  const result = lint(text, { fileName: 'showcase.msg.md' });
  it('shows at least one finding of every structure rule', () => {
    const found = new Set(result.diagnostics.map((d) => d.ruleId));
    const structure = allRules.filter((r) => r.meta.group === 'structure').map((r) => r.meta.id);
    expect(structure.filter((id) => !found.has(id))).toEqual([]);
  });
  it('matches the output shown in the README', () => {
    const readme = readFileSync(`${root}README.md`, 'utf8');
    const block = readme.slice(readme.indexOf('test/fixtures/showcase.msg.md\n   '));
    const shown = [...block.slice(0, block.indexOf('\n```\n')).matchAll(/^\s+(\d+):(\d+)\s+(error|warning)\s+.*?\s([a-z-]+)$/gm)].map((m) => `${m[1]}:${m[2]} ${m[3]} ${m[4]}`);
    const actual = result.diagnostics.map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1} ${d.severity === 2 ? 'error' : 'warning'} ${d.ruleId}`);
    expect(shown).toEqual(actual);
  });
});
