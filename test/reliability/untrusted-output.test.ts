// Issue 35: what a file holds must not crash the report or reach the
// terminal raw. The stylish formatter past 130,000 messages and rule options
// nested thousands of levels deep (point 3); control characters quoted from
// a file in stylish output, `export --to console` and `agents` (point 7).

import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, lines, makeTree, run, STACK_FRAME, writeTree } from '../cli/helpers.js';

afterAll(cleanupTempDirs);

/** ESC, BEL, a lone CR, DEL and a C1 control (CSI): none may reach the terminal. */
const RAW_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|\r(?!\n)/;
/** Clears the screen and sets the window title on a terminal that reads it. */
const HOSTILE = '\u001b[2J\u001b]0;pwned\u0007\rX\u007f\u009b';

describe('the stylish formatter and deep rule options (point 3)', () => {
  it('reports 140,000 messages', () => {
    const dir = makeTree({ 'many.msg.md': '# %%\n'.repeat(70_000) });
    const result = run(['many.msg.md'], { cwd: dir, timeout: 120_000 });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('\u2716 140000 problems (0 errors, 140000 warnings)');
  }, 150_000);

  it('rule options nested 5,000 deep: a config error, one line, exit 2', () => {
    let options = '1';
    for (let i = 0; i < 5000; i++) options = `{"a":${options}}`;
    const dir = makeTree({ 'a.msg.md': '# %% Hi[^1]\n\n[^1]: [markdown]\n\nHi.\n', '.msglintrc.json': `{"rules":{"cell-marker":["error",${options}]}}` });
    const result = run(['.'], { cwd: dir });
    expect(result.stderr).not.toMatch(STACK_FRAME);
    // Refused as it is read (the JSON reader goes by recursion), before the rule options' own bound of 64.
    expect(lines(result.stderr)).toEqual(['msglint: .msglintrc.json: invalid JSON: nested more than 200 levels deep (line 1, column 1019)']);
    expect(result.status).toBe(2);
    // Read, 100 deep, they meet the options' bound.
    writeTree(dir, { '.msglintrc.json': `{"rules":{"cell-marker":["error",${'{"a":'.repeat(100)}1${'}'.repeat(100)}]}}` });
    const hundred = run(['.'], { cwd: dir });
    expect(lines(hundred.stderr)).toEqual(['msglint: .msglintrc.json: "rules.cell-marker": options nested more than 64 levels deep']);
    expect(hundred.status).toBe(2);
  });
});

describe('control characters from a file reach no terminal raw (point 7)', () => {
  const file = [
    '---',
    'agents:',
    `  "ev${HOSTILE}il":`,
    '    models: [m]',
    '---',
    '',
    '# %% Hi[^1]',
    '',
    `[^1]: [markdown] time="${HOSTILE}"`,
    '',
    `Hello ${HOSTILE} there.`,
    '',
    '# %%% Answer[^2]',
    '',
    `[^2]: [ev${HOSTILE}il]`,
    '',
    `Said ${HOSTILE}.`,
    '',
  ].join('\n');

  it('stylish output shows them as control pictures', () => {
    const dir = makeTree({ 'a.msg.md': file, [`b${HOSTILE}.msg.md`]: file });
    const result = run(['.'], { cwd: dir });
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('\u241b[2J\u241b]0;pwned\u2407');
    expect(result.stdout).not.toMatch(RAW_CONTROL);
  });

  it('export --to console and agents', () => {
    const dir = makeTree({ 'a.msg.md': file.replace(/ time="[^"]*"/, '') });
    const exported = run(['export', 'a.msg.md', '--to', 'console', '--force'], { cwd: dir });
    expect(exported.status).toBe(0);
    expect(exported.stdout).toContain('Hello \u241b[2J');
    expect(exported.stdout).not.toMatch(RAW_CONTROL);
    const agents = run(['agents', 'a.msg.md'], { cwd: dir });
    expect(agents.status).toBe(0);
    expect(agents.stdout).toContain('ev\u241b[2J');
    expect(agents.stdout).not.toMatch(RAW_CONTROL);
  });
});
