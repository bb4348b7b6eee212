#!/usr/bin/env node
// The conversations corpus (../shared/external/conversations, README there)
// through a build's import and export, one row per file: is
// export(import(x)) equal to x under the corpus's canon, call ids kept and
// renamed; if not, did import or export say anything (import's `dropped`
// lines, export's notes: what the CLI writes on stderr); for a fragment
// (class X), does lint report it or import say it is incomplete; and does
// importing twice give the same bytes. A measuring tool, not part of the
// package. "Said" counts lines, not whether they cover every difference:
// the tests (test/import/corpus.test.ts) check that feature by feature.
//
// Before comparing, the original gets what a target itself normalises and
// canon does not: the AI SDK's first system message is `system`; OpenAI
// user content as text parts is one string; an OpenAI assistant message
// with calls and empty text has content null.
//
// usage: node bench/corpus-table.mjs [--dist DIR] [--shared DIR]
//   --dist DIR    a build's dist/ (default: this checkout's)
//   --shared DIR  the folder holding external/conversations (default: ../shared)

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] !== undefined ? path.resolve(args[i + 1]) : fallback;
};
const dist = option('--dist', path.join(ROOT, 'dist'));
const corpus = path.join(option('--shared', process.env.MSGLINT_SHARED ?? path.resolve(ROOT, '../shared')), 'external/conversations');

const msglint = { ...(await import(pathToFileURL(path.join(dist, 'server/index.js')).href)), ...(await import(pathToFileURL(path.join(dist, 'server/export/index.js')).href)) };
const { canon } = await import(pathToFileURL(path.join(corpus, 'canon.mjs')).href);

const TARGET = { openai: 'openai', anthropic: 'anthropic', 'ai-sdk': 'vercel', 'ai-sdk-legacy': 'vercel-legacy', 'openai-legacy-functions': 'vercel-legacy' };

/** The original as the target itself would write it (see the top). */
function targetForm(target, data) {
  const d = structuredClone(data);
  if (target === 'vercel' && Array.isArray(d) && d[0]?.role === 'system' && typeof d[0].content === 'string') return { system: d[0].content, messages: d.slice(1) };
  if (target === 'openai' && Array.isArray(d)) {
    for (const m of d) {
      if (m.role === 'user' && Array.isArray(m.content) && m.content.every((p) => p.type === 'text')) m.content = m.content.map((p) => p.text).join('\n\n');
      if (m.role === 'assistant' && m.content === '' && m.tool_calls?.length) m.content = null;
    }
  }
  return d;
}

/** The first place where two values differ, as a short path. */
function firstDifference(a, b, at = '') {
  if (isDeepStrictEqual(a, b)) return undefined;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return at || '.';
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  for (const k of keys) {
    const d = firstDifference(a[k], b[k], Array.isArray(a) ? `${at}[${k}]` : `${at}.${k}`);
    if (d !== undefined) return d;
  }
  return at || '.';
}

const readme = readFileSync(path.join(corpus, 'README.md'), 'utf8');
const rows = [];
for (const m of readme.matchAll(/^\| `([^`]+)` \| ([a-z-]+) \| \d+ \| ([NLX]) \|/gm)) {
  const [, file, provider, cls] = m;
  const data = JSON.parse(readFileSync(path.join(corpus, file), 'utf8')).data;
  const input = JSON.stringify(data);
  const row = { file, provider, cls };
  let imported;
  try {
    imported = msglint.importConversation(input);
  } catch (error) {
    rows.push({ ...row, verdict: `import refused: ${error.message}` });
    continue;
  }
  row.said = `${imported.dropped.length}`;
  row.same = msglint.importConversation(input).text === imported.text ? 'yes' : 'no';
  const target = TARGET[provider];
  if (cls === 'X') {
    const problems = msglint.lint(imported.text, { fileName: 'import.msg.md' }).diagnostics.length;
    row.verdict = problems ? 'lint reports it' : imported.dropped.some((l) => /^incomplete:/.test(l)) ? 'import says it is incomplete' : '**neither reports it**';
  } else if (!target) {
    row.verdict = 'no target to compare';
  } else {
    const view = msglint.toLLMView(imported.text);
    const out = msglint.formatLLMView(view, target);
    const notes = msglint.exportNotes(view, target).length;
    row.said += ` + ${notes}`;
    const expected = targetForm(target, data);
    const diff = (keepIds) => firstDifference(canon(provider, out, { keepIds }), canon(provider, expected, { keepIds }));
    const kept = diff(true);
    const renamed = diff(false);
    row.keepIds = kept === undefined ? 'equal' : 'differs';
    row.renamed = renamed === undefined ? 'equal' : 'differs';
    const said = imported.dropped.length + notes > 0;
    row.verdict = kept === undefined ? 'equal' : renamed === undefined ? 'equal up to ids' : said ? `differs at ${kept}; said` : `differs at ${kept}; **nothing said**`;
  }
  rows.push(row);
}

console.log(`dist: ${dist}\n`);
console.log('| file | provider | class | keepIds | ids renamed | lines said (import + export) | same bytes twice | verdict |');
console.log('|---|---|---|---|---|---|---|---|');
for (const r of rows) console.log(`| ${r.file} | ${r.provider} | ${r.cls} | ${r.keepIds ?? '—'} | ${r.renamed ?? '—'} | ${r.said ?? '—'} | ${r.same ?? '—'} | ${r.verdict} |`);
const count = (f) => rows.filter(f).length;
const compared = (cls) => rows.filter((r) => r.cls === cls && r.keepIds);
for (const cls of ['N', 'L']) {
  const all = compared(cls);
  const equal = all.filter((r) => r.keepIds === 'equal').length;
  const said = all.filter((r) => r.keepIds !== 'equal' && /said$/.test(r.verdict)).length;
  console.log(`\nclass ${cls}: ${all.length} compared, ${equal} equal with ids kept, ${all.filter((r) => r.renamed === 'equal').length} equal with ids renamed, ${said} differ and import or export said something, ${all.length - equal - said} differ silently`);
}
console.log(`class X: ${count((r) => r.cls === 'X')}, ${count((r) => r.cls === 'X' && !/neither/.test(r.verdict))} reported by lint or import`);
console.log(`same bytes on a second import: ${count((r) => r.same === 'yes')} of ${rows.length}`);
