// Generators and checks shared by the reliability tests: message files built
// from the format's pieces, real files from the repository (examples,
// fixtures, the rule pages' examples), random mutations of both, and the
// invariants every parse and every lint must keep.

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import type { Diagnostic } from '../../server/engine/types.js';
import type { MessageDocument } from '../../server/syntax/document.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** fast-check runs: the default, or PROPERTY_RUNS (e.g. PROPERTY_RUNS=5000 for a long fuzzing session). */
export function runs(defaultRuns: number): number {
  const n = Number(process.env.PROPERTY_RUNS);
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : defaultRuns;
}

/** A multiplier for the heavier loops (edits, documents) that PROPERTY_RUNS also scales. */
export function scale(defaultCount: number, defaultRuns: number): number {
  return Math.max(defaultCount, Math.floor((defaultCount * runs(defaultRuns)) / defaultRuns));
}

// ---------------------------------------------------------------------------
// Real files

function filesUnder(dir: string, ext: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(p, ext));
    else if (entry.name.endsWith(ext)) out.push(p);
  }
  return out.sort();
}

/** The `markdown` examples of the rule pages (wrong and right), as files. */
function docExamples(): string[] {
  const out: string[] = [];
  for (const f of filesUnder(path.join(ROOT, 'docs/rules'), '.md')) {
    const text = readFileSync(f, 'utf8');
    const re = /^(`{3,}|~{3,})markdown\n([\s\S]*?)^\1$/gm;
    for (let m = re.exec(text); m; m = re.exec(text)) out.push(m[2]!);
  }
  return out;
}

/** Message files from the repository: examples, fixtures and the rule pages' examples. */
export const corpus: string[] = [
  ...filesUnder(path.join(ROOT, 'examples'), '.md').map((f) => readFileSync(f, 'utf8')),
  ...filesUnder(path.join(ROOT, 'test/fixtures'), '.md')
    .filter((f) => !f.endsWith('README.md'))
    .map((f) => readFileSync(f, 'utf8')),
  ...docExamples(),
];

/** Every distinct line of the corpus (with its line break). */
export const corpusLines: string[] = [...new Set(corpus.flatMap((t) => t.split(/(?<=\n)/)))];

/** Fragments that open, close or break the format's constructs. */
export const fragments: string[] = [
  '# %%', '## %%%', '# %%% ', '#%%', '###### %%%', '# %%%%', '  # %%', '# %% T[^1]\n', '## %%% [^1.abcd]\n',
  '[^', ']: [', ']: [markdown]', ']: [tool] name="x"', '[^1]: [markdown]\n', '[^1.abcd]: [tool] name="read_file"\n',
  '[^gpt]: [agent] models="gpt-4o"\n', ' history=summary', ' history=exclude', ' summary="', 'time="', 'status="error"',
  ' reasoning=1', ' duration=0.1s', ' mime_type="image/png"',
  '```', '```python\n', '~~~\n', '````\n', '\n```\n',
  '<tool>', '</tool>', '<tool_name>', '</tool_name>', '<arguments>', '</arguments>', '<![CDATA[', ']]>', 'CDATA-START[', ']CDATA-END',
  '<!--', '-->', '<!-- msglint-disable -->', '<!-- msglint-disable-next-line cell-marker -->', '<!-- msglint-enable -->', '<!-- msglint-disable-file nope -->',
  '<!DOCTYPE x>', '&lt;', '&nbsp;', '&#0;', '&#x110000;', '&',
  '{"name": "x", "arguments": {}}', '{', '}', '"', "'", '`', '=', '\\',
  '---\n', '...\n', 'agents:\n', '  coder:\n', '    models: [gpt-4o]\n', '    context_window: 10\n', 'default_agent: coder\n', 'message_section: true\n', '# Discussion\n',
  'stdout> ', 'stderr> ', '[reasoning]', '\n', '\n\n', '\r\n', '\r', '\t', ' ', '\u0000', '\ufeff', '\ud800', '\udc00', '\ud83d\ude00', 'é', '\u2028',
];

// ---------------------------------------------------------------------------
// Structured message files

const idSegment = fc.constantFrom('1', '2', '3', '4', '5', '12', 'k7f3q', 'abcd', 'm2x9w', 'a b', '', 'x.y', '0');
const cellId = fc.oneof(
  fc.constantFrom('1', '2', '3', '4', '5'),
  fc.tuple(fc.constantFrom('1', '2', '3'), fc.constantFrom('k7f3q', 'abcd', 'q1', '12')).map(([a, b]) => `${a}.${b}`),
  fc.tuple(fc.constantFrom('2', '3'), fc.constantFrom('k7f3q', 'abcd'), fc.constantFrom('1', '2', '3')).map(([a, b, c]) => `${a}.${b}.${c}`),
  fc.tuple(fc.constantFrom('1', '4'), fc.constantFrom('1', '2')).map(([a, b]) => `${a}.${b}`),
  fc.array(idSegment, { minLength: 1, maxLength: 4 }).map((s) => s.join('.')),
);
const cellKind = fc.constantFrom('markdown', 'code', 'raw', 'tool', 'agent', 'coder', 'reviewer', 'gpt', 'python', 'bash', 'assistant', 'bogus', '');
const attribute = fc.oneof(
  fc.constantFrom(
    'time="2025-05-30T09:00:00+08:00"', 'time="yesterday"', 'duration=0.2s', 'duration=forever', 'status="success"', 'status="error"', 'status="maybe"',
    'reasoning=1', 'reasoning=maybe', 'history=include', 'history=exclude', 'history=summary', 'history=excluded', 'history=none',
    'summary="short"', 'name="read_file"', 'name="write_to_file"', 'mime_type="text/plain"', 'mime_type="image/png"', 'models="gpt-4o"',
    'title="t"', '[reasoning=1]', 'note="unterminated', 'history=include history=exclude', 'output_file="out.png"', 'x', '=',
  ),
  fc.tuple(fc.constantFrom('summary', 'name', 'time', 'k'), fc.string({ maxLength: 12 })).map(([k, v]) => `${k}="${v.replace(/["\n\r]/g, '')}"`),
);
const marker = fc
  .record({
    hashes: fc.constantFrom('#', '#', '##', '###', '######', '#######', ''),
    space: fc.constantFrom(' ', ' ', '', '  '),
    percents: fc.constantFrom('%%', '%%%', '%%', '%%%', '%%%%', '%'),
    title: fc.constantFrom('', ' Title', ' Read the file', ' a [link](x)', ' `code`', 'glued'),
    id: fc.option(cellId, { freq: 5 }),
    indent: fc.constantFrom('', '', '', ' ', '    '),
  })
  .map((m) => `${m.indent}${m.hashes}${m.space}${m.percents}${m.title}${m.id === null ? '' : `[^${m.id}]`}\n`);
const metadataLine = fc
  .record({ id: cellId, type: cellKind, attrs: fc.array(attribute, { maxLength: 4 }), bracket: fc.constantFrom(true, true, true, false) })
  .map((m) => `[^${m.id}]: ${m.bracket ? `[${m.type}]` : m.type}${m.attrs.length ? ' ' + m.attrs.join(' ') : ''}\n`);

const toolXml = fc
  .record({
    name: fc.constantFrom('read_file', 'write_to_file', 'search', ''),
    arg: fc.constantFrom('app.py', 'a < b', 'a && b', '<![CDATA[x < y]]>', '<![CDATA[unterminated', 'CDATA-START[x]CDATA-END', 'line 1\nline 2', '&amp;', '&nbsp;', ''),
    close: fc.constantFrom(true, true, true, false),
    server: fc.boolean(),
  })
  .map(
    (t) =>
      `<tool>\n${t.server ? '<server_name>local</server_name>\n' : ''}<tool_name>${t.name}</tool_name>\n<arguments>\n  <path>${t.arg}</path>\n</arguments>\n${t.close ? '</tool>\n' : ''}`,
  );
const body = fc.oneof(
  fc.constantFrom(
    'Please fix `add` in app.py.\n',
    '[I should read the file first.]\n\nI will read it.\n',
    '```python\ndef add(a, b):\n    return a - b\n```\n',
    '```\nno language\n```\n',
    '```python\nunclosed\n',
    'stdout> 1\nstderr> warning\n',
    'plain output line\n',
    'iVBORw0KGgo=\n',
    '{"name": "read_file", "arguments": {"path": "a"}}\n',
    '<tool>\n{"name": "read_file", "arguments": {"path": "a"}}\n</tool>\n',
    '<!-- msglint-disable-next-line empty-cell -->\n',
    '<!-- an unclosed comment\n',
    '# Heading\n',
    '## Discussion\n',
    '---\n',
    '',
  ),
  toolXml,
  fc.array(fc.constantFrom(...corpusLines), { maxLength: 6 }).map((l) => l.join('')),
);
const cell = fc
  .record({ marker, blank: fc.constantFrom('\n', '\n', ''), meta: fc.option(metadataLine, { freq: 4 }), body: fc.array(body, { maxLength: 3 }) })
  .map((c) => `${c.marker}${c.blank}${c.meta ?? ''}${c.meta ? '\n' : ''}${c.body.join('\n')}\n`);
const agentSettings = fc.array(
  fc.constantFrom(
    '    models: [gpt-4o, claude-sonnet-4]\n', '    models: gpt-4o-mini\n', '    context_window: 128000\n', '    context_window: 10\n', '    context_window: -1\n',
    '    max_output_tokens: 4096\n', '    max_output_tokens: 999999999\n', '    temperature: 0.2\n', '    temperature: 7\n', '    use_temperature: false\n',
    '    system_prompt: You are careful.\n', '    system_prompt: |\n      Two\n      lines\n', '    bogus_key: 1\n', '    models: !!js/function "function () {}"\n',
  ),
  { maxLength: 4 },
);
const frontmatter = fc
  .record({
    agents: fc.array(fc.tuple(fc.constantFrom('coder', 'reviewer', 'gpt', 'tool', 'bad name', 'markdown'), agentSettings), { maxLength: 3 }),
    defaultAgent: fc.option(fc.constantFrom('coder', 'nobody'), { freq: 2 }),
    extra: fc.constantFrom('', 'title: x\n', 'message_section: true\n', 'key: [unclosed\n', 'a: &a [1]\nb: *a\n', 'dup: 1\ndup: 2\n', ': bad\n'),
    close: fc.constantFrom('---\n', '---\n', '...\n', ''),
  })
  .map(
    (f) =>
      `---\n${f.extra}${f.agents.length ? 'agents:\n' + f.agents.map(([n, s]) => `  ${n}:\n${s.join('')}`).join('') : ''}${f.defaultAgent ? `default_agent: ${f.defaultAgent}\n` : ''}${f.close}`,
  );

/** One turn of a mostly valid conversation; `n` is the turn's id. */
const turn = (n: number): fc.Arbitrary<string> =>
  fc.oneof(
    fc
      .record({ history: fc.constantFrom('', '', ' history=exclude', ' history=summary', ' history=summary summary="s"') , text: body })
      .map((t) => `# %% Ask ${n}[^${n}]\n\n[^${n}]: [markdown] time="2025-05-30T09:00:00+08:00"${t.history}\n\n${t.text || 'Hi.\n'}\n`),
    fc
      .record({
        agent: fc.constantFrom('coder', 'coder', 'reviewer', 'gpt', 'nobody'),
        nonce: fc.constantFrom('k7f3q', 'm2x9w', 'abcd', '12'),
        tool: toolXml,
        results: fc.array(fc.constantFrom('1', '2', '3'), { maxLength: 2 }),
        history: fc.constantFrom('', '', ' history=exclude', ' history=summary'),
      })
      .map(
        (t) =>
          `# %%% Reply[^${n}]\n\n[^${n}]: [${t.agent}] reasoning=1\n\n[Think.]\n\nOk.\n\n` +
          `## %%% Call[^${n}.${t.nonce}]\n\n[^${n}.${t.nonce}]: [tool] name="read_file"${t.history}\n\n${t.tool}\n` +
          t.results.map((r) => `## %%% Result[^${n}.${t.nonce}.${r}]\n\n[^${n}.${t.nonce}.${r}]: [tool] status="success" duration=0.1s\n\nok\n\n`).join(''),
      ),
    fc
      .record({
        lang: fc.constantFrom('python', 'python', 'bash', ''),
        out: fc.constantFrom('python', 'bash', 'r'),
        outputs: fc.array(fc.constantFrom('1', '2', '4'), { maxLength: 2 }),
        stream: fc.constantFrom('stdout> 3\n', 'stderr> oops\n', 'plain\n', ''),
      })
      .map(
        (t) =>
          `# %% Run[^${n}]\n\n[^${n}]: [code]\n\n\`\`\`${t.lang}\nprint(1 + 2)\n\`\`\`\n\n` +
          t.outputs.map((o) => `# %%% [^${n}.${o}]\n\n[^${n}.${o}]: [${t.out}] status="success" mime_type="text/plain"\n\n${t.stream}\n`).join(''),
      ),
    fc.constant(`[^tmp${n}]: [agent] models="gpt-4o"\n\n# %%% Temp[^${n}]\n\n[^${n}]: [tmp${n}]\n\nHello.\n\n`),
  );

/** A mostly valid conversation, optionally as the message section of an ordinary Markdown file. */
const conversation: fc.Arbitrary<string> = fc
  .record({
    frontmatter: fc.constantFrom(
      '---\nagents:\n  coder:\n    models: [gpt-4o]\n    context_window: 128000\n  reviewer:\n    models: gpt-4o-mini\n    context_window: 40\n    temperature: 0.5\n    use_temperature: false\ndefault_agent: coder\n---\n\n',
      '---\nagents:\n  coder:\n    models: [gpt-4o]\n---\n\n',
      '',
    ),
    section: fc.constantFrom('', '', '# Notes\n\nText.\n\n## Discussion\n\n', '# Discussion\n\n', '## Other\n\n'),
    after: fc.constantFrom('', '', '# After\n\nText.\n', '### Sub\n'),
    turns: fc.integer({ min: 1, max: 6 }).chain((k) => fc.tuple(...Array.from({ length: k }, (_, i) => turn(i + 1)))),
  })
  .map((c) => {
    const fm = c.section ? (c.frontmatter ? c.frontmatter.replace('---\n\n', 'message_section: true\n---\n\n') : '---\nmessage_section: Discussion\n---\n\n') : c.frontmatter;
    return `${fm}${c.section}${c.turns.join('')}${c.section ? c.after : ''}`;
  });

/** A message file assembled from the format's pieces, valid or not. */
export const messageFile: fc.Arbitrary<string> = fc.oneof(conversation, fc
  .record({
    bom: fc.constantFrom('', '', '', '\ufeff'),
    frontmatter: fc.option(frontmatter, { freq: 2 }),
    prologue: fc.constantFrom('', '', 'Some text before the first cell.\n\n', '<!-- msglint-disable-file -->\n'),
    cells: fc.array(cell, { maxLength: 8 }),
    crlf: fc.constantFrom(false, false, false, true),
  })
  .map((f) => {
    const text = `${f.bom}${f.frontmatter ?? ''}${f.frontmatter ? '\n' : ''}${f.prologue}${f.cells.join('\n')}`;
    return f.crlf ? text.replace(/\n/g, '\r\n') : text;
  }));

/** Any UTF-16 string: every code unit, lone surrogates included. */
export const anyUtf16 = (maxLength: number): fc.Arbitrary<string> =>
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength });

