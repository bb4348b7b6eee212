// Hostile YAML frontmatter: alias bombs, custom tags that other YAML loaders
// turn into objects or code, 10 MB of frontmatter, deep nesting. Bounded
// time (the vitest timeout), nothing expanded, no code run, a diagnostic
// where the file is wrong; and the same through the LLM view, `msglint
// agents` and the language server's hover.

import { describe, expect, it } from 'vitest';
import { lint } from '../../server/linter.js';
import { exportText, listAgents, toLLMView } from '../../server/export/index.js';
import { parse } from '../../server/syntax/document.js';
import { expectLossless, expectSaneDiagnostics } from './gen.js';

const BODY = '\n# %% Ask[^1]\n\n[^1]: [markdown]\n\nHi.\n\n# %%% Answer[^2]\n\n[^2]: [coder]\n\nHello.\n';
const withFrontmatter = (yaml: string) => `---\n${yaml}---\n${BODY}`;

/** Every way the frontmatter is read: parse, lint, the LLM view, the agents listing. */
function readAll(text: string) {
  const doc = parse(text, { fileName: 'yaml.msg.md' });
  expectLossless(doc, text);
  const result = lint(text, { fileName: 'yaml.msg.md' });
  expectSaneDiagnostics(text, result.diagnostics);
  const view = toLLMView(doc);
  const exported = exportText(view, 'anthropic');
  const agents = JSON.stringify(listAgents(doc));
  const values = JSON.stringify(doc.frontmatter?.entries.map((e) => e.value) ?? null);
  return { doc, diagnostics: result.diagnostics, exported, agents, values };
}

const ALIAS_BOMB = [
  'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  ...'bcdefghi'.split('').map((k, i) => `${k}: &${k} [${Array(9).fill(`*${'abcdefghi'[i]}`).join(',')}]`),
].join('\n') + '\n';

describe('YAML frontmatter: alias bombs', () => {
  it('an alias bomb in the frontmatter expands nothing', () => {
    const { values, exported, agents } = readAll(withFrontmatter(ALIAS_BOMB + 'agents:\n  coder:\n    models: [gpt-4o]\n'));
    // Nine levels of nine would be 387 million strings.
    expect(values.length).toBeLessThan(10_000);
    expect(exported.length).toBeLessThan(10_000);
    expect(agents.length).toBeLessThan(10_000);
  });

  it('an alias bomb used as agent settings expands nothing and is reported', () => {
    const text = withFrontmatter(ALIAS_BOMB + 'agents:\n  coder:\n    models: *i\n    system_prompt: *i\ndefault_agent: *i\n');
    const { diagnostics, values, exported, agents } = readAll(text);
    expect(values.length + exported.length + agents.length).toBeLessThan(30_000);
    expect(diagnostics.some((d) => d.ruleId === 'agent-config' || d.ruleId === 'frontmatter-yaml')).toBe(true);
  });

  it('an alias of itself or a recursive mapping ends', () => {
    for (const yaml of ['a: &a [*a]\n', 'agents: &x\n  coder: *x\n', 'a: &a {b: *a}\nagents: *a\n']) {
      expect(() => readAll(withFrontmatter(yaml))).not.toThrow();
    }
  });

  // Aliases are resolved against the document (with a cap on expansions).
  it('reads YAML aliases in agent settings as the values they name', () => {
    const text = withFrontmatter(
      'agents:\n  coder:\n    models: &m [gpt-4o]\n    context_window: &cw 1000\n    system_prompt: &sp Be careful.\n  reviewer:\n    models: *m\n    context_window: *cw\n    system_prompt: *sp\ndefault_agent: coder\n',
    );
    const { doc, diagnostics } = readAll(text);
    expect(diagnostics.filter((d) => d.ruleId === 'agent-config').map((d) => d.message)).toEqual([]);
    const reviewer = doc.frontmatter!.agents.find((a) => a.name === 'reviewer')!;
    expect(Object.fromEntries(reviewer.settings.map((s) => [s.key, s.value]))).toEqual({ models: ['gpt-4o'], context_window: 1000, system_prompt: 'Be careful.' });
  });
});

