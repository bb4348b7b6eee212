// client/package.json against the code and the rule registry, and the
// client's own type check (it has its own tsconfig: the root build never
// needs @types/vscode).

import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { allRules } from '../../server/index.js';
import { COMMANDS, SETTINGS } from '../../client/src/constants.js';
// @ts-expect-error: a plain ES module without type declarations.
import { rulesProperties } from '../../server/config/schema.js';
import { CLIENT, ROOT } from './textmate.js';

const manifest = JSON.parse(readFileSync(path.join(CLIENT, 'package.json'), 'utf8'));
const sources = readdirSync(path.join(CLIENT, 'src'))
  .filter((f) => f.endsWith('.ts'))
  .map((f) => readFileSync(path.join(CLIENT, 'src', f), 'utf8'))
  .join('\n');

describe('client/package.json', () => {
  it('lists every rule of the registry under msglint.rules (npm run sync writes it)', () => {
    const rules = manifest.contributes.configuration.properties['msglint.rules'];
    expect(rules.additionalProperties).toBe(false);
    expect(rules.properties).toEqual(rulesProperties(allRules));
  });

  it('applies the config schema to .msglintrc.json and .jsonc, reading both as JSON with comments and trailing commas', () => {
    expect(manifest.contributes.jsonValidation[0].fileMatch).toEqual(['.msglintrc.json', '.msglintrc.jsonc']);
    // VS Code reads a .jsonc file as JSON with comments already; a .json file, when the name is given.
    expect(manifest.contributes.languages).toContainEqual({ id: 'jsonc', filenames: ['.msglintrc.json'] });
    const schema = JSON.parse(readFileSync(path.join(ROOT, 'msglint.schema.json'), 'utf8')) as Record<string, unknown>;
    expect(schema).toMatchObject({ allowComments: true, allowTrailingCommas: true });
  });

  it('registers in code each command it contributes, and nothing else', () => {
    const registered = [...sources.matchAll(/registerCommand\(COMMANDS\.(\w+)/g)].map((m) => COMMANDS[m[1] as keyof typeof COMMANDS]);
    expect(registered.sort()).toEqual(manifest.contributes.commands.map((c: { command: string }) => c.command).sort());
    expect(sources).not.toMatch(/registerCommand\(['"]/);
  });

  it('declares each setting the client reads', () => {
    const read = [...sources.matchAll(/getConfiguration\('msglint'[^)]*\)\.get(?:<[^>]+>)?\('([\w.]+)'/g)].map((m) => m[1]!);
    expect(read.length).toBeGreaterThan(0);
    for (const key of read) expect(SETTINGS as readonly string[]).toContain(key);
  });

  it('packs only what the extension needs', () => {
    expect(manifest.files).toEqual(['dist/extension.js', 'dist/server.js', 'dist/web/extension.js', 'dist/web/server.js', 'dist/msglint.schema.json', 'dist/package-json.schema.json', 'syntaxes', 'snippets', 'README.md', 'CHANGELOG.md', 'LICENSE']);
    for (const f of manifest.files.filter((f: string) => !f.startsWith('dist/'))) expect(existsSync(path.join(CLIENT, f)), f).toBe(true);
    // Bundled: nothing for vsce to install or list.
    expect(manifest.dependencies).toBeUndefined();
  });

  it('keeps the version of msglint itself (the bundled server reports it)', () => {
    const root = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    expect(manifest.version).toBe(root.version);
    expect(manifest.name).toBe('msglint');
  });
});

describe('client sources', () => {
  it('type-check with client/tsconfig.json', async () => {
    const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [tsc, '-p', path.join(CLIENT, 'tsconfig.json')], { cwd: ROOT }).catch((e) => e);
    expect(`${stdout}${stderr}`).toBe('');
  });

  it('stay out of the root build', () => {
    const tsconfig = readFileSync(path.join(ROOT, 'tsconfig.json'), 'utf8');
    expect(tsconfig).not.toMatch(/client/);
  });
});
