import { describe, expect, it } from 'vitest';
import { file } from '../helpers.js';
import { parse } from '../../server/syntax/document.js';
import { isTextualMimeType } from '../../server/llm-view/mime.js';
import { bodyText, contentLines, contributionText, historyMode, inView, llmView, summaryText, systemPromptFor, viewRole } from '../../server/llm-view/view.js';
import { SPEC_MD, SPEC_MSG } from './examples.js';

const doc = (text: string, fileName = 'test.msg.md') => parse(text, { fileName });
const cell = (text: string, id: string) => doc(text).cellsById.get(id)![0]!;
/** The body text of the cell `id` of `text`, read through its version. */
const bodyOf = (text: string, id: string) => {
  const d = doc(text);
  return bodyText(d, d.cellsById.get(id)![0]!);
};

describe('llmView', () => {
  it('lists the cells of the spec example with their roles and contributions', () => {
    const d = doc(SPEC_MSG);
    const view = llmView(d);
    expect(view.map((e) => [e.cell.id, e.role, e.contributes, contributionText(d, e)])).toEqual([
      ['1', 'user', 'body', 'Please fix `add` in app.py.'],
      ['2', 'assistant', 'body', '[I should read the file first.]'],
      ['2.k7f3q', 'tool-call', 'body', '<tool>\n<server_name>local</server_name>\n<tool_name>read_file</tool_name>\n<arguments>\n  <path>app.py</path>\n</arguments>\n</tool>'],
      ['2.k7f3q.1', 'tool-result', 'body', 'def add(a, b):\n    return a - b'],
      ['3', 'user', 'summary', 'ran a quick check'],
      ['3.1', 'code-output', 'body', '2'],
    ]);
  });

  it('has the cells of the message section only in an ordinary .md file', () => {
    const d = doc(SPEC_MD, 'notes.md');
    const view = llmView(d);
    expect(view.map((e) => contributionText(d, e))).toEqual(['Is the summary accurate?']);
  });

  it('skips excluded cells, whatever spelling of the value', () => {
    const text = file(
      ...['exclude', 'none', '0', 'false', 'include', '1', 'true', 'summary', 'bogus'].flatMap((v, i) => [`# %% Cell ${i}[^${i}]`, '', `[^${i}]: [markdown] history=${v}`, '', `text ${i}`, '']),
      '# %% No metadata[^x]',
      '',
      'plain',
    );
    const view = llmView(doc(text));
    expect(view.map((e) => [e.cell.id, e.contributes])).toEqual([
      ['4', 'body'],
      ['5', 'body'],
      ['6', 'body'],
      ['7', 'summary'],
      ['8', 'body'],
      ['x', 'body'],
    ]);
  });
});

describe('historyMode and inView', () => {
  it('reads the history attribute, defaulting to include', () => {
    const text = file('# %% A[^1]', '', '[^1]: [markdown] history=summary', '', 'a', '', '# %% B[^2]', '', '[^2]: [markdown]', '', 'b', '', '# %% C[^3]', '', '[^3]: [markdown] history="none"', '', 'c');
    const d = doc(text);
    expect(d.cells.map((c) => historyMode(d, c))).toEqual(['summary', 'include', 'exclude']);
    expect(d.cells.map((c) => inView(d, c))).toEqual([true, true, false]);
  });
});

describe('viewRole', () => {
  it('maps cell types to roles; unknown and untyped outputs are assistant messages', () => {
    const text = file('# %% Q[^1]', '', '[^1]: [markdown]', '', 'q', '', '# %%% A[^2]', '', '[^2]: [nobody]', '', 'a', '', '# %%% B[^3]', '', 'b');
    const d = doc(text);
    expect(d.cells.map((c) => viewRole(d, c))).toEqual(['user', 'assistant', 'assistant']);
  });
});

