// The keystrokes of issue 21, in random sequences, as an editor sends them
// (one change with its range): a metadata value, a tool call's XML, a marker
// or id, a fence opened or closed, prose, a pasted block of cells, a deleted
// cell. After every one, the diagnostics of the version made from the
// previous one (cell parses and cached segment findings reused) equal a
// fresh full lint of the same text.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lint, lintDocument, parseForLint } from '../../server/linter.js';

const read = (p: string) => readFileSync(fileURLToPath(new URL(p, import.meta.url)), 'utf8');
// A context window the later replies exceed: context-window finds something.
const base =
  read('../../examples/coding-session.msg.md').replace('context_window: 128000', 'context_window: 150') +
  '\n' +
  read('../fixtures/showcase.msg.md').replace(/^---[\s\S]*?---\n/, '');

const KINDS = ['value', 'xml', 'marker', 'fence', 'prose', 'paste', 'deleteCell', 'sharedId', 'duplicateId', 'doubtfulId', 'metadataElsewhere', 'newCell', 'paste50', 'fenceTyped', 'typeIsLanguage'] as const;
type Kind = (typeof KINDS)[number];
interface Edit {
  at: number;
  remove: number;
  insert: string;
}

/** Start offsets of the matches of `re` (global) in `text`, and their lengths. */
function spans(text: string, re: RegExp): [number, number][] {
  return [...text.matchAll(re)].map((m) => [m.index!, m[0].length]);
}
const pick = <T,>(xs: T[], r: number): T | undefined => xs[Math.floor(r * xs.length)];

