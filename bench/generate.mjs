#!/usr/bin/env node
// Deterministic corpora for `npm run bench`.
//
// Origin: extended from the steering repo's shared/bench/genmsg.mjs (same
// frontmatter, cell layout and CJK tool-call titles; same ~1.36 kB per turn).
// Changes: a 32-bit PRNG (mulberry32) instead of a float LCG, nonces that are
// never reused, more varied content (lists, links, inline code, reasoning,
// several tools with CDATA code, fenced code and `# %%` comments inside code
// cells, stdout/stderr outputs, history summaries), a cell-count mode for the
// linear-growth pair, and a tree of small files. Nothing here reads shared/.
//
// usage: node bench/generate.mjs [OUT_DIR]   (default bench/out)
//        node bench/generate.mjs --turns N [--seed S] > file.msg.md
//        node bench/generate.mjs --cells N [--seed S] > file.msg.md
//
// Every generated file must lint clean with msglint; bench/run.mjs checks it.

import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Bump when the output changes, so results.json says which corpora were measured. */
export const GENERATOR_VERSION = 2;

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  'the message file records each turn of a conversation with tools code and agents so that a person can read it and ' +
  'a program can parse it we should check whether this function returns the right value when the input list is empty ' +
  'or when the page size is larger than the total number of items then run the tests again and compare the output ' +
  'with what the user expected before the change was made to the parser module configuration loader cache layer'
).split(' ');
const FILES = ['paging.py', 'parser.py', 'cache.py', 'cli.py', 'models.py', 'utils.py', 'server.py', 'config.py', 'views.py', 'tests/test_paging.py'];
const FUNCS = ['page_count', 'parse_header', 'load_config', 'merge_rows', 'normalize', 'render_table', 'split_chunks', 'retry'];
/** [call title, result title] per tool; the Chinese pair (from genmsg.mjs) keeps multi-byte text in titles. */
const TITLES = {
  write_to_file: [['工具调用', '工具调用结果'], ['Write the file', 'Written']],
  read_file: [['Read the file', 'File contents'], ['工具调用', '工具调用结果']],
  execute_command: [['Run the tests', 'Test output'], ['Tool call', 'Tool result']],
};

/**
 * Builds one message file. Stops after `turns` turns, or, with `cells`, at
 * exactly `cells` cells (whole turns, then one-cell notes to make up the rest).
 */
