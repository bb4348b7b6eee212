// FramingRepair (server/lsp/framing.ts), the filter between the language
// server's standard input and vscode-jsonrpc's reader: well-formed frames
// pass through whatever the chunking, garbage between them is dropped and
// reported, and a bad header never makes the frames after it unreadable.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FramingRepair } from '../../server/lsp/framing.js';
import { runs } from './gen.js';

function frame(body: string): Buffer {
  const bytes = Buffer.from(body, 'utf8');
  return Buffer.concat([Buffer.from(`Content-Length: ${bytes.length}\r\n\r\n`, 'latin1'), bytes]);
}

/** Feeds `input` in the given chunk sizes; returns the output and the problems reported. */
async function repair(input: Buffer, sizes: number[] = []): Promise<{ out: Buffer; problems: string[] }> {
  const problems: string[] = [];
  const t = new FramingRepair((m) => problems.push(m));
  const chunks: Buffer[] = [];
  t.on('data', (d: Buffer) => chunks.push(d));
  const done = new Promise<void>((resolve) => t.on('end', resolve));
  let at = 0;
  for (const size of sizes) {
    if (at >= input.length) break;
    t.write(input.subarray(at, at + size));
    at += size;
  }
  if (at < input.length) t.write(input.subarray(at));
  t.end();
  await done;
  return { out: Buffer.concat(chunks), problems };
}

const body = fc.oneof(
  fc.json().map((j) => JSON.stringify({ jsonrpc: '2.0', id: 1, result: j })),
  fc.string({ maxLength: 50 }).map((s) => JSON.stringify({ jsonrpc: '2.0', method: 'x', params: { s } })),
  fc.constant('{"jsonrpc":"2.0","method":"é\\r\\n\\r\\nContent-Length: 5"}'),
);
/** Bytes between frames that are not a valid header: no `Content-Length: N` with a sane N. */
const garbage = fc.oneof(
  fc.constantFrom(
    'garbage\r\n\r\n',
    'Content-Type: application/json\r\n\r\n',
    'Content-Length: many\r\n\r\n',
    'Content-Length: -5\r\n\r\n',
    'Content-Length: 99999999999\r\n\r\n',
    'Content-Type: x\r\n\r\n{"jsonrpc": "2.0"}',
    '{}',
    '\r\n',
    '\u0000\u00ff',
  ),
  fc.string({ maxLength: 30 }).filter((s) => !/content-length/i.test(s)),
);

describe('FramingRepair', () => {
  it('passes well-formed frames through unchanged, in any chunking', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(body, { maxLength: 6 }), fc.array(fc.integer({ min: 1, max: 40 }), { maxLength: 60 }), async (bodies, sizes) => {
        const input = Buffer.concat(bodies.map(frame));
        const { out, problems } = await repair(input, sizes);
        expect(out.equals(input)).toBe(true);
        expect(problems).toEqual([]);
      }),
      { numRuns: runs(300) },
    );
  });

  it('drops garbage between frames, reports it, and keeps every frame', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(garbage, body), { minLength: 1, maxLength: 6 }), fc.array(fc.integer({ min: 1, max: 40 }), { maxLength: 60 }), async (pairs, sizes) => {
        const input = Buffer.concat(pairs.flatMap(([g, b]) => [Buffer.from(g, 'latin1'), frame(b)]));
        const { out, problems } = await repair(input, sizes);
        expect(out.toString('latin1')).toBe(Buffer.concat(pairs.map(([, b]) => frame(b))).toString('latin1'));
        if (pairs.some(([g]) => g.length > 0 && !/^(?:[A-Za-z][A-Za-z0-9-]*:[^\r\n]*\r\n)*$/.test(g))) expect(problems.length).toBeGreaterThan(0);
      }),
      { numRuns: runs(300) },
    );
  });

  it('keeps other headers of a frame and normalizes its header block', async () => {
    const input = Buffer.from('Content-Type: application/vscode-jsonrpc; charset=utf-8\r\ncontent-length:  2 \r\n\r\n{}', 'latin1');
    const { out, problems } = await repair(input, [3, 5, 7]);
    expect(out.toString('latin1')).toBe('Content-Length: 2\r\n\r\n{}');
    expect(problems).toEqual([]);
  });

  it('recovers after a Content-Length that is too long, at the next header', async () => {
    const bad = Buffer.from('Content-Length: 30\r\n\r\n{"jsonrpc":"2.0"}', 'latin1');
    const input = Buffer.concat([bad, frame('{"a":1}'), frame('{"b":2}')]);
    const { out } = await repair(input);
    // The long body swallows part of the next frame (nothing can tell); the one after survives.
    expect(out.toString('latin1').endsWith(frame('{"b":2}').toString('latin1'))).toBe(true);
  });

  it('does not buffer large bodies', async () => {
    const big = 'x'.repeat(5_000_000);
    const input = frame(JSON.stringify({ big }));
    const { out } = await repair(input, Array.from({ length: 100 }, () => 65_536));
    expect(out.equals(input)).toBe(true);
  });
});
