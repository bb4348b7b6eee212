// Keyed re-runs (Rule.checkRoots), edit by edit: the cases where a
// finding of one root depends on something an edit elsewhere changes (a
// cell whose id becomes doubtful, a kind changed by a metadata line in
// another cell, a neighbouring cell's first line). Each lint after an edit
// is compared with a full lint (MSGLINT_CHECK_INCREMENTAL) and with the
// findings expected; the keystroke property (incremental-keystrokes.test.ts)
// covers random edits.
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createLinter } from '../../server/engine/linter.js';
import { parseForLint } from '../../server/engine/lint.js';
import type { Rule } from '../../server/engine/types.js';
import { editBetween } from '../helpers.js';
import { allRules } from '../../server/linter.js';

vi.stubEnv('MSGLINT_CHECK_INCREMENTAL', '1');
afterAll(() => {
  vi.unstubAllEnvs();
});

/** Per lint, the number of cells each keyed re-run checked. */
let scopes: number[] = [];
/** How many times a keyed rule ran over every cell of `linted`, after the first lint (not the contract check's full lint). */
let wholeRuns = 0;
let linted: unknown;
const linter = createLinter(
  allRules.map((rule): Rule => {
    const check = rule.checkRoots;
    if (!check) return rule;
    return {
      ...rule,
      checkRoots(context) {
        if (context.cells.length < context.doc.cells.length) scopes.push(context.cells.length);
        else if (context.doc === linted) wholeRuns++;
        check(context);
      },
    };
  }),
);

const head = '---\nagents:\n  coder:\n    models: gpt-4o\n---\n\n';
const message = (id: string, extra = '') => `# %% Q${id}[^${id}]\n\n[^${id}]: [markdown]\n\nHello ${id}.\n${extra}\n`;
const reply = (id: string) => `# %%% A${id}[^${id}]\n\n[^${id}]: [coder]\n\nReply ${id}.\n\n`;
const result = (id: string) => `# %%% [^${id}]\n\n[^${id}]: [tool] name=search\n\n<tool_result><![CDATA[ok]]></tool_result>\n\n`;

/**
 * Lints `texts` in turn as an editor would (each parsed from the previous;
 * `hinted`: with the edit's range, which lets the parser keep the previous
 * version's cells); the last lint's findings.
 */
function typed(texts: string[], hinted: boolean): string[] {
  let doc = parseForLint(texts[0]!, { fileName: 'a.msg.md' });
  let found = linter.lintDocument(doc);
  scopes = [];
  wholeRuns = 0;
  for (let i = 1; i < texts.length; i++) {
    const edit = hinted ? editBetween(texts[i - 1]!, texts[i]!) : undefined;
    doc = parseForLint(texts[i]!, { fileName: 'a.msg.md', previous: doc, edit });
    linted = doc;
    found = linter.lintDocument(doc);
  }
  return found.map((d) => `${d.ruleId}: ${d.message}`);
}

const orphan = "tool-result-orphan: No tool call `9.abcd` for this result: a tool result's id is PARENT.NONCE.N, where PARENT.NONCE is the id of its tool call.";

