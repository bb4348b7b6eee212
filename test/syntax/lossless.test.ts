// The tree covers every byte: segments rebuild the file, and inside each
// parsed segment the blocks rebuild the segment.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from '../../server/syntax/document.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(p));
    else if (entry.name.endsWith('.md')) out.push(p);
  }
  return out;
}

export function rebuild(text: string, fileName: string): string {
  const doc = parse(text, { fileName });
  let out = '';
  let expected = 0;
  for (const seg of doc.segments) {
    expect(doc.offsetOf(seg)).toBe(expected);
    if (seg.parse) {
      let inner = '';
      let at = 0;
      for (const b of seg.parse.blocks) {
        expect(b.start).toBe(at);
        inner += seg.text.slice(b.start, b.end);
        at = b.end;
      }
      expect(inner).toBe(seg.text);
    }
    out += seg.text;
    expected = doc.endOf(seg);
  }
  return out;
}

const samples = [
  ...filesUnder(join(root, 'examples')),
  ...filesUnder(join(root, 'test/fixtures')),
  ...filesUnder(join(root, 'docs/rules')),
];

describe('lossless tree', () => {
  it('finds samples', () => expect(samples.length).toBeGreaterThan(3));
  for (const f of samples) {
    const text = readFileSync(f, 'utf8');
    const rel = f.slice(root.length);
    it(`rebuilds ${rel}`, () => {
      expect(rebuild(text, f.endsWith('.msg.md') ? f : 'x.msg.md')).toBe(text);
    });
    it(`rebuilds ${rel} with CRLF line breaks and a BOM`, () => {
      const crlf = '\ufeff' + text.replace(/\n/g, '\r\n');
      expect(rebuild(crlf, 'x.msg.md')).toBe(crlf);
    });
  }
  it('handles edge cases', () => {
    for (const t of ['', '\n', '\r\n', '\ufeff', '# %%', '# %%\n', '---\n', '---\n---', '```\n# %%\n', '<!--\n# %%\n', 'a\rb\n# %% [^1]\r\n', '\u0000\uffff\ud800']) {
      expect(rebuild(t, 'x.msg.md')).toBe(t);
    }
  });
});
