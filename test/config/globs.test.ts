// Issue 46, point 3: the cost of matching a config's globs (`ignores`, an
// override's `files`) is bounded. The syntax is .gitignore's (`*`, `**`,
// `?`, `[…]`) with `{…}`; extglob groups and parentheses are characters;
// wildcards, `**` and alternatives are counted. The growth test is the
// benchmark's crafted shape (bench/lib/crafted.mjs), matched in-process.

import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterAll, describe, expect, it } from 'vitest';
import { EXTGLOB_PATTERN, extglobName } from '../../bench/lib/crafted.mjs';
import { ConfigError, ConfigResolver, validateConfig } from '../../server/config/index.js';
import { allRules } from '../../server/linter.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** `isIgnored` of a config in a fresh folder holding `ignores`, for paths relative to it. */
function ignoring(ignores: string[]): (relative: string) => boolean {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'msglint-globs-')));
  dirs.push(dir);
  writeFileSync(path.join(dir, '.msglintrc.json'), JSON.stringify({ ignores }));
  const config = new ConfigResolver(allRules).forDirectory(dir);
  return (relative) => config.isIgnored(path.join(dir, relative));
}

/** Seconds per call of `match` over `names`, for a round of at least 50 ms. */
function secondsPerName(match: (name: string) => boolean, names: readonly string[]): number {
  let calls = 0;
  const start = performance.now();
  while (performance.now() - start < 50) {
    for (const name of names) match(name);
    calls += names.length;
  }
  return (performance.now() - start) / 1000 / calls;
}

/** The ratio of the best of five rounds each, taken in turns (the machine is shared: a round may be slowed). */
function growth(match: (name: string) => boolean, small: readonly string[], large: readonly string[]): number {
  let [a, b] = [Infinity, Infinity];
  for (let round = 0; round < 5; round++) {
    a = Math.min(a, secondsPerName(match, small));
    b = Math.min(b, secondsPerName(match, large));
  }
  return b / a;
}

describe('the cost of a glob (issue 46, point 3)', () => {
  it('a pattern of extglob groups: names of n and 4n letters, 4n at most 5 times n', () => {
    // Each group multiplied the work by the length of a name: at n = 20 and
    // 80, about 4^6 = 4,096 times (tens of seconds a name at 200 letters).
    const isIgnored = ignoring([EXTGLOB_PATTERN]);
    const names = (n: number) => Array.from({ length: 4 }, (_, i) => extglobName(n, i));
    expect(growth(isIgnored, names(20), names(80))).toBeLessThanOrEqual(5);
  }, 120_000);

  it('extglob groups, parentheses, `|`, `+` and `@` are characters, as in .gitignore; `*`, `?`, `[…]`, `{…}` are glob syntax', () => {
    const isIgnored = ignoring(['(a|aa)+b', '+(x)', 'notes (old)', '@(y|z).msg.md', 'drafts/*.{wip,tmp}.msg.md', 'v[0-9]?.msg.md']);
    expect(isIgnored('aab')).toBe(false);
    expect(isIgnored('(a|aa)+b')).toBe(true);
    expect(isIgnored('xx')).toBe(false);
    expect(isIgnored('+(x)')).toBe(true);
    expect(isIgnored('notes (old)/a.msg.md')).toBe(true);
    expect(isIgnored('notes old/a.msg.md')).toBe(false);
    expect(isIgnored('y.msg.md')).toBe(false);
    expect(isIgnored('@(y|z).msg.md')).toBe(true);
    expect(isIgnored('drafts/a.wip.msg.md')).toBe(true);
    expect(isIgnored('drafts/a.tmp.msg.md')).toBe(true);
    expect(isIgnored('drafts/a.msg.md')).toBe(false);
    expect(isIgnored('v1x.msg.md')).toBe(true);
  });

  it.each([
    ['four wildcards', 'a*b*c*d*', 'the pattern has more than 3 wildcards (`*`, and `**` but a last one); use fewer'],
    ['`**` counted with `*`', '**/a*b*c*', 'the pattern has more than 3 wildcards'],
    ['two `**` before the end', '**/a/**/b', 'the pattern has more than one `**` before its end; use fewer'],
    ['alternatives', '{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}{o,p}', 'the pattern expands to more than 128 patterns with its `{…}` groups; use fewer'],
    ['alternatives with wildcards', '*{a,b}*{c,d}*', 'the pattern expands to more than 2 patterns with its `{…}` groups and 3 wildcards; use fewer'],
    ['a pattern longer than a path', 'a'.repeat(5000), 'the pattern is longer than 4096 characters'],
  ])('refused, in ignores and in overrides: %s', (_, pattern, problem) => {
    for (const config of [{ ignores: ['x', pattern] }, { overrides: [{ files: ['x', pattern], rules: {} }] }]) {
      let error: unknown;
      try {
        validateConfig(config, 'cfg.json', allRules);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toContain(problem);
      expect((error as Error).message).toMatch(/^cfg\.json: "(ignores|overrides\[0\]\.files)\[1\]": the pattern /);
    }
  });

  it.each([['**/drafts/**'], ['docs/**/*.draft.msg.md'], ['**/*draft*'], ['*.{md,txt}'], ['**/*.{a,b,c,d,e,f,g,h}'], ['\\*\\*\\*\\*a']])('accepted: %s', (pattern) => {
    expect(() => validateConfig({ ignores: [pattern] }, 'cfg.json', allRules)).not.toThrow();
  });
});
