// The simple-frontmatter reader (server/syntax/format/simple-yaml.ts) against the
// YAML library it stands in for: whatever it accepts, it must read exactly
// as the library does (values, node kinds, ranges); whatever it cannot
// read, it must leave to the library.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as Y from 'yaml';
import { parseFrontmatter } from '../../server/syntax/format/frontmatter.js';
import { parseSimpleYaml } from '../../server/syntax/format/simple-yaml.js';

/** A node tree as plain data: what any consumer could look at. */
function shape(node: unknown): unknown {
  if (Y.isMap(node)) {
    return { map: node.range, items: node.items.map((p) => ({ key: shape(p.key), value: shape(p.value) })) };
  }
  if (Y.isSeq(node)) return { seq: node.range, flow: !!node.flow, items: node.items.map(shape) };
  if (Y.isScalar(node)) return { scalar: node.range, value: node.value, type: node.type };
  return node === null || node === undefined ? null : { other: String(node) };
}

function library(source: string): Y.Document {
  return Y.parseDocument(source, { uniqueKeys: false, prettyErrors: false });
}

/** Reads `source` both ways; returns whether the simple reader took it. */
function compare(source: string): boolean {
  const simple = parseSimpleYaml(Y, source);
  if (!simple) return false;
  const lib = library(source);
  // The simple reader only takes what the library reads without a word.
  expect(lib.errors).toEqual([]);
  expect(lib.warnings).toEqual([]);
  expect(shape(simple.contents)).toEqual(shape(lib.contents));
  expect(simple.toJS({ maxAliasCount: 100 })).toEqual(lib.toJS({ maxAliasCount: 100 }));
  // And the frontmatter made of it is the same, entries and agents alike.
  const text = `---\n${source}${source.endsWith('\n') || source === '' ? '' : '\n'}---\n`;
  const a = parseFrontmatter(text, 0);
  const b = parseFrontmatter(text, 0, { simple: false });
  const plain = (fm: typeof a) =>
    fm && {
      ...fm,
      document: undefined,
      entries: fm.entries.map((e) => ({ ...e, node: shape(e.node) })),
      agents: fm.agents.map((g) => ({ ...g, settings: g.settings.map((e) => ({ ...e, node: shape(e.node) })) })),
      agentsEntry: fm.agentsEntry && { ...fm.agentsEntry, node: shape(fm.agentsEntry.node) },
      defaultAgent: fm.defaultAgent && { ...fm.defaultAgent, node: shape(fm.defaultAgent.node) },
      messageSection: fm.messageSection && { ...fm.messageSection, node: shape(fm.messageSection.node) },
    };
  expect(plain(a)).toEqual(plain(b));
  return true;
}

const TYPICAL = [
  'title: Benchmark session 1',
  'agents:',
  '  coder:',
  '    models: [gpt-4o, claude-sonnet-4]',
  '    context_window: 200000000',
  '    max_output_tokens: 4096',
  '    reasoning: true',
  '    temperature: 0.2',
  '    system_prompt: You are a careful coding assistant.',
  '  reviewer:',
  '    models: [gpt-4o-mini]',
  '    context_window: 64000',
  '    use_temperature: false',
  'default_agent: coder',
  '',
].join('\n');