for (const hinted of [false, true]) {
describe(hinted ? "keyed re-runs, with the editor's edit range" : 'keyed re-runs', () => {
  const run = (texts: string[]) => typed(texts, hinted);
  // Without the edit's range, the whole path: every rule runs whole.
  it.runIf(hinted)('run only over the touched roots when ids stay reliable', () => {
    const before = head + message('1') + reply('2') + message('3');
    const after = before.replace('Hello 3.', 'Hello 3. [^9]: x');
    run([before, after, after + message('4')]);
    expect(scopes.length).toBeGreaterThan(0);
    expect(Math.max(...scopes)).toBeLessThanOrEqual(2);
  });

  it('fall back when an edited cell’s id becomes doubtful', () => {
    // An orphan result is reported while no output cell's id between its PARENT (reply 9) and it is doubtful.
    const before = head + reply('9') + message('1') + reply('2') + message('5') + result('9.abcd.1');
    expect(run([before])).toContain(orphan);
    // Reply 2's id stops fitting: it may be the call, and the orphan (root 9) goes quiet.
    const after = before.replace('# %%% A2[^2]', '# %%% A2[^2.]');
    expect(run([before, after])).not.toContain(orphan);
    expect(run([before, after, before])).toContain(orphan);
  });

  // With the edit's range, the questions about doubtful ids that rules asked
  // move with the cells: only the roots whose questions span the changed cell run again.
  it.runIf(hinted)('run again over the roots whose doubt questions span a cell whose id became doubtful', () => {
    const others = ['5', '6', '7', '10', '11', '12'].map((id) => message(id)).join('');
    const before = head + reply('9') + message('1') + reply('2') + message('3') + message('4') + others + result('9.abcd.1');
    expect(run([before])).toContain(orphan);
    // Message 4 takes reply 2's id, and gives it back: both ids become doubtful, then neither is.
    const texts = [before, before.replace('Q4[^4]', 'Q4[^2]'), before];
    const findings = run(texts.slice(0, 2));
    expect(findings).not.toContain(orphan);
    expect(findings.some((f) => f.startsWith('duplicate-id:'))).toBe(true);
    // Messages 2, 3, 4 and 5 (the edited cell's neighbours), and the result with its PARENT reply 9; not the 12 cells.
    expect(wholeRuns).toBe(0);
    expect(Math.max(...scopes)).toBeLessThanOrEqual(6);
    expect(run(texts)).toContain(orphan);
    expect(wholeRuns).toBe(0);
    expect(Math.max(...scopes)).toBeLessThanOrEqual(6);
  });

  it('fall back when an unchanged cell of a touched root becomes doubtful', () => {
    // Output 8.1's metadata line sits in message 1: changing its type there
    // changes what 8.1 is, and whether its id fits, without editing 8.1.
    const line = (type: string) => `[^8.1]: [${type}]\n`;
    const text = (type: string) => head + message('1', line(type)) + message('8') + '# %%% Out[^8.1]\n\nstdout> 1\n\n' + result('9.abcd.1');
    const findings = run([text('tool'), text('coder')]);
    expect(findings).toEqual(run([text('coder')]));
    expect(run([text('coder'), text('tool')])).toEqual(run([text('tool')]));
  });

  it('run again over the roots a reference typed in text names', () => {
    // A line no cell uses is metadata with no effect, until text refers to it: then it is a footnote.
    const unused = 'metadata-unused: No cell uses the id `77`: this metadata line has no effect.';
    const before = head + message('1', '[^77]: [markdown] note\n') + reply('2') + message('3');
    expect(run([before])).toContain(unused);
    const after = before.replace('Hello 3.', 'Hello 3, see[^77].');
    expect(run([before, after])).not.toContain(unused);
    expect(Math.max(...scopes)).toBeLessThan(5);
    expect(run([before, after, before])).toContain(unused);
  });

  it('check a cell again whose metadata line, in another cell, moved relative to it', () => {
    // Message 5's line sits in message 1, with a type its checks report; message 3, between them, grows.
    const text = (status: string) =>
      head + message('1', '[^5]: [python]\n') + message('2') + message('3').replace('[^3]: [markdown]', `[^3]: [markdown] status="${status}"`) + message('4') + '# %% Q5[^5]\n\nHello 5.\n\n';
    const findings = run([text('ok'), text('a much longer value')]);
    expect(findings.some((f) => f.startsWith('cell-type:'))).toBe(true);
    expect(findings).toEqual(run([text('a much longer value')]));
  });

  it('run again over the cell before the edit (its end meets the edited cell)', () => {
    // A cell that is only a marker line: the suggested metadata line depends on the line after it.
    const bare = '# %% Q2[^2]\n';
    const before = head + message('1') + bare + message('3');
    const after = head + message('1') + bare;
    const suggestion = (text: string) => linter.lint(text, { fileName: 'a.msg.md' }).diagnostics.filter((d) => d.ruleId === 'metadata-missing').map((d) => d.suggestions?.[0]?.fix.text);
    expect(suggestion(before)).not.toEqual(suggestion(after));
    run([before, after]);
    run([after, before]);
  });
});
}
