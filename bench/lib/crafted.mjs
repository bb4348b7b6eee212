// Crafted but valid message files that made msglint superlinear (issue 35,
// point 2; issue 46, point 1: Markdown read for an ordinary .md file's
// headings): each generator takes a size n and returns the text, so the
// benchmark's growth section can time n against 4n and a test can lint a
// size that would take minutes if the path were quadratic.
//
// Plain JavaScript without imports: bench/ runs it under Node, and the tests
// import it as they are (test/reliability/crafted.test.ts).

const MESSAGE = '# %% Start[^1]\n\n[^1]: [markdown]\n\nHello.\n\n';

/** A long name: 100 letters, then `i`. Names alike but for their end keep an edit distance's work full. */
const longName = (prefix, i) => `${prefix}${'a'.repeat(100)}${i}`;

/**
 * `n` temporary agents with long names and `n` output cells whose types
 * differ from them by one letter: the "did you mean" of unknown-agent
 * compared every unknown cell with every agent (265 kB at n = 1,100: 44 s).
 */
export function unknownAgents(n) {
  let text = MESSAGE;
  for (let i = 0; i < n; i++) text += `[^${longName('ag', i)}]: [agent]\n\n`;
  for (let i = 0; i < n; i++) text += `# %%% Reply[^${i + 2}]\n\n[^${i + 2}]: [${longName('ax', i)}]\n\nSaid.\n\n`;
  return text;
}

/**
 * `n` cells, each with a disable comment and a diagnostic: disable comments
 * were matched as diagnostics times directives (1 MB: 34 s).
 */
export function disableComments(n) {
  let text = MESSAGE;
  for (let i = 0; i < n; i++) text += `<!-- msglint-disable-next-line attribute-value -->\n# %% Note\n\nText ${i}.\n\n`;
  return text;
}

/**
 * `n` temporary agents, each declared in a cell and answering in the next:
 * the agent of a cell was found by a scan of all agents (100,000 of them,
 * 6 MB: 36 s).
 */
export function temporaryAgents(n) {
  let text = MESSAGE;
  for (let i = 0; i < n; i++) text += `[^agent${i}]: [agent]\n\n# %%% Reply[^${i + 2}]\n\n[^${i + 2}]: [agent${i}]\n\nSaid.\n\n`;
  return text;
}

/** `n` cells sharing one id: the facts were quadratic (3.3 MB: 17 s). */
export function repeatedId(n) {
  let text = MESSAGE;
  for (let i = 0; i < n; i++) text += '# %% Again[^2]\n\n[^2]: [markdown]\n\nText.\n\n';
  return text;
}

/** One cell with `n` metadata lines (0.9 MB: 19 s). */
export function metadataLines(n) {
  let text = MESSAGE;
  for (let i = 0; i < n; i++) text += `[^m${i}]: [markdown] a="b"\n`;
  return text;
}

/** One metadata line with `n` attributes: the line was scanned again for a backslash per value (400,000 attributes, 4.7 MB: 9.7 s). */
export function attributes(n) {
  const parts = [];
  for (let i = 0; i < n; i++) parts.push(`k${i}="x"`);
  return `# %% Start[^1]\n\n[^1]: [markdown] ${parts.join(' ')}\n\nHello.\n`;
}

/**
 * `n` cell markers without the space (`#%%`), each fixed by inserting one:
 * the language server's formatting and fix-all applied edits in quadratic
 * time (80,000 fixes in 400 kB: 10 to 20 s).
 */
export function fixes(n) {
  return '#%%\n'.repeat(n);
}

/** Six extglob groups: picomatch made each one multiply the work by the length of a name. */
export const EXTGLOB_PATTERN = '+(a)+(a)+(a)+(a)+(a)+(a)b';

/** The name of the `i`th file of extglobIgnores(n): `n` letters the pattern's groups can split every way. */
export const extglobName = (n, i) => `${'a'.repeat(n)}${i}.msg.md`;

/**
 * A folder: a config whose `ignores` holds a pattern of extglob groups, and
 * 1,000 message files whose names start with `n` letters. Matching one name
 * took tens of seconds at n = 200 (issue 46, point 3). A tree, by path,
 * rather than a text.
 */
export function extglobIgnores(n) {
  const files = { '.msglintrc.json': JSON.stringify({ ignores: [EXTGLOB_PATTERN] }) };
  for (let i = 0; i < 1000; i++) files[extglobName(n, i)] = MESSAGE;
  return files;
}

/**
 * A conversation of `n` short messages to import (OpenAI's shape; every
 * fourth turn a call and its result): the writer joined the whole file for
 * each cell it appended (20,000 messages: tens of seconds). JSON text, not
 * a message file: the growth section runs `msglint import` on it.
 */
export function importMessages(n) {
  const messages = [];
  for (let i = 0; i < n; i++) {
    if (i % 4 === 3) {
      messages.push({ role: 'assistant', content: null, tool_calls: [{ id: `call_${i}`, type: 'function', function: { name: 'read', arguments: `{"path":"f${i}.txt"}` } }] });
      messages.push({ role: 'tool', tool_call_id: `call_${i}`, content: `Line ${i}.` });
    } else messages.push({ role: i % 2 ? 'assistant' : 'user', content: `Message ${i}.` });
  }
  return JSON.stringify(messages);
}