const CELLS = /^#{1,3} %%[^\n]*\n(?:(?!#{1,3} %%)[^\n]*\n)*/gm;
/** Ids on marker lines, and where they are. */
const markerIds = (text: string): [number, number][] => spans(text, /(?<=^#{1,3} %%[^\n]*\[\^)[^\]\n]+(?=\]$)/gm);

/** The edits of one step: a keystroke, a paste or a cut, or a cell typed at the end one character at a time. */
function keystrokes(text: string, kind: Kind, r: number, s: number): Edit[] {
  switch (kind) {
    case 'newCell': {
      const id = 700 + Math.floor(r * 100);
      const cell = `\n# %% Next question[^${id}]\n\n[^${id}]: [markdown] history=include\n\nWhy does it fail?\n`;
      const end = text.length;
      // Typed whole, or stopped somewhere along the way.
      return [...cell.slice(0, s < 0.5 ? cell.length : Math.floor(s * cell.length))].map((ch, i) => ({ at: end + i, remove: 0, insert: ch }));
    }
    case 'fenceTyped': {
      // A fence typed one character at a time, with a language no other block names, at the end of the file or in a message:
      // left unclosed at the end, or closed by a later fence that hides the markers between.
      const l = pick(spans(text, /^[A-Z][^\n]*$/gm), r);
      const at = s < 0.4 || !l ? text.length : l[0];
      const fence = ['\n```zq\nx = 1\n```\n', '\n~~~Zq\n', '\n````\n', '\n```zq x\n'][Math.floor(s * 997) % 4]!;
      const typed = fence.slice(0, (s * 7) % 1 < 0.5 ? fence.length : Math.floor(((s * 7) % 1) * fence.length));
      return [...typed].map((ch, i) => ({ at: at + i, remove: 0, insert: ch }));
    }
    case 'paste50': {
      // Cells of the file again, with ids no cell has (a prefix on every root), up to 50 of them.
      const cells = spans(text, CELLS);
      const from = Math.floor(r * cells.length);
      const block = cells.slice(from, from + 50);
      if (!block.length) return [];
      const pasted = text.slice(block[0]![0], block[block.length - 1]![0] + block[block.length - 1]![1]).replace(/\[\^(?=[A-Za-z0-9])/g, `[^p${Math.floor(s * 9)}`);
      const to = pick(cells, s) ?? [text.length, 0];
      return [{ at: to[0], remove: 0, insert: pasted }];
    }
  }
  const e = keystroke(text, kind, r, s);
  return e ? [e] : [];
}

/** One keystroke of a kind at a place chosen by `r` and `s` (in [0, 1)), or a paste or cut. */
function keystroke(text: string, kind: Kind, r: number, s: number): Edit | undefined {
  const typeOrDelete = (start: number, len: number, chars: string[]): Edit => {
    const at = start + Math.floor(s * (len + 1));
    if (s < 0.35 && at > start) return { at: at - 1, remove: 1, insert: '' };
    return { at, remove: 0, insert: chars[Math.floor(s * 1000) % chars.length]! };
  };
  switch (kind) {
    case 'value': {
      const v = pick(spans(text, /(?<=^\[\^[^\]\n]*\]: [^\n]*=)("[^"\n]*"|[^\s"]+)/gm), r);
      return v && typeOrDelete(v[0], v[1], ['a', '_', '1', '"', ' ', 'e']);
    }
    case 'xml': {
      const t = pick(spans(text, /<tool>[\s\S]*?<\/tool>/g), r);
      return t && typeOrDelete(t[0], t[1], ['<', '>', '/', 'a', '<mode>', '</mode>', '"', '\n', ']]>']);
    }
    case 'marker': {
      const m = pick(spans(text, /^#{1,3} %%[^\n]*/gm), r);
      return m && typeOrDelete(m[0], m[1], ['.', 'x', '1', ']', '[^', '%', ' ']);
    }
    case 'fence': {
      const l = pick(spans(text, /^[A-Z][^\n]*$/gm), r);
      return l && { at: l[0], remove: 0, insert: ['```\n', '```python\n', '~~~\n', '\n```\n'][Math.floor(s * 4)]! };
    }
    case 'prose': {
      const l = pick(spans(text, /^[A-Z][^\n]*$/gm), r);
      return l && typeOrDelete(l[0], l[1], ['a', ' ', 'e', '.', '\n']);
    }
    case 'paste': {
      const cells = spans(text, /^#{1,3} %%[^\n]*\n(?:(?!#{1,3} %%)[^\n]*\n)*/gm);
      const from = Math.floor(r * cells.length);
      const block = cells.slice(from, from + 1 + Math.floor(s * 5));
      if (!block.length) return undefined;
      const to = pick(cells, s) ?? [text.length, 0];
      return { at: to[0], remove: 0, insert: text.slice(block[0]![0], block[block.length - 1]![0] + block[block.length - 1]![1]) };
    }
    case 'deleteCell': {
      const c = pick(spans(text, CELLS), r);
      return c && { at: c[0], remove: c[1], insert: '' };
    }
    case 'sharedId': {
      // An id with dots (a tool call, a result, a code output), or its root's: typed into or deleted from.
      const ids = markerIds(text);
      const dotted = ids.filter(([at, len]) => text.slice(at, at + len).includes('.'));
      const id = pick(s < 0.7 ? dotted : ids, r);
      return id && typeOrDelete(id[0], id[1], ['1', 'k', '.', '2', 'x']);
    }
    case 'duplicateId': {
      // One cell's id becomes another's, or back: duplicate ids and the cells they make doubtful.
      const ids = markerIds(text);
      const a = pick(ids, r);
      const b = pick(ids, s);
      return a && b && { at: a[0], remove: a[1], insert: text.slice(b[0], b[0] + b[1]) };
    }
    case 'doubtfulId': {
      // An id that stops fitting (a space, an empty segment) or goes away.
      const id = pick(markerIds(text), r);
      if (!id) return undefined;
      if (s < 0.3) return { at: id[0] - 2, remove: id[1] + 3, insert: '' };
      return { at: id[0] + Math.floor(s * id[1]), remove: 0, insert: [' ', '..', '!'][Math.floor(s * 3)]! };
    }
    case 'typeIsLanguage': {
      // A metadata line's type becomes a language a fence may name (fenceTyped): the cell's kind depends on the code blocks elsewhere.
      const t = pick(spans(text, /(?<=^\[\^[^\]\n]*\]: \[)[^\]\n]*/gm), r);
      return t && { at: t[0], remove: t[1], insert: ['zq', 'ZQ', 'z'][Math.floor(s * 3)]! };
    }
    case 'metadataElsewhere': {
      // A metadata line for another cell's id (or a reference to it in text, or to an id no cell has), in a cell that is not that one.
      const id = pick(markerIds(text), r);
      const l = pick(spans(text, /^[A-Z][^\n]*$/gm), s);
      if (!id || !l) return undefined;
      if (s < 0.2) return { at: l[0] + l[1], remove: 0, insert: `[^${r < 0.5 ? text.slice(id[0], id[0] + id[1]) : 'n' + Math.floor(s * 50)}]` };
      if (s < 0.3) return { at: l[0], remove: 0, insert: `[^n${Math.floor(s * 50)}]: [markdown] x\n\n` };
      const type = ['markdown', 'tool', 'python', 'agent'][Math.floor(s * 997) % 4];
      return { at: l[0], remove: 0, insert: `[^${text.slice(id[0], id[0] + id[1])}]: [${type}] status="ok"\n\n` };
    }
  }
}

/** Types `keys` from `base`, comparing each lint with a fresh one; counts the versions that kept the cells (the editor's path). */
function typeAndCompare(keys: readonly { kind: Kind; r: number; s: number; hint: boolean }[]): { kept: number } {
  let text = base;
  let kept = 0;
  let doc = parseForLint(text, { fileName: 'a.msg.md' });
  lintDocument(doc, { reportUnusedDisableDirectives: true });
  for (const k of keys) {
    for (const e of keystrokes(text, k.kind, k.r, k.s)) {
      text = text.slice(0, e.at) + e.insert + text.slice(e.at + e.remove);
      const edit = k.hint ? { start: e.at, oldEnd: e.at + e.remove, text: e.insert } : undefined;
      doc = parseForLint(text, { fileName: 'a.msg.md', previous: doc, edit });
      if (!!doc.edit?.replaced) kept++;
      const incremental = lintDocument(doc, { reportUnusedDisableDirectives: true });
      expect(incremental).toEqual(lint(text, { fileName: 'a.msg.md', reportUnusedDisableDirectives: true }).diagnostics);
    }
  }
  return { kept };
}

describe('incremental lint, cases the property found', () => {
  it('a disable comment typed and deleted one character at a time', () => {
    const start = ['# %% Q[^7]', '', 'Question?', '', '# %% Notes[^9]', '', '[^9]: [markdown]', '[^7]: [python]', ''].join('\n');
    const comment = '<!-- msglint-disable cell-type -->\n';
    const at = start.indexOf('Question?');
    let text = start;
    let doc = parseForLint(text, { fileName: 'a.msg.md' });
    lintDocument(doc);
    const steps = [...comment].map((ch, i) => ({ start: at + i, oldEnd: at + i, text: ch }));
    for (let i = comment.length; i > 0; i--) steps.push({ start: at + i - 1, oldEnd: at + i, text: '' });
    for (const e of steps) {
      text = text.slice(0, e.start) + e.text + text.slice(e.oldEnd);
      doc = parseForLint(text, { fileName: 'a.msg.md', previous: doc, edit: e });
      expect(lintDocument(doc)).toEqual(lint(text, { fileName: 'a.msg.md' }).diagnostics);
      if (text === start.slice(0, at) + comment + start.slice(at)) expect(lintDocument(doc).map((d) => d.ruleId)).not.toContain('cell-type');
    }
  });

  it('a cell whose metadata line lies in a later cell, with cells pasted and typed between them', () => {
    // cell-type reports at the type in the later cell: the distance between them is part of what the cell's findings depend on.
    let text = ['# %% Q[^7]', '', 'Question?', '', '# %% Middle[^8]', '', '[^8]: [markdown]', '', 'Some prose.', '', '# %% Notes[^9]', '', '[^9]: [markdown]', '[^7]: [python]', ''].join('\n');
    let doc = parseForLint(text, { fileName: 'a.msg.md' });
    expect(lintDocument(doc).map((d) => d.ruleId)).toContain('cell-type');
    const at = text.indexOf('# %% Notes');
    for (const insert of ['# %% New[^10]\n\n[^10]: [markdown]\n\n', '#', ' ', '%', '%', '\n']) {
      const e = { start: at, oldEnd: at, text: insert };
      text = text.slice(0, at) + insert + text.slice(at);
      doc = parseForLint(text, { fileName: 'a.msg.md', previous: doc, edit: e });
      expect(!!doc.edit?.replaced).toBe(true);
      expect(lintDocument(doc)).toEqual(lint(text, { fileName: 'a.msg.md' }).diagnostics);
    }
  });

  it('a fence typed with the edit after versions made without it (cells by id read from the cells by index)', () => {
    typeAndCompare([
      { kind: 'deleteCell', r: 0, s: 0, hint: false },
      { kind: 'duplicateId', r: 0, s: 0, hint: false },
      { kind: 'fence', r: 0, s: 0, hint: true },
    ]);
  });

  it('a fence typed with a language a metadata line names as its type (the line names a code output then)', () => {
    typeAndCompare([
      { kind: 'fenceTyped', r: 0, s: 0, hint: false },
      { kind: 'typeIsLanguage', r: 0.043478260869565216, s: 0, hint: false },
      { kind: 'fenceTyped', r: 0, s: 0, hint: true },
      { kind: 'value', r: 0, s: 0, hint: false },
    ]);
  });

  it('a pasted block repeats cells (one parse for two segments), then a value is typed', () => {
    // The pasted cells share their parses with the originals: a segment's cached findings are its own.
    expect(typeAndCompare([{ kind: 'paste', r: 0.64, s: 0.8, hint: false }, { kind: 'value', r: 0, s: 0, hint: true }, { kind: 'value', r: 0, s: 0, hint: false }]).kept).toBe(1);
  });
});

let keptCells = 0;

describe('incremental lint, the keystrokes of issue 21', () => {
  it('equals a fresh lint after every keystroke', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ kind: fc.constantFrom(...KINDS), r: fc.double({ min: 0, max: 0.999, noNaN: true }), s: fc.double({ min: 0, max: 0.999, noNaN: true }), hint: fc.boolean() }), {
          minLength: 1,
          maxLength: 12,
        }),
        (keys) => {
          keptCells += typeAndCompare(keys).kept;
        },
      ),
      { numRuns: Number(process.env.KEYSTROKE_RUNS ?? 120) },
    );
    // The property above covers the versions that keep the previous one's cells (parseAcross).
    expect(keptCells).toBeGreaterThan(100);
  });
});