describe('bodyText', () => {
  it('drops the marker, metadata lines, comment lines and blank ends, and keeps footnotes', () => {
    const text = file(
      '# %% Q[^1]',
      '',
      '<!-- msglint-disable-next-line empty-cell -->',
      '[^1]: [markdown]',
      '',
      'First line.[^n]',
      '<!--',
      'a note',
      '-->',
      '',
      'Second line. <!-- inline -->',
      '',
      '[^n]: An ordinary footnote.',
      '[^fast]: [agent] models="gpt-4o-mini"',
      '',
    );
    expect(bodyOf(text, '1')).toBe('First line.[^n]\n\nSecond line. <!-- inline -->\n\n[^n]: An ordinary footnote.');
  });

  it('gives a code cell its code block only, or its body without one', () => {
    const text = file('# %% Run[^1]', '', '[^1]: [code]', '', 'Let me check:', '', '```python', 'x = 1', 'print(x)', '```', '', 'Then more.', '', '# %% Run[^2]', '', '[^2]: [code]', '', 'no block');
    expect(bodyOf(text, '1')).toBe('x = 1\nprint(x)');
    expect(bodyOf(text, '2')).toBe('no block');
    expect(bodyOf(text.replace(/\n/g, '\r\n'), '1')).toBe('x = 1\r\nprint(x)');
  });

  it('strips stdout> from code output and keeps stderr> marked', () => {
    const text = file('# %% Run[^1]', '', '[^1]: [code]', '', '```python', 'print(1)', '```', '', '# %%% [^1.1]', '', '[^1.1]: [python]', '', 'stdout> 1', 'stdout>', 'stderr> careful', 'stdout>   two');
    expect(bodyOf(text, '1.1')).toBe('1\n\nstderr> careful\n  two');
  });

  it('joins lines by a line feed whatever the file ends them with, escaped lines unescaped', () => {
    const text = file('# %% Q[^1]', '', '[^1]: [markdown]', '', 'a', '', 'b  ', '\\# %% not a cell', 'c');
    expect(bodyOf(text, '1')).toBe('a\n\nb  \n# %% not a cell\nc');
    expect(bodyOf(text.replace(/\n/g, '\r\n'), '1')).toBe('a\n\nb  \n# %% not a cell\nc');
    expect(bodyOf(text.replace('\\# %% not a cell\n', ''), '1')).toBe('a\n\nb  \nc');
  });

  it('gives a binary output its MIME type and its base64 as one string', () => {
    const text = file('# %% Run[^1]', '', '[^1]: [code]', '', '```python', 'plot()', '```', '', '# %%% [^1.1]', '', '[^1.1]: [python] mime_type="image/png"', '', 'iVBO', 'stdout> Rw0K', 'stderr> note');
    expect(bodyOf(text, '1.1')).toBe('[image/png base64]\niVBORw0K\nstderr> note');
  });
});

describe('contentLines', () => {
  it('keeps inner blank lines and drops outer ones', () => {
    const c = cell(file('# %% Q[^1]', '', '[^1]: [markdown]', '', '', 'a', '', 'b', '', ''), '1');
    expect(contentLines(c).map((l) => c.text.slice(l.start, l.contentEnd))).toEqual(['a', '', 'b']);
  });
});

describe('summaryText', () => {
  it('is the summary attribute, else the title', () => {
    const text = file('# %% The title[^1]', '', '[^1]: [markdown] history=summary summary="  short  "', '', 'long', '', '# %% Other title[^2]', '', '[^2]: [markdown] history=summary', '', 'long');
    const d = doc(text);
    expect(d.cells.map((c) => summaryText(d, c))).toEqual(['short', 'Other title']);
  });
});

describe('systemPromptFor', () => {
  const text = file(
    '---',
    'agents:',
    '  coder:',
    '    system_prompt: Be careful.',
    '  critic:',
    '    system_prompt: Be harsh.',
    '  plain: {}',
    'default_agent: coder',
    '---',
    '',
    '# %% Q[^1]',
    '',
    '[^1]: [markdown]',
    '',
    'q',
    '',
    '# %%% A[^2]',
    '',
    '[^2]: [critic]',
    '',
    'a',
    '',
    '# %%% B[^3]',
    '',
    '[^3]: [plain]',
    '',
    'b',
  );
  it("is a reply's own agent's (none when it has none, as export sends none), else the default agent's", () => {
    const d = doc(text);
    expect(d.cells.map((c) => systemPromptFor(d, c))).toEqual(['Be careful.', 'Be harsh.', undefined]);
  });
});

describe('isTextualMimeType', () => {
  it('knows text from binary', () => {
    for (const t of ['text/plain', 'text/html; charset=utf-8', 'TEXT/CSV', 'application/json', 'application/ld+json', 'image/svg+xml', 'application/vnd.jupyter.widget-view+json', 'application/javascript', 'application/x-yaml']) {
      expect(isTextualMimeType(t), t).toBe(true);
    }
    for (const t of ['image/png', 'image/jpeg', 'application/pdf', 'application/octet-stream', 'audio/wav', 'video/mp4', 'application/zip']) {
      expect(isTextualMimeType(t), t).toBe(false);
    }
  });
});
