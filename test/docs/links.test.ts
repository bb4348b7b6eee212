// Every relative link in the project's Markdown (README.md, docs/, client/,
// bench/, examples/; not test/, whose fixtures are data) leads to a file or
// directory of the repository, and a `#fragment` to a heading of the target
// Markdown file, with GitHub's rules for heading ids. Links inside code
// (fenced blocks, code spans) and HTML comments are not links.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Directories that hold no documentation of the project. */
const SKIPPED = new Set(['node_modules', '.git', 'dist', 'out', 'coverage', 'test']);

function markdownFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIPPED.has(entry.name) && !entry.name.startsWith('.')) markdownFiles(path.join(dir, entry.name), out);
    } else if (entry.name.endsWith('.md')) {
      out.push(path.join(dir, entry.name));
    }
  }
  return out;
}

/** The text with fenced code blocks, code spans and HTML comments blanked (line breaks kept). */
function withoutCode(text: string): string {
  const lines = text.split('\n');
  let fence: { char: string; length: number } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const m = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
    if (fence) {
      if (m && m[1]![0] === fence.char && m[1]!.length >= fence.length && m[2]!.trim() === '') fence = undefined;
      lines[i] = '';
    } else if (m && !(m[1]![0] === '`' && m[2]!.includes('`'))) {
      fence = { char: m[1]![0]!, length: m[1]!.length };
      lines[i] = '';
    }
  }
  const blank = (s: string) => s.replace(/[^\n]/g, ' ');
  return lines
    .join('\n')
    .replace(/<!--[\s\S]*?-->/g, blank)
    .replace(/(`+)(?!`)[\s\S]*?[^`]\1(?!`)/g, blank);
}

/** GitHub's id for a heading text (github-slugger): lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
  const rendered = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/[*`]/g, '');
  return rendered
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The ids of a Markdown file's ATX headings, repeated ones numbered as GitHub does. */
export function headingIds(text: string): Set<string> {
  const ids = new Set<string>();
  const seen = new Map<string, number>();
  const original = text.split('\n');
  // Headings are found outside code blocks and comments, and read with their code spans (GitHub keeps their text).
  for (const [i, line] of withoutCode(text).split('\n').entries()) {
    if (!/^ {0,3}#{1,6}[ \t]/.test(line)) continue;
    const m = /^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(original[i]!);
    if (!m) continue;
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    ids.add(n === 0 ? base : `${base}-${n}`);
  }
  return ids;
}

/** Link targets of a Markdown text: inline links and images, and reference definitions (not footnotes). */
export function linkTargets(text: string): { target: string; line: number }[] {
  const clean = withoutCode(text);
  const lineOf = (offset: number) => clean.slice(0, offset).split('\n').length;
  const out: { target: string; line: number }[] = [];
  for (const m of clean.matchAll(/!?\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+"[^"]*")?\s*\)/g)) {
    out.push({ target: m[1]!.replace(/^<|>$/g, ''), line: lineOf(m.index!) });
  }
  for (const m of clean.matchAll(/^ {0,3}\[(?!\^)[^\]]+\]:[ \t]*(<[^>]*>|\S+)/gm)) {
    out.push({ target: m[1]!.replace(/^<|>$/g, ''), line: lineOf(m.index!) });
  }
  return out;
}

/** Why a relative link of `file` does not resolve, or undefined when it does (or is not relative). */
export function brokenLink(file: string, text: string, target: string, read = (f: string) => readFileSync(f, 'utf8')): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) return undefined;
  const hash = target.indexOf('#');
  const pathPart = decodeURIComponent(hash === -1 ? target : target.slice(0, hash)).replace(/\?.*$/, '');
  const fragment = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1));
  const resolved = pathPart === '' ? file : path.resolve(path.dirname(file), pathPart);
  const inside = path.relative(ROOT, resolved);
  if (inside.startsWith('..') || path.isAbsolute(inside)) return 'leads outside the repository';
  if (!existsSync(resolved)) return 'no such file';
  if (fragment === undefined) return undefined;
  if (!resolved.endsWith('.md') || statSync(resolved).isDirectory()) return undefined;
  const ids = headingIds(resolved === file ? text : read(resolved));
  return ids.has(fragment) ? undefined : `no heading with the id '${fragment}'`;
}

describe('the link checker', () => {
  it('makes heading ids as GitHub does', () => {
    expect(slug('Inside `server/lsp/`')).toBe('inside-serverlsp');
    expect(slug('The language server: the incremental path')).toBe('the-language-server-the-incremental-path');
    expect(slug('Start-up')).toBe('start-up');
    expect(slug('msglint_timing and [links](x.md)')).toBe('msglint_timing-and-links');
    expect([...headingIds('# A\n\n## A\n\n```\n# not a heading\n```\n\n### A ###\n')]).toEqual(['a', 'a-1', 'a-2']);
    expect([...headingIds('## Globs: `ignores` and `files`\n')]).toEqual(['globs-ignores-and-files']);
  });

  it('finds links outside code and comments only, and not footnotes', () => {
    const text = '[a](x.md) `[b](y.md)` <!-- [c](z.md) -->\n\n```md\n[d](w.md)\n```\n\n[^1]: [markdown] x\n[ref]: r.md "title"\n![img](i.png)\n';
    expect(linkTargets(text).map((l) => l.target).sort()).toEqual(['i.png', 'r.md', 'x.md']);
  });

  it('reports a missing file, a missing heading and a link out of the repository', () => {
    const readme = path.join(ROOT, 'README.md');
    const text = '# Top\n';
    expect(brokenLink(readme, text, 'docs/no-such-page.md')).toBe('no such file');
    expect(brokenLink(readme, text, '#top')).toBeUndefined();
    expect(brokenLink(readme, text, '#bottom')).toBe("no heading with the id 'bottom'");
    expect(brokenLink(readme, text, 'docs/architecture.md#no-such-heading')).toBe("no heading with the id 'no-such-heading'");
    expect(brokenLink(readme, text, '../elsewhere/file.md')).toBe('leads outside the repository');
    expect(brokenLink(readme, text, 'https://example.com/x.md#y')).toBeUndefined();
  });
});

describe('relative links in the documentation', () => {
  const files = markdownFiles(ROOT);

  it('finds the documentation to check', () => {
    const names = files.map((f) => path.relative(ROOT, f).split(path.sep).join('/'));
    for (const name of ['README.md', 'docs/architecture.md', 'docs/performance.md', 'docs/integrations/editors.md', 'client/README.md']) {
      expect(names).toContain(name);
    }
  });

  for (const file of files) {
    const name = path.relative(ROOT, file).split(path.sep).join('/');
    it(`${name}: every relative link resolves`, () => {
      const text = readFileSync(file, 'utf8');
      const broken = linkTargets(text)
        .map(({ target, line }) => ({ target, line, why: brokenLink(file, text, target) }))
        .filter((l) => l.why !== undefined)
        .map((l) => `${name}:${l.line}: ${l.target}: ${l.why}`);
      expect(broken).toEqual([]);
    });
  }
});
