// The injection grammar, run as VS Code runs it: vscode-textmate with the
// Oniguruma WebAssembly engine, VS Code's Markdown grammar as the host and
// ours injected into text.html.markdown. Each check names a fragment of a
// line of an example and the scope it must have.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, Tokenized } from './textmate.js';

const example = (name: string) => readFileSync(path.join(ROOT, 'examples', name), 'utf8');

/** The scopes of `fragment` (its `nth` occurrence) on the first line that starts with `line`. */
function scopes(t: Tokenized, line: string, fragment: string, nth = 0): string[] {
  return t.scopesOf(t.lineIndex(line, { prefix: true }), fragment, nth);
}

function msglintScopes(t: Tokenized, line: number): string[] {
  return [...t.lineScopes(line)].filter((s) => s.endsWith('.msglint') || s.includes('.msglint '));
}

describe('coding-session.msg.md', () => {
  let t: Tokenized;
  beforeAll(async () => {
    t = await Tokenized.of(example('coding-session.msg.md'));
  });

  it('scopes a message cell marker: hashes, percents, title and id', () => {
    const line = '# %% The last page is missing[^1]';
    expect(scopes(t, line, '#')).toEqual(['text.html.markdown', 'markup.heading.cell.msglint', 'meta.cell-marker.message.msglint', 'punctuation.definition.cell-marker.hashes.msglint']);
    expect(scopes(t, line, '%%')).toContain('keyword.control.cell-marker.message.msglint');
    expect(scopes(t, line, 'The last page is missing')).toContain('entity.name.section.cell-title.msglint');
    expect(scopes(t, line, '[^')).toContain('punctuation.definition.cell-id.begin.msglint');
    expect(scopes(t, line, '1')).toContain('constant.other.cell-id.msglint');
    expect(scopes(t, line, ']')).toContain('punctuation.definition.cell-id.end.msglint');
    // Not a Markdown heading any more.
    expect(t.lineScopes(t.lineIndex(line))).not.toContain('markup.heading.markdown');
  });

  it('scopes output markers (%%%) apart from message markers, and the segments of derived ids', () => {
    expect(scopes(t, '# %%% Plan[^2]', '%%%')).toContain('keyword.control.cell-marker.output.msglint');
    expect(scopes(t, '# %%% Plan[^2]', '#')).toContain('meta.cell-marker.output.msglint');
    const call = '## %%% Read the file[^2.k7f3q]';
    expect(scopes(t, call, '##')).toContain('punctuation.definition.cell-marker.hashes.msglint');
    expect(scopes(t, call, 'Read the file')).toContain('entity.name.section.cell-title.msglint');
    expect(scopes(t, call, 'k7f3q')).toContain('constant.other.cell-id.msglint');
    expect(scopes(t, call, '.')).toEqual(expect.arrayContaining(['constant.other.cell-id.msglint', 'punctuation.separator.cell-id.msglint']));
    // A code output marker without a title.
    expect(scopes(t, '# %%% [^4.1]', '4')).toContain('constant.other.cell-id.msglint');
  });

  it('scopes metadata lines: id, type, attribute keys and values', () => {
    const line = '[^1]: [markdown] time="2025-05-30T09:00:00+08:00"';
    expect(scopes(t, line, '1')).toEqual(['text.html.markdown', 'meta.metadata.msglint', 'constant.other.cell-id.msglint']);
    expect(scopes(t, line, ':')).toContain('punctuation.separator.key-value.msglint');
    expect(scopes(t, line, 'markdown')).toContain('support.type.cell-type.message.msglint');
    expect(scopes(t, line, 'time')).toContain('entity.other.attribute-name.msglint');
    expect(scopes(t, line, '=')).toContain('punctuation.separator.key-value.msglint');
    expect(scopes(t, line, '2025-05-30T09:00:00+08:00')).toContain('string.quoted.double.msglint');

    const reply = '[^2]: [coder] time="2025-05-30T09:00:04+08:00" reasoning=1';
    expect(scopes(t, reply, 'coder')).toContain('entity.name.type.cell-type.msglint');
    expect(scopes(t, reply, 'reasoning')).toContain('entity.other.attribute-name.msglint');
    expect(scopes(t, reply, '1')).toContain('constant.numeric.msglint');

    const call = '[^2.k7f3q]: [tool] name="read_file"';
    expect(scopes(t, call, 'tool')).toContain('support.type.cell-type.tool.msglint');
    expect(scopes(t, call, 'k7f3q')).toContain('constant.other.cell-id.msglint');
    expect(scopes(t, call, 'read_file')).toContain('string.quoted.double.msglint');

    const result = '[^2.k7f3q.1]: [tool] status="success" duration=0.2s';
    expect(scopes(t, result, 'status')).toContain('entity.other.attribute-name.msglint');
    expect(scopes(t, result, '0.2s')).toContain('constant.numeric.msglint');

    const output = '[^4.1]: [python]';
    expect(scopes(t, output, 'python')).toContain('entity.name.type.cell-type.msglint');
    expect(scopes(t, output, 'text/plain')).toContain('string.quoted.double.msglint');
  });

  it('scopes history values as constants, and summaries as strings', () => {
    const line = '[^5]: [markdown] history=summary summary="asked for a review of the fix"';
    expect(scopes(t, line, 'history')).toContain('entity.other.attribute-name.msglint');
    expect(scopes(t, line, 'summary')).toContain('constant.language.history.msglint');
    expect(scopes(t, line, 'summary', 1)).toContain('entity.other.attribute-name.msglint');
    expect(scopes(t, line, 'asked for a review')).toContain('string.quoted.double.msglint');
  });

  it('scopes <tool> elements as XML, with CDATA', () => {
    const open = t.lineIndex('<tool>');
    expect(t.scopesOf(open, 'tool')).toEqual(['text.html.markdown', 'meta.embedded.block.tool.msglint', 'meta.tag.xml', 'entity.name.tag.xml']);
    expect(t.scopesOf(open, '<')).toContain('punctuation.definition.tag.xml');
    expect(scopes(t, '<server_name>local</server_name>', 'server_name')).toContain('entity.name.tag.xml');
    expect(scopes(t, '<server_name>local</server_name>', 'local')).toEqual(['text.html.markdown', 'meta.embedded.block.tool.msglint']);
    expect(scopes(t, '  <path>paging.py</path>', 'path', 1)).toContain('entity.name.tag.xml');

    const cdata = '  <content><![CDATA[def page_count(total, size):';
    expect(scopes(t, cdata, '<![CDATA[')).toEqual(expect.arrayContaining(['string.unquoted.cdata.xml', 'punctuation.definition.string.begin.xml']));
    expect(scopes(t, cdata, 'def page_count(total, size):')).toContain('string.unquoted.cdata.xml');
    // Inside CDATA, `<=` and quotes are text, not markup.
    expect(scopes(t, '    if size <= 0:', 'if size <= 0:')).toContain('string.unquoted.cdata.xml');
    expect(scopes(t, ']]></content>', ']]>')).toContain('punctuation.definition.string.end.xml');
    expect(scopes(t, ']]></content>', 'content')).toContain('entity.name.tag.xml');
    expect(scopes(t, ']]></content>', 'content')).not.toContain('string.unquoted.cdata.xml');

    // The element ends at </tool>: the next lines are Markdown again.
    const close = t.lineIndex('</tool>');
    expect(t.scopesOf(close, 'tool')).toContain('entity.name.tag.xml');
    expect(scopes(t, 'Floor division drops', 'Floor division')).toEqual(['text.html.markdown', 'meta.paragraph.markdown']);
  });

  it('scopes stdout> prefixes of code output', () => {
    const line = t.lineIndex('stdout> 3');
    expect(t.scopesOf(line, 'stdout')).toEqual(['text.html.markdown', 'meta.output.stdout.msglint', 'keyword.other.stream.stdout.msglint']);
    expect(t.scopesOf(line, '>')).toContain('punctuation.separator.stream.msglint');
    expect(t.scopesOf(line, ' 3')).toEqual(['text.html.markdown', 'meta.output.stdout.msglint']);
  });

  it('leaves a "# %%" comment inside a fenced code block alone', () => {
    const line = t.lineIndex('# %% this comment is code, not a cell marker');
    expect(t.scopesAt(line, 0)).toContain('markup.fenced_code.block.markdown');
    expect(msglintScopes(t, line)).toEqual([]);
  });

  it('adds nothing to the frontmatter or to prose', () => {
    for (let line = 0; line < t.lineIndex('# %% The last page is missing[^1]'); line++) expect(msglintScopes(t, line), t.lines[line]).toEqual([]);
    expect(msglintScopes(t, t.lineIndex('Floor division drops the last partial page. Rounding up fixes it.'))).toEqual([]);
    expect(msglintScopes(t, t.lineIndex('[The count is probably computed with floor division. I should read the file.]'))).toEqual([]);
  });
});

