// --fix converges: applying fixes twice changes nothing the second time, on
// every fixture and example, and a CRLF file stays CRLF.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { lintAndFix } from '../../server/linter.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(p));
    else if (entry.name.endsWith('.md') && entry.name !== 'README.md') out.push(p);
  }
  return out;
}

/** The fenced examples of the rule pages, which include a wrong example per rule. */
function docExamples(): { name: string; text: string }[] {
  const out: { name: string; text: string }[] = [];
  for (const f of filesUnder(join(root, 'docs/rules'))) {
    const page = readFileSync(f, 'utf8');
    const re = /^(`{4,})markdown.*\n([\s\S]*?)^\1\s*$/gm;
    for (let m = re.exec(page), i = 0; m; m = re.exec(page), i++) out.push({ name: `${f.slice(root.length)}#${i}`, text: m[2]! });
  }
  return out;
}

const samples = [
  ...filesUnder(join(root, 'test/fixtures')).map((f) => ({ name: f.slice(root.length), text: readFileSync(f, 'utf8') })),
  ...filesUnder(join(root, 'examples')).map((f) => ({ name: f.slice(root.length), text: readFileSync(f, 'utf8') })),
  ...docExamples(),
];

describe('fixes converge', () => {
  it('has samples with fixes to apply', () => {
    const changed = samples.filter((s) => lintAndFix(s.text, { fileName: 'x.msg.md' }).text !== s.text);
    expect(changed.length).toBeGreaterThan(10);
  });
  for (const s of samples) {
    it(`a second --fix changes nothing: ${s.name}`, () => {
      const once = lintAndFix(s.text, { fileName: 'x.msg.md' }).text;
      expect(lintAndFix(once, { fileName: 'x.msg.md' }).text).toBe(once);
      const crlf = s.text.replace(/\r?\n/g, '\r\n');
      const fixed = lintAndFix(crlf, { fileName: 'x.msg.md' }).text;
      expect(fixed.replace(/\r\n/g, '')).not.toContain('\n');
      expect(lintAndFix(fixed, { fileName: 'x.msg.md' }).text).toBe(fixed);
    });
  }
});
