// Hostile input must give a lint result (exit 0 or 1), never a crash.

import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { fixture, STACK_FRAME, cleanupTempDirs, makeTree, run } from './helpers.js';

afterAll(cleanupTempDirs);

const specExample = fixture('clean.msg.md') + fixture('cell-marker.msg.md');

const files: Record<string, string | Buffer> = {
  'random.msg.md': randomBytes(64 * 1024),
  'truncated.msg.md': '# %% Title[^1]\n\n[^1]: [markdown] time="2025-05-30T09:00:00+08:0',
  'truncated-xml.msg.md': '# %%% [^2.abcd]\n\n[^2.abcd]: [tool] name="x"\n\n<tool>\n<tool_name>x</tool_name>\n<arguments><![CDATA[abc',
  'binary.msg.md': Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]), randomBytes(4096)]),
  'nul.msg.md': Buffer.alloc(1024),
  'huge-line.msg.md': `# %% [^1]\n\n[^1]: [markdown]\n\n${'x'.repeat(10 * 1024 * 1024)}`,
  'empty.msg.md': '',
  'only-bom.msg.md': '\ufeff',
  'crlf.msg.md': specExample.replace(/\n/g, '\r\n'),
  'lone-cr.msg.md': specExample.replace(/\n/g, '\r'),
  'surrogates.msg.md': `# %% \ud800 [^1]\n\n[^1]: [markdown] summary="\udfff"\n`,
};

describe('robustness', () => {
  it.each(['stylish', 'json', 'sarif', 'github', 'junit', 'gitlab', 'rdjson'])('survives hostile files with --format %s', (format) => {
    const dir = makeTree(files);
    const result = run(['--format', format], { cwd: dir });
    expect(result.stderr).not.toMatch(STACK_FRAME);
    expect(result.stderr).not.toMatch(/internal error/);
    expect([0, 1]).toContain(result.status);
    if (['json', 'sarif', 'gitlab', 'rdjson'].includes(format)) expect(() => JSON.parse(result.stdout)).not.toThrow();
  });

  it('survives hostile files with --fix-dry-run and --fix', () => {
    const dir = makeTree(files);
    for (const mode of ['--fix-dry-run', '--fix']) {
      const result = run([mode, '--format', 'json'], { cwd: dir });
      expect(result.stderr).not.toMatch(STACK_FRAME);
      expect(result.stderr).not.toMatch(/internal error/);
      expect([0, 1]).toContain(result.status);
    }
  });

  it('survives hostile standard input', () => {
    const dir = makeTree();
    for (const input of [randomBytes(10_000), Buffer.alloc(0), Buffer.from('#%%\n'.repeat(10_000))]) {
      const result = run(['--stdin', '--format', 'json'], { cwd: dir, input });
      expect(result.stderr).not.toMatch(STACK_FRAME);
      expect([0, 1]).toContain(result.status);
    }
  });
});