/** Text that is mostly the format's own fragments and lines, with some random characters. */
export const syntaxSoup = (maxLength: number): fc.Arbitrary<string> =>
  fc
    .array(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...fragments) }, { weight: 2, arbitrary: fc.constantFrom(...corpusLines) }, { weight: 1, arbitrary: anyUtf16(4) }), {
      maxLength,
    })
    .map((a) => a.join(''));

export interface Mutation {
  /** Where, as a fraction of the length (so a mutation fits any text). */
  at: number;
  del: number;
  ins: string;
}

export const mutation: fc.Arbitrary<Mutation> = fc.record({
  at: fc.double({ min: 0, max: 1, noNaN: true }),
  del: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 8 }), fc.integer({ min: 0, max: 200 })),
  ins: fc.oneof(
    fc.constant(''),
    fc.constantFrom(...fragments),
    fc.constantFrom(...corpusLines),
    anyUtf16(6),
    fc.array(fc.constantFrom(...fragments), { maxLength: 4 }).map((a) => a.join('')),
  ),
});

export function applyMutation(text: string, m: Mutation): string {
  const at = Math.floor(m.at * text.length);
  return text.slice(0, at) + m.ins + text.slice(Math.min(text.length, at + m.del));
}

/** A real or generated message file with random mutations applied. */
export const mutatedFile: fc.Arbitrary<string> = fc
  .tuple(fc.oneof(fc.constantFrom(...corpus), messageFile), fc.array(mutation, { maxLength: 6 }))
  .map(([text, ms]) => ms.reduce(applyMutation, text));

