#!/usr/bin/env node
// Writes the rule list of the `msglint.rules` setting in client/package.json
// from the rule registry (each rule id with its severities and description),
// so that settings.json completes and checks rule ids. Needs the root build
// (`npm run build`). test/client/manifest.test.ts fails when the list is stale.
//
//   node client/scripts/sync-rules.mjs

import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const CLIENT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROOT = path.dirname(CLIENT);

/** The JSON schema of one rule's setting. */
export function ruleSchema(meta) {
  const severity = { enum: ['off', 'warn', 'error', 0, 1, 2] };
  return {
    anyOf: [severity, { type: 'array', items: [severity], minItems: 1, maxItems: 2 }],
    markdownDescription: `${meta.description} (Default: \`${meta.severity === 'warning' ? 'warn' : meta.severity}\`${meta.fixable === 'fix' ? ', fixable' : ''}.)`,
  };
}

export function rulesProperties(rules) {
  return Object.fromEntries(rules.map((r) => [r.meta.id, ruleSchema(r.meta)]));
}

async function main() {
  const { allRules } = await import(pathToFileURL(path.join(ROOT, 'dist/server/index.js')).href);
  const file = path.join(CLIENT, 'package.json');
  const manifest = JSON.parse(await readFile(file, 'utf8'));
  manifest.contributes.configuration.properties['msglint.rules'].properties = rulesProperties(allRules);
  await writeFile(file, JSON.stringify(manifest, null, 2) + '\n');
  console.log(`msglint.rules lists ${allRules.length} rules`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
