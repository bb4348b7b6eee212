// Layers import only downward (docs/architecture.md, "Layers"): every
// relative import of a source file must land in its own layer or one below
// it, and never in a sibling of the same rank (tool-calls and agents, export
// and config, cli and lsp, the extension and the playground stay independent
// of each other).

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Layer of each source directory (or file), lowest first; the number is its rank. */
export const LAYERS: readonly (readonly [string, number])[] = [
  ['server/base', 0],
  ['server/syntax', 1],
  ['server/tool-calls', 2],
  ['server/agents', 2],
  ['server/llm-view', 3],
  ['server/engine', 4],
  ['rules', 5],
  ['server/export', 6],
  ['server/config', 6],
  ['server/linter.ts', 6],
  ['server/cli', 7],
  ['server/lsp', 7],
  ['server/index.ts', 7],
  ['client/src', 8],
  ['client/playground', 8],
];

function layerOf(file: string): readonly [string, number] | undefined {
  const rel = path.relative(ROOT, file).split(path.sep).join('/');
  return LAYERS.find(([prefix]) => rel === prefix || rel.startsWith(`${prefix}/`));
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && /\.(ts|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(path.join(entry.parentPath, entry.name));
  }
  return out;
}

/** Relative module specifiers of static imports, re-exports and dynamic imports. */
function importsOf(text: string): string[] {
  const specs: string[] = [];
  const pattern = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm;
  for (const m of text.matchAll(pattern)) specs.push(m[1]!);
  return specs;
}

/** Every import that goes up a layer or across to a sibling, as `from -> to`. */
export function violations(files: readonly string[], read: (file: string) => string): string[] {
  const found: string[] = [];
  for (const file of files) {
    const from = layerOf(file);
    if (!from) continue;
    for (const spec of importsOf(read(file))) {
      const target = path.resolve(path.dirname(file), spec.replace(/\.js$/, '.ts'));
      const to = layerOf(target);
      if (!to || to === from) continue;
      if (to[1] > from[1] || (to[1] === from[1] && to[0] !== from[0])) {
        found.push(`${path.relative(ROOT, file)} -> ${path.relative(ROOT, target)} (${from[0]} may not import ${to[0]})`);
      }
    }
  }
  return found;
}

describe('layers', () => {
  const files = ['server', 'rules', 'client/src', 'client/playground/src'].flatMap(sourceFiles);

  it('every source file belongs to a layer', () => {
    expect(files.filter((f) => !layerOf(f)).map((f) => path.relative(ROOT, f))).toEqual([]);
  });

  it('imports only from its own layer or lower ones', () => {
    expect(violations(files, (f) => readFileSync(f, 'utf8'))).toEqual([]);
  });

  it('the check finds an import that goes up, and one across', () => {
    const fake: Record<string, string> = {
      [path.join(ROOT, 'server/syntax/a.ts')]: "import { lint } from '../engine/lint.js';\nimport type { X } from '../base/text.js';",
      [path.join(ROOT, 'server/agents/b.ts')]: "export { y } from '../tool-calls/read.js';",
      [path.join(ROOT, 'rules/c.ts')]: "const m = await import('../server/cli/main.js');",
    };
    expect(violations(Object.keys(fake), (f) => fake[f]!)).toEqual([
      'server/syntax/a.ts -> server/engine/lint.ts (server/syntax may not import server/engine)',
      'server/agents/b.ts -> server/tool-calls/read.ts (server/agents may not import server/tool-calls)',
      'rules/c.ts -> server/cli/main.ts (rules may not import server/cli)',
    ]);
  });
});
