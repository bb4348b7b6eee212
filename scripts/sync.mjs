#!/usr/bin/env node
// Writes what is generated from the rules' `meta`: the rule table in
// README.md, the `msglint.rules` setting's list in client/package.json
// (each rule id with its severities and description, so that settings.json
// completes and checks rule ids), and msglint.schema.json, the JSON schema of
// config files (server/config/schema.ts). Needs the build (`npm run build`);
// test/docs/readme.test.ts, test/client/manifest.test.ts and
// test/config/schema.test.ts fail when one is stale.
//
//   npm run sync
//   npm run sync -- --catalog PATH/rules.md
//
// `--catalog` also copies the rule catalog's tables (the specification's
// `rules.md`, which tests may not read) into test/fixtures/catalog/rules.json,
// which test/cli/real-rules.test.ts holds the rules to.

import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const README = path.join(ROOT, 'README.md');
export const CLIENT_MANIFEST = path.join(ROOT, 'client/package.json');
export const CATALOG = path.join(ROOT, 'test/fixtures/catalog/rules.json');
export const CONFIG_SCHEMA = path.join(ROOT, 'msglint.schema.json');

/** The README table's groups, in order, with their titles. */
export const RULE_GROUPS = {
  file: 'The file',
  structure: 'Structure',
  'tool-calls': 'Tool calls',
  'code-execution': 'Code execution',
  agents: 'Agents and frontmatter',
  sections: 'Sections in ordinary Markdown files',
  'llm-view': 'The LLM view',
  secrets: 'Secrets',
  directives: 'Disable comments',
};

const TABLE_START = '<!-- rules:start -->\n';
const TABLE_END = '<!-- rules:end -->';

/** The README's rule table: one table, each group opened by a row with its title in bold. */
export function readmeRuleTable(rules) {
  let out = '\n| rule | severity | fix | reports |\n|---|---|---|---|\n';
  for (const [group, title] of Object.entries(RULE_GROUPS)) {
    const inGroup = rules.filter((r) => r.meta.group === group);
    if (inGroup.length === 0) continue;
    out += `| **${title}** | | | |\n`;
    for (const r of inGroup) {
      const fix = r.meta.fixable === 'fix' ? 'fix' : r.meta.fixable === 'suggestion' ? 'suggestion' : '-';
      out += `| [\`${r.meta.id}\`](docs/rules/${r.meta.id}.md) | ${r.meta.severity} | ${fix} | ${r.meta.description.replace(/\|/g, '\\|')} |\n`;
    }
  }
  return out + '\n';
}

/** The rule table as it stands in `readme`, or undefined without its markers. */
export function currentRuleTable(readme) {
  const start = readme.indexOf(TABLE_START);
  const end = readme.indexOf(TABLE_END);
  return start === -1 || end < start ? undefined : readme.slice(start + TABLE_START.length, end);
}

const FIX = { F: 'fix', S: 'suggestion', '-': null };

/** The rows of the catalog's tables (`| \`id\` | sev | F/S/- | reports |`): id, severity and fix. */
export function catalogFromSpec(markdown) {
  const rows = [];
  for (const line of markdown.split('\n')) {
    const m = /^\| `([a-z0-9-]+)` \| (error|warning) \| ([FS-]) \|/.exec(line);
    if (m) rows.push({ id: m[1], severity: m[2], fix: FIX[m[3]] });
  }
  return rows;
}

async function main(argv) {
  const catalog = argv[0] === '--catalog' ? argv[1] : undefined;
  if (argv.length !== 0 && !(argv.length === 2 && catalog)) {
    process.stderr.write('usage: node scripts/sync.mjs [--catalog PATH/rules.md]\n');
    return 2;
  }
  const { allRules } = await import(pathToFileURL(path.join(ROOT, 'dist/server/index.js')).href).catch(() => {
    throw new Error('dist/server/index.js is missing: run npm run build first');
  });

  const readme = await readFile(README, 'utf8');
  if (currentRuleTable(readme) === undefined) throw new Error(`README.md has no ${TABLE_START.trim()} … ${TABLE_END} markers`);
  const start = readme.indexOf(TABLE_START) + TABLE_START.length;
  await writeIfChanged(README, readme, readme.slice(0, start) + readmeRuleTable(allRules) + readme.slice(readme.indexOf(TABLE_END)));

  const { configSchema, rulesProperties } = await import(pathToFileURL(path.join(ROOT, 'dist/server/config/schema.js')).href);
  const manifestText = await readFile(CLIENT_MANIFEST, 'utf8');
  const manifest = JSON.parse(manifestText);
  manifest.contributes.configuration.properties['msglint.rules'].properties = rulesProperties(allRules);
  await writeIfChanged(CLIENT_MANIFEST, manifestText, JSON.stringify(manifest, null, 2) + '\n');
  const schemaText = await readFile(CONFIG_SCHEMA, 'utf8').catch(() => '');
  await writeIfChanged(CONFIG_SCHEMA, schemaText, JSON.stringify(configSchema(allRules), null, 2) + '\n');

  if (catalog) {
    const rows = catalogFromSpec(await readFile(path.resolve(catalog), 'utf8'));
    if (rows.length === 0) throw new Error(`${catalog} has no rule table rows`);
    const old = await readFile(CATALOG, 'utf8').catch(() => '');
    await writeIfChanged(CATALOG, old, JSON.stringify(rows, null, 1) + '\n');
  }
  return 0;
}

async function writeIfChanged(file, before, after) {
  const name = path.relative(ROOT, file);
  if (before === after) {
    console.log(`${name}: up to date`);
    return;
  }
  await writeFile(file, after);
  console.log(`${name}: written`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (e) => {
      process.stderr.write(`sync: ${e.message}\n`);
      process.exitCode = 2;
    },
  );
}