describe('YAML frontmatter: custom tags', () => {
  const TAGS = [
    'models: !!js/function "function () { globalThis.__msglintPwned = true; return [\'x\'] }"',
    "system_prompt: !!js/function 'function () { globalThis.__msglintPwned = true }'",
    'context_window: !!js/undefined ""',
    'reasoning: !!python/object/apply:os.system ["touch /tmp/msglint-pwned"]',
    'temperature: !<tag:yaml.org,2002:js/regexp> /a/',
    'use_temperature: !custom true',
  ];

  it('run no code and are reported as warnings, each at its tag', () => {
    const g = globalThis as { __msglintPwned?: boolean };
    delete g.__msglintPwned;
    const text = withFrontmatter(`agents:\n  coder:\n${TAGS.map((t) => `    ${t}\n`).join('')}`);
    const { diagnostics, exported, agents } = readAll(text);
    expect(g.__msglintPwned).toBeUndefined();
    const tagged = diagnostics.filter((d) => d.ruleId === 'frontmatter-yaml');
    expect(tagged.map((d) => text.slice(d.range.start.offset, d.range.end.offset))).toEqual([
      '!!js/function',
      '!!js/function',
      '!!js/undefined',
      '!!python/object/apply:os.system',
      '!<tag:yaml.org,2002:js/regexp>',
      '!custom',
    ]);
    expect(tagged.every((d) => d.severity === 1)).toBe(true);
    // Read as plain values: never functions, never executed.
    expect(exported).not.toMatch(/\[Function|pwned.*true/);
    expect(agents).not.toMatch(/\[Function/);
  });

  it('known tags (!!str, !!int, !!binary, !!timestamp) are not reported', () => {
    const { diagnostics } = readAll(withFrontmatter('title: !!str 1\ncount: !!int 3\nblob: !!binary aGVsbG8=\nwhen: !!timestamp 2001-12-14\nagents:\n  coder:\n    models: [gpt-4o]\n'));
    expect(diagnostics.filter((d) => d.ruleId === 'frontmatter-yaml')).toEqual([]);
  });
});

describe('YAML frontmatter: size and depth', () => {
  const MB10 = 10 * 1024 * 1024;

  // Frontmatter over 256 KB is reported and not parsed: the YAML library
  // needs hundreds of bytes per byte of a large document (500,000 keys took
  // 4 GB), and a real frontmatter is a few lines.
  const tooLarge = (diagnostics: { ruleId: string; message: string }[]) =>
    diagnostics.filter((d) => d.ruleId === 'frontmatter-yaml').map((d) => /too large/.test(d.message));

  it('200 KB in one system prompt is read', () => {
    const size = 200 * 1024;
    const { diagnostics, doc } = readAll(withFrontmatter(`agents:\n  coder:\n    models: [gpt-4o]\n    system_prompt: ${'x'.repeat(size)}\n`));
    expect(diagnostics.filter((d) => d.ruleId === 'frontmatter-yaml' || d.ruleId === 'agent-config')).toEqual([]);
    expect(doc.frontmatter!.agents[0]!.settings.find((s) => s.key === 'system_prompt')!.value).toHaveLength(size);
  });

  it('10 MB in one system prompt: reported as too large, once', () => {
    const { diagnostics } = readAll(withFrontmatter(`agents:\n  coder:\n    models: [gpt-4o]\n    system_prompt: ${'x'.repeat(MB10)}\n`));
    expect(tooLarge(diagnostics)).toEqual([true]);
  });

  it('10 MB in a block scalar of 400,000 lines: reported as too large, once', () => {
    const lines = '      a line of the system prompt\n'.repeat(Math.ceil(MB10 / 32));
    const { diagnostics } = readAll(withFrontmatter(`agents:\n  coder:\n    models: [gpt-4o]\n    system_prompt: |\n${lines}`));
    expect(tooLarge(diagnostics)).toEqual([true]);
  });

  it('a frontmatter that is never closed: 10 MB read as Markdown, reported once', () => {
    const text = `---\nagents:\n  coder:\n    models: [gpt-4o]\n${'    system_prompt: x\n'.repeat(MB10 / 22)}${BODY}`;
    const { diagnostics } = readAll(text);
    expect(diagnostics.filter((d) => d.ruleId === 'frontmatter-yaml')).toHaveLength(1);
  });

  it('10,000 repeats of one key: reported, in bounded time', () => {
    const { diagnostics } = readAll(withFrontmatter('title: x\n'.repeat(10_000)));
    expect(diagnostics.filter((d) => d.ruleId === 'frontmatter-yaml').length).toBeGreaterThan(0);
  });

  it('2,000 levels of block nesting: an error, not a crash', () => {
    const yaml = Array.from({ length: 2_000 }, (_, i) => `${' '.repeat(i)}k${i}:\n`).join('');
    const { diagnostics } = readAll(withFrontmatter(yaml));
    expect(diagnostics.some((d) => d.ruleId === 'frontmatter-yaml')).toBe(true);
  });

  it('100,000 levels of flow nesting: an error, not a crash', () => {
    const { diagnostics } = readAll(withFrontmatter(`x: ${'['.repeat(100_000)}\n`));
    expect(diagnostics.some((d) => d.ruleId === 'frontmatter-yaml')).toBe(true);
  });

  // The library's recursion is not even started: near the end of the stack,
  // V8 may abort the process instead of throwing (seen in the language
  // server as "RegExpCompiler Allocation failed").
  it.each([
    ['flow lists', `x: ${'['.repeat(20_000)}\n`],
    ['flow mappings', `x: ${'{a: '.repeat(20_000)}\n`],
    ['block entries on one line', `x:\n  ${'- '.repeat(20_000)}a\n`],
    ['a line of dashes alone', `${'- '.repeat(20_000)}\n`],
    ['explicit keys', `${'? '.repeat(20_000)}a\n`],
  ])('%s 20,000 deep: reported as too deep without reading', (_, yaml) => {
    const found = readAll(withFrontmatter(yaml)).diagnostics.filter((d) => d.ruleId === 'frontmatter-yaml');
    expect(found.map((d) => d.message)).toEqual(['Frontmatter is not valid YAML: it is nested too deeply to read (more than 200 levels)']);
  });

  it('brackets in quoted strings and comments do not count as nesting', () => {
    const yaml = `a: "${'['.repeat(500)}"\nb: '${'{'.repeat(500)}'\nc: 1 # ${'['.repeat(500)}\n`;
    expect(readAll(withFrontmatter(yaml)).diagnostics.filter((d) => d.ruleId === 'frontmatter-yaml')).toEqual([]);
  });

  // Duplicate keys are found with one Set per mapping (the parser's own
  // check is quadratic), and frontmatter over 256 KB is not parsed.
  it('10 MB of frontmatter in 500,000 keys', () => {
    const yaml = Array.from({ length: 500_000 }, (_, i) => `key_${i}: value_${i}\n`).join('');
    expect(tooLarge(readAll(withFrontmatter(yaml)).diagnostics)).toEqual([true]);
  });

  it('20,000 keys (under 256 KB) with one repeated: found in linear time', () => {
    const yaml = Array.from({ length: 20_000 }, (_, i) => `k${i}: v\n`).join('') + 'k7: again\n';
    const found = readAll(withFrontmatter(yaml)).diagnostics.filter((d) => d.ruleId === 'frontmatter-yaml');
    expect(found.map((d) => d.message)).toEqual([expect.stringContaining('`k7` appears twice')]);
  });

  // The YAML parser makes one error per stray flow indicator (about 10 µs
  // each): the size cap bounds the time, and only the first 20 are kept.
  it('10 MB of stray flow indicators', () => {
    expect(tooLarge(readAll(withFrontmatter(`x: ${']'.repeat(MB10)}\n`)).diagnostics)).toEqual([true]);
  });

  it('100 KB of stray flow indicators: at most 20 errors', () => {
    const found = readAll(withFrontmatter(`x: ${']'.repeat(100 * 1024)}\n`)).diagnostics.filter((d) => d.ruleId === 'frontmatter-yaml');
    expect(found.length).toBeGreaterThan(0);
    expect(found.length).toBeLessThanOrEqual(20);
  });
});