describe('release-notes.md (a message section in an ordinary document)', () => {
  let t: Tokenized;
  beforeAll(async () => {
    t = await Tokenized.of(example('release-notes.md'));
  });

  it('keeps ordinary headings and lists Markdown', () => {
    expect(scopes(t, '# Release notes 2.4', 'Release notes 2.4')).toContain('entity.name.section.markdown');
    expect(scopes(t, '## Highlights', 'Highlights')).toContain('markup.heading.markdown');
    expect(msglintScopes(t, t.lineIndex('# Discussion'))).toEqual([]);
  });

  it('scopes the ## %% markers and metadata of the section', () => {
    const line = '## %% Is the summary accurate?[^1]';
    expect(scopes(t, line, '##')).toContain('punctuation.definition.cell-marker.hashes.msglint');
    expect(scopes(t, line, '%%')).toContain('keyword.control.cell-marker.message.msglint');
    expect(scopes(t, line, 'Is the summary accurate?')).toContain('entity.name.section.cell-title.msglint');
    expect(scopes(t, '## %%% Check the numbers[^2]', '%%%')).toContain('keyword.control.cell-marker.output.msglint');
    expect(scopes(t, '[^2]: [editor] time="2025-06-02T10:00:05Z"', 'editor')).toContain('entity.name.type.cell-type.msglint');
  });
});

