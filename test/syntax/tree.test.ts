// Exact ranges of the parts of the tree (0-based line, UTF-16 character, offset).
import { describe, expect, it } from 'vitest';
import { parse, type Segment } from '../../server/syntax/document.js';
import type { Span } from '../../server/syntax/format/scan.js';
import { file } from '../helpers.js';

const text = file(
  '---',
  'agents:',
  '  coder:',
  '    models: [gpt-4o]',
  'default_agent: coder',
  '---',
  '',
  '## %%% Plan ü[^2]',
  '',
  '[^2]: [coder] time="2025-05-30T09:00:04+08:00" reasoning=1',
  '',
  'text',
  '',
  '## %%% Tool call[^2.k7f3q]',
  '',
  '[^2.k7f3q]: [tool] name="read_file"',
  '',
  '<tool>',
  '<tool_name>read_file</tool_name>',
  '<arguments><path><![CDATA[a < b]]></path></arguments>',
  '</tool>',
);

describe('syntax tree ranges', () => {
  const doc = parse(text, { fileName: 'x.msg.md' });
  const slice = (seg: Segment, span: Span) => {
    const [a, b] = doc.abs(seg, span);
    return text.slice(a, b);
  };

  it('splits frontmatter and cells', () => {
    expect(doc.segments.map((s) => s.kind)).toEqual(['frontmatter', 'prologue', 'cell', 'cell']);
    expect(doc.cells.map((c) => c.id)).toEqual(['2', '2.k7f3q']);
    expect(doc.cells.map((c) => doc.kindOf(c))).toEqual(['agent-reply', 'tool-call']);
  });

  it('classifies output cells by their type, and without one by the shape of their id', () => {
    const cells = [
      ['# %% Q[^1]', 'message'],
      ['# %%% Out[^1.2]', 'code-output'],
      ['# %%% Call[^1.k7]', 'tool-call'],
      ['# %%% Result[^1.k7.1]', 'tool-result'],
      ['# %%% Deep[^1.k7.1.2]', 'untyped-output'],
      ['# %%% One[^9]', 'untyped-output'],
      ['# %%% None', 'untyped-output'],
      ['# %%% Typed[^3]\n\n[^3]: [tool]', 'tool-call'],
      ['# %%% Typed[^4.k.1]\n\n[^4.k.1]: [tool]', 'tool-result'],
      ['# %%% Run[^5.1]\n\n[^5.1]: [pascal]', 'code-output'],
      ['# %%% Py[^6]\n\n[^6]: [python]', 'code-output'],
      ['# %%% What[^7]\n\n[^7]: [pascal]', 'unknown-output'],
    ];
    const d = parse(cells.map(([c]) => `${c}\n\nx\n`).join('\n'), { fileName: 'x.msg.md' });
    expect(d.cells.map((c) => d.kindOf(c))).toEqual(cells.map(([, t]) => t));
  });

  it('gives every marker part', () => {
    const c = doc.cells[0]!;
    const m = c.marker;
    expect(slice(c, m.hashes)).toBe('##');
    expect(slice(c, m.percents)).toBe('%%%');
    expect(slice(c, m.title!)).toBe('Plan ü');
    expect(slice(c, m.idRef!.refSpan)).toBe('[^2]');
    expect(slice(c, m.idRef!.span)).toBe('2');
    const r = doc.range(...doc.abs(c, m.idRef!.span));
    expect(r.start).toEqual({ line: 7, character: 15, offset: text.indexOf('2]') });
    const t = doc.cells[1]!;
    expect(t.marker.idRef!.segments.map((s) => slice(t, s.span))).toEqual(['2', 'k7f3q']);
  });

  it('gives metadata type, keys and values', () => {
    const c = doc.cells[0]!;
    const md = doc.metadataOf(c)!.node;
    expect(slice(c, md.typeSpan!)).toBe('coder');
    expect(md.attributes.map((a) => [slice(c, a.keySpan), slice(c, a.valueSpan), a.value])).toEqual([
      ['time', '"2025-05-30T09:00:04+08:00"', '2025-05-30T09:00:04+08:00'],
      ['reasoning', '1', '1'],
    ]);
    const r = doc.range(...doc.abs(c, md.attributes[1]!.keySpan));
    expect(r.start.line).toBe(9);
    expect(r.start.character).toBe(text.split('\n')[9]!.indexOf('reasoning'));
  });

  it('gives frontmatter keys and values', () => {
    const fm = doc.frontmatter!;
    expect(fm.entries.map((e) => e.key)).toEqual(['agents', 'default_agent']);
    const agent = fm.agents[0]!;
    expect(text.slice(agent.nameSpan.start, agent.nameSpan.end)).toBe('coder');
    const models = agent.settings[0]!;
    expect(text.slice(models.keySpan.start, models.keySpan.end)).toBe('models');
    expect(text.slice(models.valueSpan.start, models.valueSpan.end)).toBe('[gpt-4o]');
    expect(models.value).toEqual(['gpt-4o']);
  });

  it('gives tool elements and their CDATA sections', () => {
    const c = doc.cells[1]!;
    const [tool] = c.parse.tools;
    expect(tool!.closed).toBe(true);
    expect(slice(c, tool!).startsWith('<tool>')).toBe(true);
    expect(slice(c, tool!).endsWith('</tool>')).toBe(true);
    expect(tool!.cdata.map((x) => slice(c, x))).toEqual(['<![CDATA[a < b]]>']);
  });

  it('counts UTF-16 columns (astral characters take two)', () => {
    const t = file('# %% 😀 title[^1]', '', '[^1]: [markdown]', '', 'x');
    const d = parse(t, { fileName: 'x.msg.md' });
    const c = d.cells[0]!;
    const r = d.range(...d.abs(c, c.marker.idRef!.span));
    expect(r.start.character).toBe('# %% 😀 title[^'.length);
  });
});

