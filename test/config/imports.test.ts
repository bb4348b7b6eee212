// Validating a config loads no rule: the config modules receive the rule
// list from their caller (the CLI, the language server), so their import
// graph holds no file of rules/ and not the linter that lists them.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Every project file `entry` imports, directly or not (type-only imports included). */
function importGraph(entry: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm)) {
      visit(path.resolve(path.dirname(file), m[1]!.replace(/\.js$/, '.ts')));
    }
  };
  visit(path.join(ROOT, entry));
  return [...seen].map((f) => path.relative(ROOT, f).split(path.sep).join('/')).sort();
}

it('the config modules import no rule', () => {
  const graph = importGraph('server/config/index.ts');
  expect(graph).toContain('server/config/validate.ts');
  expect(graph.filter((f) => f.startsWith('rules/') || f === 'server/linter.ts')).toEqual([]);
});

it('the linter does import the rules (the check would see them)', () => {
  expect(importGraph('server/linter.ts')).toContain('rules/cell-marker.ts');
});
