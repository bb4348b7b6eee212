// Layers import only downward (docs/architecture.md, "Code map"): every
// relative import of a source file must land in its own layer or one below
// it, and never in a sibling of the same rank (tool-calls and agents, export
// and config, cli and lsp, the extension and the playground stay independent
// of each other). Inside a layer, and inside a folder, no two files import
// each other, even through others or for types only: a cycle means neither
// can be read without the other.

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
  ['server/writer', 4],
  ['rules', 5],
  ['server/export', 6],
  ['server/config', 6],
  ['server/linter.ts', 6],
  ['server/import', 7],
  ['server/cli', 8],
  ['server/lsp', 8],
  ['server/index.ts', 8],
  ['client/src', 9],
  ['client/playground', 9],
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

/** Each source file's relative imports, resolved to source paths (type-only imports too). */
function importGraph(files: readonly string[], read: (file: string) => string): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = importsOf(read(file)).map((spec) => path.resolve(path.dirname(file), spec.replace(/\.js$/, '.ts')));
    graph.set(file, targets.filter((t) => known.has(t)));
  }
  return graph;
}

/** The import cycles (strongly connected components of more than one file), each as sorted relative paths. */
export function cycles(files: readonly string[], read: (file: string) => string): string[][] {
  const graph = importGraph(files, read);
  // Tarjan's algorithm, iterative: no recursion depth to worry about.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  for (const root of files) {
    if (index.has(root)) continue;
    const work: { node: string; edge: number }[] = [{ node: root, edge: 0 }];
    index.set(root, next);
    low.set(root, next++);
    stack.push(root);
    onStack.add(root);
    while (work.length) {
      const top = work[work.length - 1]!;
      const edges = graph.get(top.node)!;
      if (top.edge < edges.length) {
        const to = edges[top.edge++]!;
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, edge: 0 });
        } else if (onStack.has(to)) low.set(top.node, Math.min(low.get(top.node)!, index.get(to)!));
        continue;
      }
      work.pop();
      if (work.length) low.set(work[work.length - 1]!.node, Math.min(low.get(work[work.length - 1]!.node)!, low.get(top.node)!));
      if (low.get(top.node) !== index.get(top.node)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(path.relative(ROOT, member));
      } while (member !== top.node);
      if (component.length > 1) found.push(component.sort());
    }
  }
  return found;
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

  it('rules see the syntax tree only through its facade, server/syntax/document.ts', () => {
    const facade = path.join(ROOT, 'server/syntax/document.ts');
    const inner: string[] = [];
    for (const file of files.filter((f) => layerOf(f)?.[0] === 'rules')) {
      for (const spec of importsOf(readFileSync(file, 'utf8'))) {
        const target = path.resolve(path.dirname(file), spec.replace(/\.js$/, '.ts'));
        if (layerOf(target)?.[0] === 'server/syntax' && target !== facade) inner.push(`${path.relative(ROOT, file)} -> ${path.relative(ROOT, target)}`);
      }
    }
    expect(inner).toEqual([]);
  });

  it('has no import cycle', () => {
    expect(cycles(files, (f) => readFileSync(f, 'utf8'))).toEqual([]);
  });

  it('the cycle check finds a cycle through a type-only import, and only the files in it', () => {
    const fake: Record<string, string> = {
      [path.join(ROOT, 'server/syntax/tree/a.ts')]: "import { b } from './b.js';",
      [path.join(ROOT, 'server/syntax/tree/b.ts')]: "import type { C } from '../edit/c.js';",
      [path.join(ROOT, 'server/syntax/edit/c.ts')]: "export { a } from '../tree/a.js';",
      [path.join(ROOT, 'server/syntax/edit/d.ts')]: "import { a } from '../tree/a.js';",
    };
    expect(cycles(Object.keys(fake), (f) => fake[f]!)).toEqual([['server/syntax/edit/c.ts', 'server/syntax/tree/a.ts', 'server/syntax/tree/b.ts']]);
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
