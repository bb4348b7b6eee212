// Messages that name another place's line say `{{line}}` and give the place
// as their first related location; the engine renders the line for the
// version it reports on (server/engine/line-mentions.ts). A finding kept
// from the previous version after lines were added above the place names
// the line where the place is now, without the rule running again.
import { describe, expect, it } from 'vitest';
import { renderLines } from '../../server/engine/line-mentions.js';
import { createLinter } from '../../server/engine/linter.js';
import { allRules, lint, lintDocument, parseForLint } from '../../server/linter.js';
import { LineIndex } from '../../server/syntax/format/lines.js';
import type { Rule } from '../../server/engine/types.js';

const text = [
  '# %% Intro[^0]',
  '',
  '[^0]: [markdown]',
  '',
  'Some prose.',
  '',
  '# %% Ask[^1]',
  '',
  '[^1]: [markdown]',
  '',
  'A question.',
  '',
  '# %% Again[^1]',
  '',
  'The same id.',
  '',
].join('\n');

describe('line mentions', () => {
  it('renders {{line}} from the place it is given, and leaves a message without a place alone', () => {
    const lines = new LineIndex('a\nb\nc\n');
    expect(renderLines('on line {{line}}, see line {{line}}', 4, lines)).toBe('on line 3, see line 3');
    expect(renderLines('on line {{line}}', undefined, lines)).toBe('on line {{line}}');
    expect(renderLines('no place', 4, lines)).toBe('no place');
  });

  it('a kept finding names the line where its place is after an edit added lines above it', () => {
    const first = parseForLint(text, { fileName: 'a.msg.md' });
    const before = lintDocument(first).find((d) => d.ruleId === 'duplicate-id')!;
    expect(before.message).toBe('The id `1` is already used by the cell on line 7.');
    // Two lines typed in the prose of the first cell: the facts stay, and the finding is moved, not made again.
    const at = text.indexOf('Some prose.') + 'Some prose.'.length;
    const edited = text.slice(0, at) + '\nMore.\nAnd more.' + text.slice(at);
    const doc = parseForLint(edited, { fileName: 'a.msg.md', previous: first, edit: { start: at, oldEnd: at, text: '\nMore.\nAnd more.' } });
    expect(!!doc.edit?.replaced).toBe(true);
    const after = lintDocument(doc).find((d) => d.ruleId === 'duplicate-id')!;
    expect(after.message).toBe('The id `1` is already used by the cell on line 9.');
    expect(after.related?.[0]?.range.start.line).toBe(8);
    expect(after).toEqual(lint(edited, { fileName: 'a.msg.md' }).diagnostics.find((d) => d.ruleId === 'duplicate-id'));
  });

  it('the template stays out of the diagnostic: JSON and equality see the rendered message only', () => {
    const d = lint(text, { fileName: 'a.msg.md' }).diagnostics.find((x) => x.ruleId === 'duplicate-id')!;
    expect(Object.keys(d)).not.toContain('template');
    expect(JSON.parse(JSON.stringify(d)).message).toBe(d.message);
  });

  it('a rule that names a line gives the place: each built-in message with {{line}} is rendered', () => {
    // A rule that forgot the place would show the placeholder.
    const naming: Rule = {
      meta: { id: 'names-a-line', group: 'structure', severity: 'warning', fixable: null, description: 'test', docs: '' },
      check({ doc, report }) {
        const cell = doc.cells[1]!;
        const first = doc.cells[0]!;
        report({ at: doc.abs(cell, cell.marker.span), message: 'See line {{line}}.', related: [{ at: doc.abs(first, first.marker.span), message: 'here' }] });
      },
    };
    const found = createLinter([...allRules, naming]).lint('Intro\n\n' + text, { fileName: 'a.msg.md' }).diagnostics;
    expect(found.find((d) => d.ruleId === 'names-a-line')!.message).toBe('See line 3.');
    for (const d of found) expect(d.message).not.toContain('{{line}}');
  });
});