describe('temporary-agents.msg.md', () => {
  let t: Tokenized;
  beforeAll(async () => {
    t = await Tokenized.of(example('temporary-agents.msg.md'));
  });

  it('scopes temporary agent definitions as metadata lines of type agent', () => {
    const line = '[^fast]: [agent] models="gpt-4o-mini,gpt-4.1-nano" default=1';
    expect(scopes(t, line, 'fast')).toContain('constant.other.cell-id.msglint');
    expect(scopes(t, line, 'agent')).toContain('storage.type.agent.msglint');
    expect(scopes(t, line, 'models')).toContain('entity.other.attribute-name.msglint');
    expect(scopes(t, line, 'gpt-4o-mini,gpt-4.1-nano')).toContain('string.quoted.double.msglint');
    expect(scopes(t, line, 'default')).toContain('entity.other.attribute-name.msglint');
    expect(scopes(t, '[^gpt-4o]: [agent] models="gpt-4o" temperature=0.3', '0.3')).toContain('constant.numeric.msglint');
    expect(scopes(t, '[^4]: [gpt-4o]', 'gpt-4o')).toContain('entity.name.type.cell-type.msglint');
  });
});

describe('forms the examples do not show', () => {
  const text = [
    '<!-- msglint-disable-file empty-cell -- drafts -->',
    '',
    '#%% Glued[^1]',
    '',
    '[^1]: [markdown] history="exclude" note="say \\"hi\\"" <!-- msglint-disable-line attribute-value -->',
    '',
    '# %%% [^1.1]',
    '',
    '[^1.1]: [python] status="error" history=bogus',
    '',
    'stderr> Traceback (most recent call last):',
    'stdout> *not emphasis*',
    '',
    '## %%% Legacy[^2.ab12c]',
    '',
    '<tool>',
    '{"tool_name": "x"}',
    '</tool>',
    '',
    '## %%% Unclosed[^2.zz99a]',
    '',
    '<tool>',
    '<tool_name a="1">x &amp; y</tool_name>',
    '<arguments><q><![CDATA[</q> # %% not a marker]]></q></arguments>',
    '',
    '# %% After the unclosed tool element[^3]',
    '',
    '    # %% indented code',
    '',
    'Inline `# %% code` and a footnote[^3].',
    '',
    '[^note]: An ordinary footnote.',
  ].join('\n');
  let t: Tokenized;
  beforeAll(async () => {
    t = await Tokenized.of(text);
  });

  it('scopes msglint directives in HTML comments', () => {
    const line = '<!-- msglint-disable-file empty-cell -- drafts -->';
    expect(scopes(t, line, 'msglint-disable-file')).toEqual(['text.html.markdown', 'comment.block.html', 'meta.directive.msglint', 'keyword.control.directive.msglint']);
    expect(scopes(t, line, 'empty-cell')).toContain('variable.other.rule-id.msglint');
    expect(scopes(t, line, ' -- drafts ')).toContain('comment.line.directive-reason.msglint');
    const meta = t.lineIndex('[^1]: [markdown]', { prefix: true });
    expect(t.scopesOf(meta, 'msglint-disable-line')).toEqual(expect.arrayContaining(['meta.metadata.msglint', 'keyword.control.directive.msglint']));
  });

  it('scopes a marker without its space as a marker (the server reports it)', () => {
    expect(scopes(t, '#%% Glued[^1]', '%%')).toContain('keyword.control.cell-marker.message.msglint');
    expect(scopes(t, '#%% Glued[^1]', 'Glued')).toContain('entity.name.section.cell-title.msglint');
  });

  it('scopes quoted history values, escapes, and leaves unknown history values plain', () => {
    const line = '[^1]: [markdown] history="exclude"';
    expect(scopes(t, line, 'exclude')).toContain('constant.language.history.msglint');
    expect(scopes(t, line, '\\"')).toContain('constant.character.escape.msglint');
    expect(scopes(t, '[^1.1]: [python]', 'bogus')).toContain('string.unquoted.msglint');
    expect(scopes(t, '[^1.1]: [python]', 'bogus')).not.toContain('constant.language.history.msglint');
  });

  it('scopes stderr> prefixes, and keeps output text out of Markdown', () => {
    expect(scopes(t, 'stderr> Traceback', 'stderr')).toContain('keyword.other.stream.stderr.msglint');
    expect(scopes(t, 'stdout> *not emphasis*', '*not emphasis*')).toEqual(['text.html.markdown', 'meta.output.stdout.msglint']);
  });

  it('ends an unclosed <tool> element at the next cell marker, and CDATA hides markup', () => {
    expect(scopes(t, '{"tool_name": "x"}', '{"tool_name": "x"}')).toContain('meta.embedded.block.tool.msglint');
    expect(scopes(t, '<tool_name a="1">', 'a', 1)).toContain('entity.other.attribute-name.xml');
    expect(scopes(t, '<tool_name a="1">', 'amp')).toContain('constant.character.entity.xml');
    expect(scopes(t, '<arguments><q><![CDATA[', '</q> # %% not a marker')).toContain('string.unquoted.cdata.xml');
    const after = '# %% After the unclosed tool element[^3]';
    expect(scopes(t, after, '%%')).toEqual(['text.html.markdown', 'markup.heading.cell.msglint', 'meta.cell-marker.message.msglint', 'keyword.control.cell-marker.message.msglint']);
  });

  it('leaves indented code, inline code and ordinary footnotes alone', () => {
    expect(msglintScopes(t, t.lineIndex('    # %% indented code'))).toEqual([]);
    expect(msglintScopes(t, t.lineIndex('Inline', { prefix: true }))).toEqual([]);
    expect(msglintScopes(t, t.lineIndex('[^note]: An ordinary footnote.'))).toEqual([]);
  });
});
