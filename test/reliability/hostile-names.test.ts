// Issue 45, point 9: a file's name is outside text like its content. One
// that sets the terminal's clipboard (OSC 52), holds a line break that forges
// a report line or a workflow command, or reverses the text after it (a bidi
// override) reaches neither stdout nor stderr raw, whatever the format.

import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { XMLValidator } from 'fast-xml-parser';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, CELL_MARKER, lines, makeTree, run, STACK_FRAME } from '../cli/helpers.js';

afterAll(cleanupTempDirs);

/** Sets the terminal's clipboard to "pwned" where the terminal allows it. */
const OSC52 = '\u001b]52;c;cHduZWQ=\u0007';
/** On a line of its own, a problem GitHub would show on a file it never had. */
const FORGED = '\n::error file=x.msg.md,line=1::forged';
const HOSTILE = `a${OSC52}${FORGED}\u202e`;
/** The same, as the output shows it. */
const SHOWN = 'a\u241b]52;c;cHduZWQ=\u2407\u240a::error file=x.msg.md,line=1::forged<U+202E>';

/** ESC, BEL, CR, the other C0 and C1 controls, DEL and the bidi controls: a line feed is checked line by line. */
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** Lines a GitHub runner would take for a workflow command (it trims leading blanks). */
const commands = (text: string) => text.split('\n').filter((line) => line.trimStart().startsWith('::'));

/** A workflow command's property value as the runner reads it. */
const unescapeProperty = (value: string) =>
  value.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%3A/g, ':').replace(/%2C/g, ',').replace(/%25/g, '%');

describe('file names reach no terminal or log raw (issue 45, point 9)', () => {
  it('stylish: a name stays on its heading line, its controls shown; one starting with "::" is written ./::…', () => {
    const dir = makeTree({ [`${HOSTILE}.msg.md`]: CELL_MARKER, '::warning::forged.msg.md': CELL_MARKER, 'bidi.msg.md': '# %% Hi[^1]\n\n[^1]: [mark\u202edown]\n\nHello.\n' });
    const result = run(['.'], { cwd: dir });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(1);
    expect(result.stdout).not.toMatch(RAW);
    expect(commands(result.stdout)).toEqual([]);
    const out = lines(result.stdout);
    expect(out).toContain(`${SHOWN}.msg.md`);
    expect(out).toContain('./::warning::forged.msg.md');
    expect(out.filter((line) => line.includes('forged'))).toHaveLength(2);
    // A rule's message quoting the file: the override shown, not obeyed.
    expect(result.stdout).toContain('not `mark<U+202E>down`');
  });

  it('github: one ::error per problem, properties escaped as the runner reads them, controls shown', () => {
    const dir = makeTree({ [`${HOSTILE}.msg.md`]: CELL_MARKER, '::warning::forged.msg.md': CELL_MARKER, 'odd,name:100%.msg.md': CELL_MARKER });
    const result = run(['--format', 'github', '.'], { cwd: dir });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(1);
    expect(result.stdout).not.toMatch(RAW);
    const out = lines(result.stdout);
    expect(out).toHaveLength(3);
    const files = out.map((line) => {
      const match = /^::error file=([^,:]*),line=1,col=1,endLine=1,endColumn=3,title=cell-marker::A cell marker needs one space between '#' and '%25'\.$/.exec(line);
      expect(match, line).not.toBeNull();
      return unescapeProperty(match![1]!);
    });
    // The line break is the name's own, carried as %0A: the annotation names the file.
    expect(files.sort()).toEqual(['::warning::forged.msg.md', `${SHOWN.replace('\u240a', '\n')}.msg.md`, 'odd,name:100%.msg.md'].sort());
  });

  it('junit: the name is well-formed XML', () => {
    const dir = makeTree({ [`${HOSTILE}.msg.md`]: CELL_MARKER });
    const result = run(['--format', 'junit', '.'], { cwd: dir });
    expect(XMLValidator.validate(result.stdout)).toBe(true);
    expect(result.stdout).toContain('a\ufffd]52;c;cHduZWQ=\ufffd');
  });

  it('stderr: a path that does not exist, a FIFO that is skipped, a config error in a folder so named', () => {
    const dir = makeTree({ [`c${HOSTILE}/.msglintrc.json`]: '{"rules":{"nope":"error"}}', [`c${HOSTILE}/a.msg.md`]: CELL_MARKER });
    const expectOneLine = (result: { status: number | null; stderr: string }, shown: RegExp) => {
      expect(result.stderr).not.toMatch(STACK_FRAME);
      expect(result.stderr).not.toMatch(RAW);
      expect(lines(result.stderr), result.stderr).toHaveLength(1);
      expect(result.stderr).toMatch(shown);
      expect(result.status).toBe(2);
    };
    const escaped = SHOWN.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    expectOneLine(run([`missing${HOSTILE}.msg.md`], { cwd: dir }), new RegExp(`^msglint: missing${escaped}\\.msg\\.md: no such file or directory\\n$`));
    expectOneLine(run(['-c', `${HOSTILE}.json`, '.'], { cwd: dir }), /^msglint: .*a\u241b\]52;c;cHduZWQ=\u2407.*forged<U\+202E>\.json/);
    // A config error's line breaks are folded into blanks; its controls are shown.
    expectOneLine(run(['.'], { cwd: dir }), /^msglint: ca\u241b\]52;c;cHduZWQ=\u2407 ::error file=x\.msg\.md,line=1::forged<U\+202E>\/\.msglintrc\.json: unknown rule "nope"/);
    const fifo = path.join(dir, `f${HOSTILE}.msg.md`);
    if (spawnSync('mkfifo', [fifo]).status === 0) {
      expectOneLine(run([path.basename(fifo)], { cwd: dir }), new RegExp(`^msglint: f${escaped}\\.msg\\.md: not a regular file\\n$`));
    }
  });

  it('export: the problems that block it, on stderr, keep their colours and show the name', () => {
    const twice = '# %% Hi[^1]\n\n[^1]: [markdown]\n\nHello.\n\n# %% Hi[^1]\n\n[^1]: [markdown]\n\nAgain.\n';
    const dir = makeTree({ [`${HOSTILE}.msg.md`]: twice });
    for (const color of ['--no-color', '--color']) {
      const result = run(['export', `${HOSTILE}.msg.md`, '--to', 'openai', color], { cwd: dir });
      expect(result.status).toBe(1);
      const shown = result.stderr.replace(/\u001b\[\d+m/g, '');
      expect(shown).not.toMatch(RAW);
      expect(commands(shown)).toEqual([]);
      expect(lines(shown)).toContain(`${SHOWN}.msg.md`);
      expect(result.stderr.includes('\u001b[31merror\u001b[39m')).toBe(color === '--color');
    }
  });
});