describe('opaque regions (spec section 2)', () => {
  const ids = (t: string) => parse(t, { fileName: 'x.msg.md' }).cells.map((c) => c.id ?? '?');

  it('a marker inside a closed fence, comment or CDATA is content', () => {
    expect(ids(file('# %% [^1]', '```', '# %% [^2]', '```', '# %% [^3]'))).toEqual(['1', '3']);
    expect(ids(file('# %% [^1]', '~~~~', '# %% [^2]', '~~~', '~~~~', '# %% [^3]'))).toEqual(['1', '3']);
    expect(ids(file('# %% [^1]', '<!--', '# %% [^2]', '-->', '# %% [^3]'))).toEqual(['1', '3']);
    expect(ids(file('# %%% [^1.abcd]', '<tool><tool_name>x</tool_name><arguments><a><![CDATA[', '# %% [^2]', ']]></a></arguments></tool>', '# %% [^3]'))).toEqual(['1.abcd', '3']);
  });

  it('CDATA outside a tool element is not opaque', () => {
    expect(ids(file('# %% [^1]', '<![CDATA[', '# %% [^2]', ']]>'))).toEqual(['1', '2']);
  });

  it('an unclosed fence, comment or CDATA hides nothing', () => {
    expect(ids(file('# %% [^1]', '```', '# %% [^2]', 'x'))).toEqual(['1', '2']);
    expect(ids(file('# %% [^1]', '<!--', '# %% [^2]'))).toEqual(['1', '2']);
    expect(ids(file('# %%% [^1.abcd]', '<tool><![CDATA[', '# %% [^2]'))).toEqual(['1.abcd', '2']);
  });

  it('a shorter or different fence does not close', () => {
    expect(ids(file('# %% [^1]', '````', '```', '# %% [^2]', '~~~~', '````', '# %% [^3]'))).toEqual(['1', '3']);
  });

  it('frontmatter is opaque, and an unclosed one is not frontmatter', () => {
    expect(ids(file('---', 'x: 1', '# %% [^9]', '---', '# %% [^1]'))).toEqual(['1']);
    expect(ids(file('---', 'x: 1', '# %% [^1]'))).toEqual(['1']);
  });

  it('indentation of four spaces makes a code block, not a marker', () => {
    expect(ids(file('# %% [^1]', '    # %% [^2]'))).toEqual(['1']);
  });

  it('many unclosable fences stay linear', () => {
    const t = '# %% [^1]\n' + '````a\n```\n'.repeat(20000);
    expect(parse(t, { fileName: 'x.msg.md' }).cells.length).toBe(1);
  });
});

describe('ordinary Markdown files (spec section 1)', () => {
  it('is not a message file without message_section', () => {
    expect(parse(file('# Title', '# %% [^1]'), { fileName: 'notes.md' }).isMessageFile).toBe(false);
  });
  it('finds the section and the cells in it', () => {
    const t = file('---', 'message_section: true', '---', '# %% [^0]', '# Doc', 'text', '# Discussion', '## %% [^1]', '', '[^1]: [markdown]', '', 'hi');
    const doc = parse(t, { fileName: 'notes.md' });
    expect(doc.isMessageFile).toBe(true);
    expect(doc.section?.name).toBe('Discussion');
    expect(doc.cells.map((c) => c.id)).toEqual(['1']);
    expect(doc.outsideMarkers.length).toBe(1);
  });
});

describe('code output lines', () => {
  it('gives each stdout/stderr line with its prefix and content', async () => {
    const { outputLines } = await import('../../server/syntax/tree/output.js');
    const t = file('# %% [^1]', '', '[^1]: [code]', '', '```python', 'print(1)', '```', '', '# %%% [^1.1]', '', '[^1.1]: [python] status="success"', '', 'stdout> 1', 'stdout>', 'stderr> warn', 'oops');
    const doc = parse(t, { fileName: 'x.msg.md' });
    const c = doc.cells[1]!;
    const rows = outputLines(c).map((o) => [o.stream, o.prefix ? t.slice(...doc.abs(c, o.prefix)) : null, t.slice(...doc.abs(c, o.content))]);
    expect(rows).toEqual([
      ['stdout', 'stdout> ', '1'],
      ['stdout', 'stdout>', ''],
      ['stderr', 'stderr> ', 'warn'],
      [null, null, 'oops'],
    ]);
  });
});