describe('simple frontmatter reader', () => {
  it('reads the usual frontmatter as the library does', () => {
    expect(compare(TYPICAL)).toBe(true);
    expect(compare(TYPICAL.replace(/\n/g, '\r\n'))).toBe(true);
    expect(compare(TYPICAL.trimEnd())).toBe(true);
    expect(compare(`${TYPICAL}\n\n`)).toBe(true);
    expect(compare(`\n${TYPICAL}`)).toBe(true);
    expect(compare('message_section: Discussion\ntitle: "A \'quoted\' title"\nnote: \'single\'\nempty: []\nx: -3\ny: -0.5\nz: null\n')).toBe(true);
    expect(compare('title: 会话 ü, fine\nmodels:   [ a ,b,  c ]   \n')).toBe(true);
  });

  it('leaves everything else to the library', () => {
    const others = [
      '',
      '\n\n',
      '# a comment\ntitle: x\n',
      'title: x # a comment\n',
      'list:\n  - a\n  - b\n',
      'a: b: c\n',
      'a:\nb: c\n',
      'a:\n',
      'a: &x 1\nb: *x\n',
      'a: !tag x\n',
      'a: "esc\\"aped"\n',
      "a: 'it''s'\n",
      'a: |\n  block\n',
      'a: {b: 1}\n',
      'a: [b, [c]]\n',
      'a: [b,, c]\n',
      'a: [b, "c"]\n',
      'a:\tb\n',
      'a: 1\na: 2\n',
      'a: yes\nb: True\n',
      'a: 0123\n',
      'a: 1e3\n',
      'a: .5\n',
      'a: .inf\n',
      'a: ~\n',
      ' a: 1\n',
      'a:\n    b: 1\n  c: 2\n',
      'a: b\n  c: d\n',
      '? a\n: b\n',
      '%YAML 1.2\n---\na: 1\n',
      'a: multi\n  line\n',
      'a: 12345678901234567890\n',
      'a: -\n',
      '__proto__: x\n',
    ];
    for (const source of others) expect(compare(source), JSON.stringify(source)).toBe(false);
  });

  it('agrees with the library on generated frontmatter (property)', () => {
    const fine = fc.constantFrom('coder', 'gpt-4o', 'claude-sonnet-4', 'You are careful.', 'a b  c', '会话', 'x:y', 'a#b', 'true', 'false', 'null',
      '0', '-1', '42', '0.2', '-0.5', '"q"', '"a b"', "'s'", '[a, b]', '[]', '[ a ]', '[x ,y]', 'ü', 'a  ');
    const tricky = fc.constantFrom('x: y', 'a #b', 'True', 'yes', '~', '1e3', '.5', '0123', '"e\\"x"', "'it''s'", '[a,,b]', '[a, "b"]',
      '{a: 1}', '&x a', '*x', '!t a', '|', '- a', '', ' ', '#c', '[a, [b]]', '12345678901234567890');
    const word = fc.oneof({ weight: 9, arbitrary: fine }, { weight: 1, arbitrary: tricky });
    const key = fc.constantFrom('title', 'agents', 'coder', 'models', 'default_agent', 'message_section', 'a', 'b-c', 'x_1', 'reviewer');
    type Tree = [string, string | Tree][];
    const tree: fc.Arbitrary<Tree> = fc.letrec<{ t: Tree }>((tie) => ({
      t: fc.uniqueArray(fc.tuple(key, fc.oneof({ weight: 4, arbitrary: word }, { weight: 1, arbitrary: fc.constant(null).chain(() => tie('t')) })), {
        minLength: 1,
        maxLength: 5,
        selector: ([k]) => k,
      }) as fc.Arbitrary<Tree>,
    })).t;
    const render = (t: Tree, indent: number, step: number, eol: string, gaps: boolean[]): string =>
      t
        .map(([k, v], i) => {
          const gap = gaps[i % gaps.length] ? eol : '';
          return typeof v === 'string'
            ? `${gap}${' '.repeat(indent)}${k}: ${v}${eol}`
            : `${gap}${' '.repeat(indent)}${k}:${eol}${render(v, indent + step, step, eol, gaps)}`;
        })
        .join('');
    let taken = 0;
    fc.assert(
      fc.property(tree, fc.constantFrom(2, 4, 1), fc.constantFrom('\n', '\r\n'), fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }), (t, step, eol, gaps) => {
        if (compare(render(t, 0, step, eol, gaps))) taken++;
      }),
      { numRuns: 2000 },
    );
    // The generator must reach the fast path often enough for the test to mean something.
    expect(taken).toBeGreaterThan(300);
  });

  it('leaves malformed lines to the library (property)', () => {
    const piece = fc.constantFrom('a', 'b: c', ': ', ':', ' ', '  ', '\t', '#', '"', "'", '[', ']', ',', '-', '?', '&', '*', '!', '|', '1', '.', 'é');
    fc.assert(
      fc.property(fc.array(fc.array(piece, { maxLength: 6 }), { maxLength: 6 }), (lines) => {
        compare(lines.map((l) => l.join('')).join('\n'));
      }),
      { numRuns: 2000 },
    );
  });
});
