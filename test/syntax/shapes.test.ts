// Objects of the tree that every rule reads keep V8's fast properties. An
// object that falls into dictionary mode (a getter redefined as a value, a
// property deleted) turns each `parse.lines` of each rule into a hash
// look-up: the lint still passes, only slower, so no other test notices.
// Checked in a child process: only there can V8's natives syntax be on.

import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const DOCUMENT = fileURLToPath(new URL('../../dist/server/syntax/document.js', import.meta.url));

const CHECK = `
const { parse } = await import(${JSON.stringify(DOCUMENT)});
const text = '# %% Q[^1]\\n\\n[^1]: [markdown]\\n\\nHi\\n\\n# %%% A[^2]\\n\\n[^2]: [python]\\n\\n\`\`\`\\nx\\n\`\`\`\\n';
const seen = [];
for (const once of [false, true]) {
  const doc = parse(text, { once });
  for (const seg of doc.segments) {
    const p = seg.parse;
    if (!p) continue;
    // Made on first use: must not change the object's shape.
    void p.blocks;
    void p.lines;
    seen.push([seg.kind, %HasFastProperties(p), %HasFastProperties(seg)]);
  }
}
process.stdout.write(JSON.stringify(seen));
`;

describe('tree object shapes', () => {
  it('cell parses and segments keep fast properties, also after their blocks and lines are made', () => {
    const r = spawnSync(process.execPath, ['--allow-natives-syntax', '--input-type=module', '-e', CHECK], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    const seen = JSON.parse(r.stdout) as [string, boolean, boolean][];
    expect(seen.length).toBe(4);
    for (const [, parse, segment] of seen) {
      expect(parse).toBe(true);
      expect(segment).toBe(true);
    }
  });
});