/**
 * An ordinary `.md` file whose frontmatter declares a message section, with
 * `body` before the section's heading (issue 46, point 1): remark reads the
 * whole file for its headings.
 */
const markdownFile = (body) => `---\nmessage_section: true\n---\n\n# Notes\n\n${body}\n\n# Discussion\n\n# %% Start[^1]\n\n[^1]: [markdown]\n\nHello.\n`;

/** Emphasis opened `n` times and closed `n` times in one paragraph: remark's emphasis was about cubic (28 kB: 28 s). */
export function emphasisRuns(n) {
  return markdownFile(`${'*a **a '.repeat(n)}b${' a** a*'.repeat(n)}`);
}

/** A table of `n` columns (24 kB: 9 s). */
export function wideTable(n) {
  return markdownFile(`${'|a'.repeat(n)}|\n${'|-'.repeat(n)}|\n${'|b'.repeat(n)}|`);
}

/** A table of `n` rows: remark-gfm's cells were quadratic in the file's cells (50 kB: 15 s). */
export function tallTable(n) {
  return markdownFile(`| a | b |\n|---|---|\n${'| c | d |\n'.repeat(n)}`);
}

/** `n` block quotes nested on one line: 10,000 overflowed the stack (exit 2, no report). */
export function deepQuotes(n) {
  return markdownFile(`${'>'.repeat(n)} a`);
}

/** `n` list items nested on one line (2 kB: 5 s; 20 kB: minutes). */
export function deepLists(n) {
  return markdownFile(`${'- '.repeat(n)}a`);
}

/** A quoted paragraph of `n` lazy lines (no `>`): micromark walks back over the paragraph for each. */
export function lazyQuote(n) {
  return markdownFile(`> a\n${'b\n'.repeat(n)}`);
}

/**
 * A paragraph of `n` lines, each with characters where an inline construct
 * may start but none does: micromark joined the text between them again in
 * quadratic time (280 kB: 11 s).
 */
export function inlineBreaks(n) {
  return markdownFile('a & b < c ! d\n'.repeat(n));
}

/**
 * The shapes, with the sizes the growth section times (n and 4n) and where:
 * `cli` by the command, `lsp` by the language server's formatting request;
 * a shape whose `tree` is true makes a folder (files by path), linted whole.
 * `owner` says where the path is kept linear, named by the benchmark when
 * a ratio goes over its goal. `import` shapes are conversations (JSON) that
 * the command imports. `ext`: the file's extension (`msg.md` unless said).
 */
export const CRAFTED = [
  { name: 'unknownAgents', make: unknownAgents, n: 1_000, where: 'cli', owner: 'rules/unknown-agent.ts' },
  { name: 'disableComments', make: disableComments, n: 10_000, where: 'cli', owner: 'server/engine/directives.ts' },
  { name: 'temporaryAgents', make: temporaryAgents, n: 5_000, where: 'cli', owner: 'server/syntax/tree/message-document.ts (agents by name)' },
  { name: 'repeatedId', make: repeatedId, n: 12_500, where: 'cli', owner: 'server/syntax/tree/facts.ts (metadata ownership)' },
  { name: 'metadataLines', make: metadataLines, n: 10_000, where: 'cli', owner: 'server/syntax/format/metadata.ts, server/engine/keyed.ts' },
  { name: 'attributes', make: attributes, n: 50_000, where: 'cli', owner: 'server/syntax/format/metadata.ts' },
  { name: 'fixes', make: fixes, n: 20_000, where: 'lsp', owner: 'server/lsp/ (formatting, fix-all)' },
  { name: 'extglobIgnores', make: extglobIgnores, n: 50, where: 'cli', tree: true, owner: 'server/config/globs.ts (ignore patterns)' },
  { name: 'importMessages', make: importMessages, n: 5_000, where: 'import', ext: 'json', owner: 'server/writer/writer.ts, server/import/write.ts' },
  { name: 'emphasisRuns', make: emphasisRuns, n: 500, where: 'cli', ext: 'md', owner: 'server/syntax/format/heading-blocks.ts' },
  { name: 'wideTable', make: wideTable, n: 1_000, where: 'cli', ext: 'md', owner: 'server/syntax/format/heading-blocks.ts' },
  { name: 'tallTable', make: tallTable, n: 2_000, where: 'cli', ext: 'md', owner: 'server/syntax/format/heading-blocks.ts' },
  { name: 'deepQuotes', make: deepQuotes, n: 2_500, where: 'cli', ext: 'md', owner: 'server/syntax/format/heading-budget.ts' },
  { name: 'deepLists', make: deepLists, n: 1_000, where: 'cli', ext: 'md', owner: 'server/syntax/format/heading-budget.ts' },
  { name: 'lazyQuote', make: lazyQuote, n: 5_000, where: 'cli', ext: 'md', owner: 'server/syntax/format/heading-budget.ts' },
  { name: 'inlineBreaks', make: inlineBreaks, n: 5_000, where: 'cli', ext: 'md', owner: 'server/syntax/format/heading-blocks.ts' },
];
