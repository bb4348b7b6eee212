// scripts/sync.mjs: what it reads from the catalog's tables, and its usage
// error. (That the README table and the client manifest are what it writes is
// held by test/docs/readme.test.ts and test/client/manifest.test.ts.)
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
// @ts-expect-error: a plain ES module without type declarations.
import { catalogFromSpec } from '../../scripts/sync.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');

it('reads id, severity and fix from the rows of the catalog tables, and nothing else', () => {
  const spec = [
    '## FileFacts (sections 3-5)',
    '',
    '| id | sev | fix | reports |',
    '|---|---|---|---|',
    '| `cell-marker` | error | F | a malformed percent marker |',
    '| `metadata-missing` | error | S | a cell whose `[^id]` has no metadata line |',
    '| `metadata-unused` | warning | - | a metadata line that no cell references |',
    'A line that mentions | `not-a-row` | error | F | in prose.',
  ].join('\n');
  expect(catalogFromSpec(spec)).toEqual([
    { id: 'cell-marker', severity: 'error', fix: 'fix' },
    { id: 'metadata-missing', severity: 'error', fix: 'suggestion' },
    { id: 'metadata-unused', severity: 'warning', fix: null },
  ]);
});

it('refuses an unknown argument with one line and exit code 2', async () => {
  const r = await promisify(execFile)(process.execPath, [path.join(ROOT, 'scripts/sync.mjs'), '--nope']).catch((e) => e);
  expect(r.code).toBe(2);
  expect(r.stderr).toBe('usage: node scripts/sync.mjs [--catalog PATH/rules.md]\n');
});
