// The lists the tree keeps are typed read-only: most are the one shared,
// frozen empty list (server/base/lists.ts), so a push on one must not
// compile. This compiles a small file against the tree's types and expects
// an error at each push, and none at the lines that only read.

import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(path.join(tmpdir(), 'msglint-readonly-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const from = (module: string) => JSON.stringify(path.join(ROOT, module));

// Each line that should not compile ends with `// push`.
const SOURCE = `
import type { MetadataNode } from ${from('server/syntax/format/metadata.js')};
import type { XmlElement } from ${from('server/tool-calls/xml.js')};
import type { CellParse } from ${from('server/syntax/format/cell.js')};
import type { MarkerNode } from ${from('server/syntax/format/marker.js')};

export function touch(meta: MetadataNode, el: XmlElement, p: CellParse, m: MarkerNode): number {
  meta.attributes.push(meta.attributes[0]!); // push
  meta.problems.push(meta.problems[0]!); // push
  el.children.push(el); // push
  el.pieces.push(el.pieces[0]!); // push
  p.metadata.push(p.metadata[0]!); // push
  m.problems.push(m.problems[0]!); // push
  return meta.attributes.length + el.children.length + p.metadata.length + m.problems.length;
}
`;

describe('kept lists', () => {
  it('a push on a metadata line, an XML element, a cell parse or a marker does not compile', async () => {
    const file = path.join(dir, 'push.ts');
    writeFileSync(file, SOURCE);
    const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');
    const args = [tsc, '--ignoreConfig', '--noEmit', '--strict', '--skipLibCheck', '--target', 'ES2022', '--module', 'NodeNext', '--moduleResolution', 'NodeNext', '--types', 'node', file];
    const result = await promisify(execFile)(process.execPath, args, { cwd: ROOT }).then(
      (r) => ({ stdout: r.stdout, code: 0 }),
      (e: { stdout: string; code: number }) => ({ stdout: e.stdout, code: e.code }),
    );
    const lines = SOURCE.split('\n');
    const expected = lines.flatMap((l, i) => (l.endsWith('// push') ? [i + 1] : []));
    const reported = [...result.stdout.matchAll(/push\.ts\((\d+),\d+\): error (TS\d+)/g)];
    expect(result.code).not.toBe(0);
    expect(reported.map((r) => Number(r[1]))).toEqual(expected);
    for (const r of reported) expect(r[2]).toBe('TS2339'); // Property 'push' does not exist
  }, 60_000);
});