export function generateMessageFile({ turns = Infinity, cells = Infinity, seed = 1 } = {}) {
  const rnd = mulberry32(seed);
  const pick = (arr) => arr[Math.floor(rnd() * arr.length)];
  const int = (lo, hi) => lo + Math.floor(rnd() * (hi - lo + 1));
  const words = (n) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
  const sentence = (n) => {
    const w = words(n);
    return w[0].toUpperCase() + w.slice(1) + '.';
  };
  const para = (n) => {
    const out = [];
    let left = n;
    while (left > 0) {
      const k = Math.min(left, int(8, 16));
      out.push(sentence(k));
      left -= k;
    }
    return out.join(' ');
  };
  const used = new Set();
  const nonce = () => {
    for (;;) {
      const n = 'abcdefghijklmnopqrstuvwxyz'[Math.floor(rnd() * 26)] + Math.floor(rnd() * 36 ** 5).toString(36).padStart(5, '0');
      if (!used.has(n)) {
        used.add(n);
        return n;
      }
    }
  };
  const time = (s) => new Date(Date.UTC(2025, 4, 30, 0, 0, s)).toISOString().replace('.000Z', '+00:00');

  const out = [];
  out.push(
    '---',
    `title: Benchmark session ${seed}`,
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
    '---',
    '',
  );

  let id = 0;
  let nCells = 0;
  const userText = (i) => {
    const lines = [para(int(22, 40)), ''];
    const r = rnd();
    if (r < 0.25) {
      lines.push(`- \`${pick(FUNCS)}\` in \`${pick(FILES)}\` ${words(int(4, 8))}`, `- ${words(int(5, 9))}`, `- ${words(int(5, 9))}`, '');
    } else if (r < 0.4) {
      lines.push(`See [the notes](https://example.com/issues/${i}) and \`${pick(FILES)}\` for ${words(int(4, 8))}.`, '');
    } else {
      lines.push(para(int(12, 25)), '');
    }
    return lines;
  };
  const toolCall = (i, parent) => {
    const nc = nonce();
    const cid = `${parent}.${nc}`;
    const kind = rnd();
    let name;
    let args;
    let result;
    const file = pick(FILES);
    const fn = pick(FUNCS);
    if (kind < 0.5) {
      name = 'write_to_file';
      args = [
        `  <path>src/${i}/${file}</path>`,
        `  <content><![CDATA[def ${fn}(a, b):`,
        '    if a < b and b > 0:',
        '        return a & b',
        `    return a + b  # turn ${i}`,
        ']]></content>',
      ];
      result = [`Wrote src/${i}/${file}`];
    } else if (kind < 0.75) {
      name = 'read_file';
      args = [`  <path>src/${i}/${file}</path>`];
      result = ['```python', `def ${fn}(total, size):`, '    return total // size', '```'];
    } else {
      name = 'execute_command';
      args = [`  <command><![CDATA[pytest -q tests/ -k "${fn} and not slow" && echo ok]]></command>`];
      result = [`${int(3, 40)} passed in 0.${int(10, 99)}s`, 'ok'];
    }
    const [callTitle, resultTitle] = pick(TITLES[name]);
    out.push(`## %%% ${callTitle}[^${cid}]`, '', `[^${cid}]: [tool] name="${name}"`, '',
      '<tool>', '<server_name>local</server_name>', `<tool_name>${name}</tool_name>`, '<arguments>', ...args, '</arguments>', '</tool>', '');
    out.push(`## %%% ${resultTitle}[^${cid}.1]`, '', `[^${cid}.1]: [tool] status="success" duration=0.${int(1, 9)}s`, '', ...result, '');
    nCells += 2;
  };

  for (let i = 0; i < turns; i++) {
    const codeTurn = i % 3 === 0;
    const toolCalls = i % 5 === 4 ? 2 : 1;
    const need = 2 + 2 * toolCalls + (codeTurn ? 2 : 0);
    if (nCells + need > cells) break;

    const u = ++id;
    const summary = i % 7 === 3;
    out.push(`# %% Question ${i}[^${u}]`, '',
      `[^${u}]: [markdown] time="${time(i * 10)}" ${summary ? `history=summary summary="asked about ${pick(FUNCS)}"` : 'history=include'}`, '',
      ...userText(i));
    nCells++;

    const a = ++id;
    out.push(`# %%% Answer ${i}[^${a}]`, '', `[^${a}]: [coder] time="${time(i * 10 + 3)}" reasoning=1`, '');
    if (rnd() < 0.5) out.push(`[${sentence(int(10, 18))}]`, '');
    out.push(para(int(30, 50)), '');
    if (rnd() < 0.2) out.push('```diff', `-    return total // size`, `+    return (total + size - 1) // size`, '```', '');
    nCells++;
    for (let k = 0; k < toolCalls; k++) toolCall(i, a);

    if (codeTurn) {
      const c = ++id;
      out.push(`# %% Run[^${c}]`, '', `[^${c}]: [code] history=include`, '', 'Check the result:', '',
        '```python', '# %% not a marker inside a fence', `from ${pick(FILES).replace(/\.py$/, '').replace('/', '.')} import ${pick(FUNCS)}`,
        `print(${i} + 1)`, '```', '');
      out.push(`# %%% [^${c}.1]`, '', `[^${c}.1]: [python] time="${time(i * 10 + 6)}" status="success" duration=0.1s mime_type="text/plain"`, '',
        `stdout> ${i + 1}`, 'stderr> warning: none', '');
      nCells += 2;
    }
  }
  // Make up an exact cell count with one-cell notes.
  while (cells !== Infinity && nCells < cells) {
    const n = ++id;
    out.push(`# %% Note ${n}[^${n}]`, '', `[^${n}]: [markdown] history=exclude`, '', para(int(10, 20)), '');
    nCells++;
  }
  return out.join('\n');
}