// ---------------------------------------------------------------------------
// Invariants

/** The segments rebuild the text byte for byte, and each parsed segment's blocks partition its text. */
export function expectLossless(doc: MessageDocument, text: string): void {
  let at = 0;
  let rebuilt = '';
  for (const seg of doc.segments) {
    const offset = doc.offsetOf(seg);
    if (offset !== at) throw new Error(`segment at ${offset}, expected ${at}`);
    if (seg.parse) {
      let inner = 0;
      for (const b of seg.parse.blocks) {
        if (b.start !== inner || b.end < b.start) throw new Error(`block [${b.start}, ${b.end}) in the segment at ${offset}, expected a start of ${inner}`);
        inner = b.end;
      }
      if (inner !== seg.text.length) throw new Error(`blocks of the segment at ${offset} end at ${inner}, not ${seg.text.length}`);
    }
    rebuilt += seg.text;
    at = doc.endOf(seg);
  }
  if (rebuilt !== text) throw new Error('the segments do not rebuild the text');
  for (const c of doc.cells) if (!doc.segments.includes(c)) throw new Error(`cell at ${doc.offsetOf(c)} is not a segment`);
}

/** Line and character of an offset as the engine counts them (LF ends a line; CR alone does not). */
export function positionOf(text: string, offset: number): { line: number; character: number } {
  return lineCounter(text)(offset);
}

