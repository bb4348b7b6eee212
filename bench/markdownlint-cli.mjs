#!/usr/bin/env node
// A minimal markdownlint command line for the benchmark: lints the files
// named on the command line (directories are searched for *.md) with the
// markdownlint library's sync API and its default config (every rule on),
// the way a user would run the generic Markdown linter, and prints the
// findings one per line, like markdownlint-cli.
//
// usage: node bench/markdownlint-cli.mjs [--summary] PATH...
//   --summary  print only "N findings in M files" (the benchmark's check run)
// Exit code: 0 no findings, 1 findings, 2 usage or I/O error.

import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { lint } from 'markdownlint/sync';

const args = process.argv.slice(2);
const summary = args.includes('--summary');
const paths = args.filter((a) => a !== '--summary');
if (paths.length === 0) {
  process.stderr.write('usage: node bench/markdownlint-cli.mjs [--summary] PATH...\n');
  process.exit(2);
}

function collect(p, out) {
  const st = statSync(p);
  if (st.isDirectory()) {
    for (const e of readdirSync(p, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
      const child = path.join(p, e.name);
      if (e.isDirectory()) collect(child, out);
      else if (e.isFile() && e.name.endsWith('.md')) out.push(child);
    }
  } else out.push(p);
}

let files = [];
try {
  for (const p of paths) collect(p, files);
} catch (error) {
  process.stderr.write(`markdownlint-cli: ${error.message}\n`);
  process.exit(2);
}

// config: undefined is markdownlint's default: every rule on with its defaults.
const results = lint({ files, handleRuleFailures: true });
let count = 0;
const lines = [];
for (const file of files) {
  for (const r of results[file] ?? []) {
    count++;
    if (summary) continue;
    const col = r.errorRange ? `:${r.errorRange[0]}` : '';
    const detail = r.errorDetail ? ` [${r.errorDetail}]` : '';
    const context = r.errorContext ? ` [Context: "${r.errorContext}"]` : '';
    lines.push(`${file}:${r.lineNumber}${col} ${r.ruleNames.join('/')} ${r.ruleDescription}${detail}${context}`);
  }
}
if (summary) process.stdout.write(`${count} findings in ${files.length} files\n`);
else if (lines.length) process.stdout.write(lines.join('\n') + '\n');
process.exitCode = count > 0 ? 1 : 0;