/** A small message file for the tree: a plain .msg.md or a .md with a Discussion section. */
function treeFile(index) {
  const seed = 1000 + index;
  const rnd = mulberry32(seed * 7919);
  const turns = 1 + Math.floor(rnd() * 3);
  const body = generateMessageFile({ turns, seed });
  if (index % 10 !== 9) return { ext: '.msg.md', text: body };
  // Every tenth file is a document whose last section holds the conversation.
  const end = body.indexOf('\n---\n', 4);
  const front = body.slice(0, end).replace('---\n', '---\nmessage_section: Discussion\n');
  const cells = body.slice(end + 5).replace(/^# %/gm, '## %');
  return {
    ext: '.md',
    text: `${front}\n---\n\n# Design note ${index}\n\nThe notes below record the discussion of change ${index}.\n\n# Discussion\n${cells}`,
  };
}

export const CORPORA = {
  turns10: { file: 'turns-10.msg.md', turns: 10, seed: 1 },
  turns1000: { file: 'turns-1000.msg.md', turns: 1000, seed: 1 },
  turns5000: { file: 'turns-5000.msg.md', turns: 5000, seed: 1 },
  cells5000: { file: 'cells-5000.msg.md', cells: 5000, seed: 5 },
  cells50000: { file: 'cells-50000.msg.md', cells: 50000, seed: 5 },
};
export const TREE = { dir: 'tree', files: 2000, projects: 20, perDir: 25 };

/**
 * Writes every corpus under `outDir` and returns the manifest (paths, bytes,
 * sha256). bench/out/ is git-ignored; msglint honours .gitignore from the
 * repository root down, even for files named on the command line, so an
 * empty `.git` directory marks the corpus folder as a root of its own and
 * the repository's .gitignore does not hide the corpora from msglint.
 */
export function generateAll(outDir) {
  mkdirSync(outDir, { recursive: true });
  mkdirSync(path.join(outDir, '.git'), { recursive: true });
  const manifest = { generatorVersion: GENERATOR_VERSION, files: {} };
  const sha = (t) => createHash('sha256').update(t).digest('hex').slice(0, 16);
  for (const [key, spec] of Object.entries(CORPORA)) {
    const text = generateMessageFile(spec);
    const file = path.join(outDir, spec.file);
    writeFileSync(file, text);
    manifest.files[key] = { path: file, bytes: Buffer.byteLength(text), sha256: sha(text), ...spec };
  }
  const treeDir = path.join(outDir, TREE.dir);
  rmSync(treeDir, { recursive: true, force: true });
  const hash = createHash('sha256');
  let bytes = 0;
  const files = [];
  for (let i = 0; i < TREE.files; i++) {
    const project = `project-${String(i % TREE.projects).padStart(2, '0')}`;
    const group = `sessions-${Math.floor(i / (TREE.projects * TREE.perDir))}`;
    const dir = path.join(treeDir, project, group);
    mkdirSync(dir, { recursive: true });
    const { ext, text } = treeFile(i);
    const file = path.join(dir, `session-${String(i).padStart(4, '0')}${ext}`);
    writeFileSync(file, text);
    files.push(file);
    bytes += Buffer.byteLength(text);
    hash.update(text);
  }
  // A README per project: plain Markdown that msglint skips, as in a real repository.
  for (let p = 0; p < TREE.projects; p++) {
    writeFileSync(path.join(treeDir, `project-${String(p).padStart(2, '0')}`, 'README.md'), `# Project ${p}\n\nSession logs of project ${p}.\n`);
  }
  manifest.tree = { path: treeDir, files: files.length, bytes, sha256: hash.digest('hex').slice(0, 16), list: files };
  return manifest;
}

function main(argv) {
  const flag = (name) => {
    const i = argv.indexOf(name);
    return i === -1 ? undefined : Number(argv[i + 1]);
  };
  const turns = flag('--turns');
  const cells = flag('--cells');
  const seed = flag('--seed') ?? 1;
  if (turns !== undefined || cells !== undefined) {
    process.stdout.write(generateMessageFile({ turns: turns ?? Infinity, cells: cells ?? Infinity, seed }));
    return;
  }
  const outDir = path.resolve(argv.find((a) => !a.startsWith('--')) ?? path.join(path.dirname(fileURLToPath(import.meta.url)), 'out'));
  const m = generateAll(outDir);
  for (const [key, f] of Object.entries(m.files)) console.log(`${key.padEnd(11)} ${(f.bytes / 1e6).toFixed(2).padStart(6)} MB  ${f.path}`);
  console.log(`tree        ${(m.tree.bytes / 1e6).toFixed(2).padStart(6)} MB  ${m.tree.files} files in ${m.tree.path}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