/** positionOf for many offsets of one text: line starts found once, then a binary search. */
function lineCounter(text: string): (offset: number) => { line: number; character: number } {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: offset - starts[lo]! };
  };
}

function expectRange(text: string, at: (offset: number) => { line: number; character: number }, r: Diagnostic['range'], what: string): void {
  const { start, end } = r;
  if (!(Number.isInteger(start.offset) && Number.isInteger(end.offset) && 0 <= start.offset && start.offset <= end.offset && end.offset <= text.length)) {
    throw new Error(`${what}: range [${start.offset}, ${end.offset}) outside the document (length ${text.length})`);
  }
  for (const p of [start, end]) {
    const expected = at(p.offset);
    if (p.line !== expected.line || p.character !== expected.character) {
      throw new Error(`${what}: offset ${p.offset} is at ${p.line}:${p.character}, expected ${expected.line}:${expected.character}`);
    }
  }
}

/** Every range (diagnostic, related, fix, suggestion) lies in the document, and no rule failed. */
export function expectSaneDiagnostics(text: string, diagnostics: Diagnostic[]): void {
  const at = lineCounter(text);
  for (const d of diagnostics) {
    const what = `${d.ruleId} "${d.message}"`;
    if (d.message.startsWith('Internal error in rule')) throw new Error(d.message);
    if (d.severity !== 1 && d.severity !== 2) throw new Error(`${what}: severity ${d.severity}`);
    if (typeof d.message !== 'string' || d.message.length === 0) throw new Error(`${what}: no message`);
    expectRange(text, at, d.range, what);
    for (const r of d.related ?? []) expectRange(text, at, r.range, `${what} (related)`);
    for (const edit of [d.fix, ...(d.suggestions ?? []).map((s) => s.fix)]) {
      if (!edit) continue;
      const [a, b] = edit.range;
      if (!(Number.isInteger(a) && Number.isInteger(b) && 0 <= a && a <= b && b <= text.length)) {
        throw new Error(`${what}: edit [${a}, ${b}) outside the document (length ${text.length})`);
      }
    }
  }
}

