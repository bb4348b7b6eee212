// A long export is written in pieces (base/json-chunks.ts, export/index.ts
// exportChunks): through a pipe whose reader stops for a while (the command
// waits for it to drain), to a file with -o, and as the library's
// exportText, it is the same text. Runs dist/ (npm test builds it first).

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateMessageFile } from '../../bench/generate.mjs';
import { exportText, toLLMView } from '../../server/export/index.js';
import { parse } from '../../server/syntax/document.js';
import { MAIN, cleanupTempDirs, makeTree, run } from '../cli/helpers.js';

afterAll(cleanupTempDirs);

const text = generateMessageFile({ turns: 300, seed: 7 });

/** The command's standard output, read by a reader that stops for `pauseMs` first, so that the pipe fills. */
function slowlyRead(args: readonly string[], cwd: string, pauseMs: number): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, ...args], { cwd, stdio: ['ignore', 'pipe', 'ignore'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.stdout.pause();
    setTimeout(() => child.stdout.resume(), pauseMs);
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(chunks).toString('utf8') }));
  });
}

describe('a long export, written in pieces', () => {
  it('is the library’s exportText through a pipe read slowly and in a file, for JSON and the console', async () => {
    const dir = makeTree({ 'long.msg.md': text });
    const file = path.join(dir, 'long.msg.md');
    const view = toLLMView(parse(text, { fileName: file }));
    for (const format of ['openai', 'console'] as const) {
      const expected = exportText(view, format, { thinking: 'omit' });
      // Many pieces of 16,384 characters, and more than a pipe holds.
      expect(expected.length).toBeGreaterThan(200_000);
      const piped = await slowlyRead(['export', file, '--to', format], dir, 300);
      expect(piped.code).toBe(0);
      expect(piped.stdout).toBe(expected);
      const out = path.join(dir, `out-${format}.txt`);
      expect(run(['export', file, '--to', format, '-o', out], { cwd: dir }).status).toBe(0);
      expect(readFileSync(out, 'utf8')).toBe(expected);
    }
  });
});