/** A short, printable description of a failing input (fast-check prints the input too). */
export function show(text: string): string {
  return JSON.stringify(text.length > 400 ? text.slice(0, 400) + '…' : text);
}

/**
 * A clean conversation of about `chars` characters: the coding-session
 * example's cells repeated with fresh ids and nonces (no duplicate ids, no
 * reused nonces), under the example's frontmatter.
 */
export function bigConversation(chars: number): string {
  const example = readFileSync(path.join(ROOT, 'examples/coding-session.msg.md'), 'utf8');
  const frontmatter = /^---\n[\s\S]*?\n---\n/.exec(example)![0];
  const body = example.slice(frontmatter.length);
  const parts = [frontmatter];
  let length = frontmatter.length;
  for (let k = 0; length < chars; k++) {
    const copy = body.replace(/\[\^(\d+)((?:\.[A-Za-z_][A-Za-z0-9_-]*)?)/g, (_, n: string, nonce: string) => `[^${Number(n) + k * 100}${nonce ? `${nonce}x${k}` : ''}`);
    parts.push(copy);
    length += copy.length;
  }
  return parts.join('');
}

/** A message file whose tool call cell (`2.k7f3q`, tool `read_file`) holds `body`, answered by a result. */
export function toolCallFile(body: string): string {
  return (
    '---\nagents:\n  coder:\n    models: [gpt-4o]\n---\n\n' +
    '# %% Ask[^1]\n\n[^1]: [markdown]\n\nRead it.\n\n' +
    '# %%% Plan[^2]\n\n[^2]: [coder]\n\nReading.\n\n' +
    `## %%% Tool call[^2.k7f3q]\n\n[^2.k7f3q]: [tool] name="read_file"\n\n${body}\n\n` +
    '## %%% Tool result[^2.k7f3q.1]\n\n[^2.k7f3q.1]: [tool] status="success"\n\nok\n'
  );
}
