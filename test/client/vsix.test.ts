// The packaged extension, without VS Code (none can be downloaded here):
// - the .vsix holds the bundles, the grammar, the snippets and a manifest
//   whose activation events, commands and settings match the client code;
// - the packaged extension.js, loaded with a stand-in `vscode` module,
//   activates, registers exactly the contributed commands and starts the
//   bundled server over IPC;
// - the bundled server, run from the unpacked .vsix outside the repository
//   (so it cannot fall back on node_modules), answers over stdio.
// The .vsix is packed once, in beforeAll (a few seconds).

import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { ClientCapabilities, CodeAction, Command, Diagnostic, DocumentDiagnosticReport, TextEdit } from 'vscode-languageserver-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lint } from '../../server/index.js';
import { EXPORT_FORMATS } from '../../server/export/index.js';
import { BROWSER_MAIN, BROWSER_SERVER_MODULE, COMMANDS, EXPORT_TARGETS, DOCUMENT_SELECTOR, FIX_ALL_KIND, SERVER_FIX_ALL_COMMAND, SERVER_MODULE, SETTINGS } from '../../client/src/constants.js';
import { legacyRewriteEdits } from '../../client/src/legacy.js';
import { FakeTextDocument, fakeContext, installFakeVscode, type FakeMemento, type FakeVscode } from './fake-vscode.js';
import { CLIENT, packExtension, startServer, type Packed, type ServerSession } from './vsix.js';

const require = createRequire(import.meta.url);
const CLI = path.join(CLIENT, '..', 'dist/cli/main.js');
const sourceManifest = require(path.join(CLIENT, 'package.json')) as Manifest;

interface Manifest {
  name: string;
  publisher: string;
  version: string;
  main: string;
  activationEvents: string[];
  engines: { vscode: string };
  contributes: {
    commands: { command: string; title: string; category?: string }[];
    configuration: { properties: Record<string, unknown> };
    grammars: { scopeName: string; path: string; injectTo?: string[] }[];
    snippets: { language: string; path: string }[];
    menus?: { commandPalette?: { command: string }[] };
  };
}

/** An OpenAI conversation with an image part, which a message file cannot hold. */
const CONVERSATION = JSON.stringify([
  { role: 'user', content: [{ type: 'text', text: 'What is in this picture?' }, { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } }] },
  { role: 'assistant', content: 'A cat.' },
]);

/** A message file with two legacy JSON tool calls. */
const LEGACY = [
    '---',
    'agents:',
    '  coder:',
    '    models: [gpt-4o]',
    '---',
    '',
    '# %%% Plan[^1]',
    '',
    '[^1]: [coder]',
    '',
    'I will read two files.',
    '',
    '## %%% Read[^1.k7f3q]',
    '',
    '[^1.k7f3q]: [tool] name="read_file"',
    '',
    '<tool>',
    '{"server_name": "local", "tool_name": "read_file", "arguments": {"path": "app.py"}}',
    '</tool>',
    '',
    '## %%% Result[^1.k7f3q.1]',
    '',
    '[^1.k7f3q.1]: [tool] status="success"',
    '',
    'print(1)',
    '',
    '## %%% Read more[^1.p4x8z]',
    '',
    '[^1.p4x8z]: [tool] name="read_file"',
    '',
    '<tool>',
    '{"tool_name": "read_file", "arguments": {"path": "lib.py"}}',
    '</tool>',
    '',
    '## %%% Result[^1.p4x8z.1]',
    '',
    '[^1.p4x8z.1]: [tool] status="success"',
    '',
    'print(2)',
    '',
  ].join('\n');

const BROKEN = '#%% [^1]\n\n[^1]: [markdown]\n\nHello.\n';

let packed: Packed;
let manifest: Manifest;

beforeAll(async () => {
  packed = await packExtension();
  manifest = JSON.parse(packed.zip.text('extension/package.json')) as Manifest;
}, 120_000);

afterAll(() => packed?.cleanup());

const inVsix = (p: string) => `extension/${p.replace(/^\.\//, '')}`;

describe('the .vsix', () => {
  it('holds the two bundles, the grammar, the snippets, the manifest, the readme and the license', () => {
    const names = packed.zip.names;
    for (const name of [
      'extension.vsixmanifest',
      'extension/package.json',
      'extension/readme.md',
      'extension/LICENSE.txt',
      'extension/dist/extension.js',
      `extension/${SERVER_MODULE}`,
      'extension/syntaxes/msglint.injection.tmLanguage.json',
      'extension/snippets/msglint.json',
    ]) {
      expect(names, name).toContain(name);
    }
  });

  it('is self-contained and holds nothing of the sources', () => {
    const names = packed.zip.names;
    expect(names.filter((n) => n.includes('node_modules/'))).toEqual([]);
    expect(names.filter((n) => /\.(ts|map)$/.test(n) || n.includes('/src/') || n.endsWith('build.mjs'))).toEqual([]);
    // The server bundle carries its dependencies: the YAML parser and the language server library.
    const server = packed.zip.text(`extension/${SERVER_MODULE}`);
    expect(server).toContain('msglint-language-server');
    expect(server).toMatch(/createConnection/);
    expect(server).not.toMatch(/require\(["'](yaml|picomatch|ignore|fast-xml-parser|vscode-languageserver[^"']*)["']\)/);
  });

  it('has the manifest from client/package.json, with identity and engine in the vsixmanifest', () => {
    expect(manifest).toEqual(sourceManifest);
    const vsixmanifest = packed.zip.text('extension.vsixmanifest');
    expect(vsixmanifest).toContain(`Id="${manifest.name}"`);
    expect(vsixmanifest).toContain(`Version="${manifest.version}"`);
    expect(vsixmanifest).toContain(`Publisher="${manifest.publisher}"`);
    expect(vsixmanifest).toContain(`<Property Id="Microsoft.VisualStudio.Code.Engine" Value="${manifest.engines.vscode}" />`);
  });

  it('points main, grammars and snippets at files that are in it', () => {
    expect(packed.zip.has(inVsix(manifest.main))).toBe(true);
    expect(manifest.main.replace(/^\.\//, '')).toBe('dist/extension.js');
    for (const g of manifest.contributes.grammars) expect(packed.zip.has(inVsix(g.path)), g.path).toBe(true);
    for (const s of manifest.contributes.snippets) expect(packed.zip.has(inVsix(s.path)), s.path).toBe(true);
  });

  it('applies the config schema to .msglintrc.json, .msglintrc.jsonc and to package.json\'s msglint key', () => {
    const [rc, pkg] = manifest.contributes.jsonValidation as { fileMatch: string[]; url: string }[];
    expect(rc!.fileMatch).toEqual(['.msglintrc.json', '.msglintrc.jsonc']);
    expect(pkg!.fileMatch).toEqual(['package.json']);
    const shipped = JSON.parse(readFileSync(path.join(CLIENT, '..', 'msglint.schema.json'), 'utf8')) as { properties: object };
    const schema = JSON.parse(packed.zip.text(inVsix(rc!.url))) as { properties: object };
    expect(schema).toEqual(shipped);
    const wrapped = JSON.parse(packed.zip.text(inVsix(pkg!.url))) as { properties: { msglint: { properties: object } } };
    expect(wrapped.properties.msglint.properties).toEqual(shipped.properties);
    // Comments in the config files, not in package.json, which npm reads as JSON.
    expect(schema).toMatchObject({ allowComments: true, allowTrailingCommas: true });
    expect(JSON.stringify(wrapped)).not.toMatch(/allowComments|allowTrailingCommas/);
  });

  it('carries the browser entry for VS Code for the Web and its worker server, with nothing of Node in them', () => {
    expect(manifest.browser.replace(/^\.\//, '')).toBe(BROWSER_MAIN);
    for (const f of [BROWSER_MAIN, BROWSER_SERVER_MODULE]) {
      expect(packed.zip.has(inVsix(f)), f).toBe(true);
      expect(packed.zip.text(inVsix(f)), f).not.toMatch(/require\(["']node:|require\(["'](fs|path|child_process|os|net)["']\)/);
    }
    expect(packed.zip.text(inVsix(BROWSER_SERVER_MODULE))).toContain('msglint-language-server');
  });

  it('injects the grammar into Markdown under the scope name the grammar declares', () => {
    const [g] = manifest.contributes.grammars;
    expect(g!.injectTo).toEqual(['text.html.markdown']);
    const grammar = JSON.parse(packed.zip.text(inVsix(g!.path))) as { scopeName: string; injectionSelector: string };
    expect(grammar.scopeName).toBe(g!.scopeName);
    expect(grammar.injectionSelector).toMatch(/^L:text\.html\.markdown /);
    expect(manifest.contributes.snippets).toEqual([{ language: 'markdown', path: './snippets/msglint.json' }]);
  });

  it('activates for Markdown and message files, which the document selector covers', () => {
    expect(manifest.activationEvents).toEqual(['onLanguage:markdown', 'workspaceContains:**/*.msg.md']);
    expect(DOCUMENT_SELECTOR.filter((s) => 'language' in s).map((s) => s.language)).toEqual(['markdown', 'markdown']);
    expect(DOCUMENT_SELECTOR.some((s) => 'pattern' in s && s.pattern === '**/*.msg.md')).toBe(true);
  });

  it('contributes exactly the commands the client registers, and the settings it and the server read', () => {
    expect(manifest.contributes.commands.map((c) => c.command).sort()).toEqual(Object.values(COMMANDS).sort());
    for (const c of manifest.contributes.commands) expect(c.category).toBe('msglint');
    // The server's own command is registered by the language client when the server announces it; it is not a palette command.
    expect(manifest.contributes.commands.map((c) => c.command)).not.toContain(SERVER_FIX_ALL_COMMAND);
    for (const m of manifest.contributes.menus?.commandPalette ?? []) expect(Object.values(COMMANDS)).toContain(m.command);
    expect(Object.keys(manifest.contributes.configuration.properties).sort()).toEqual(SETTINGS.map((s) => `msglint.${s}`).sort());
  });
});

describe('the packaged extension in a stand-in VS Code', () => {
  let fake: FakeVscode;
  let ext: {
    activate(ctx: unknown): Promise<{ client: { state: number; initializeResult?: { serverInfo?: { name: string; version?: string }; capabilities?: { executeCommandProvider?: { commands: string[] } } } } }>;
    deactivate(): Promise<void>;
  };

  let legacyDoc: FakeTextDocument;
  let brokenDoc: FakeTextDocument;
  let keyDoc: FakeTextDocument;
  let exportDoc: FakeTextDocument;
  let memory: FakeMemento;

  beforeAll(() => {
    fake = installFakeVscode(manifest.engines.vscode.replace(/^\^/, ''));
    // Open before activation: the language client sends didOpen for them when it starts.
    legacyDoc = new FakeTextDocument(path.join(packed.dir, 'editor', 'legacy.msg.md'), LEGACY);
    brokenDoc = new FakeTextDocument(path.join(packed.dir, 'editor', 'broken.msg.md'), BROKEN);
    keyDoc = new FakeTextDocument(path.join(packed.dir, 'editor', 'key.msg.md'), BROKEN);
    // On disk too, for `msglint export` to compare with.
    const session = readFileSync(path.join(CLIENT, '..', 'examples/coding-session.msg.md'), 'utf8');
    exportDoc = new FakeTextDocument(path.join(packed.dir, 'editor', 'session.msg.md'), session);
    mkdirSync(path.dirname(exportDoc.fileName), { recursive: true });
    writeFileSync(exportDoc.fileName, session);
    fake.textDocuments.push(legacyDoc, brokenDoc, keyDoc, exportDoc);
    fake.setActive(brokenDoc);
    ext = require(path.join(packed.extensionDir, 'dist/extension.js'));
  });

  afterAll(async () => {
    await ext?.deactivate();
    fake?.restore();
  });

  it('activates: registers its commands, starts the bundled server over IPC and shows the state', async () => {
    const context = fakeContext(packed.extensionDir);
    memory = context.workspaceState;
    const api = await ext.activate(context);
    // 2 = State.Running
    expect(api.client.state).toBe(2);
    expect(api.client.initializeResult?.serverInfo).toEqual({ name: 'msglint-language-server', version: manifest.version });

    const contributed = manifest.contributes.commands.map((c) => c.command);
    const registered = [...fake.registeredCommands.keys()];
    for (const c of contributed) expect(registered, c).toContain(c);
    // Besides them, only what the server announces (vscode-languageclient registers those).
    const announced = api.client.initializeResult?.capabilities?.executeCommandProvider?.commands ?? [];
    expect(announced).toContain(SERVER_FIX_ALL_COMMAND);
    expect(registered.filter((c) => !contributed.includes(c)).sort()).toEqual([...announced].sort());

    const [item] = fake.statusBarItems;
    expect(item).toMatchObject({ id: 'msglint.status', visible: true, text: expect.stringMatching(/^\$\(check\) msglint/) });

    const declared = new Set(Object.keys(manifest.contributes.configuration.properties));
    for (const key of fake.configurationReads) {
      if (key.startsWith('msglint.')) expect(declared, key).toContain(key);
    }
  });

  it('"Rewrite legacy tool calls" rewrites the JSON calls of the active file as XML', async () => {
    fake.setActive(legacyDoc);
    await fake.registeredCommands.get(COMMANDS.rewriteLegacyToolCalls)!();
    expect(fake.messages).toContain('info: msglint: rewrote 2 legacy tool calls as XML.');
    expect(legacyDoc.text).toContain('<tool_name>read_file</tool_name>');
    expect(legacyDoc.text).not.toContain('{"');
    expect(lint(legacyDoc.text, { fileName: legacyDoc.fileName }).diagnostics.map((d) => d.ruleId)).not.toContain('legacy-json-tool-call');
  });

  it('"Fix all" applies the server\'s fixes to the active file through workspace/applyEdit', async () => {
    fake.setActive(brokenDoc);
    const before = fake.appliedEdits.length;
    await fake.registeredCommands.get(COMMANDS.fixAll)!();
    expect(fake.messages.filter((m) => !m.startsWith('info: msglint: rewrote'))).toEqual([]);
    expect(fake.appliedEdits.length).toBe(before + 1);
    expect(brokenDoc.text.startsWith('# %% [^1]\n')).toBe(true);
  });

  it('gives the server\'s msglint.fixAll, run from a keybinding without arguments, the active document', async () => {
    fake.setActive(keyDoc);
    await fake.registeredCommands.get(SERVER_FIX_ALL_COMMAND)!();
    expect(keyDoc.text.startsWith('# %% [^1]\n')).toBe(true);
  });

  it('"Export LLM view…" opens the picked target\'s export of the active file beside it, or nothing when dismissed', async () => {
    fake.setActive(exportDoc);
    fake.ui.pick = 'openai';
    await fake.registeredCommands.get(COMMANDS.exportLLMView)!();
    expect(fake.ui.opened).toHaveLength(1);
    const [opened] = fake.ui.opened;
    expect(opened).toMatchObject({ language: 'json', column: -2 });
    expect(JSON.parse(opened!.content)).toEqual(JSON.parse(execFileSync(process.execPath, [CLI, 'export', exportDoc.fileName, '--to', 'openai'], { encoding: 'utf8' })));
    fake.ui.pick = 'console';
    await fake.registeredCommands.get(COMMANDS.exportLLMView)!();
    expect(fake.ui.opened[1]).toMatchObject({ language: 'plaintext', content: expect.stringContaining('👤 User <@user> [Turn 0]') });
    fake.ui.pick = undefined;
    await fake.registeredCommands.get(COMMANDS.exportLLMView)!();
    expect(fake.ui.opened).toHaveLength(2);
    expect(EXPORT_TARGETS.map((t) => t.format)).toEqual(EXPORT_FORMATS);
  });

  it('"Export view up to here" (a code lens: the server\'s export command with `until`) opens the view up to the reply in the target picked last, asked the first time', async () => {
    // "Export LLM view…" above picked console last.
    expect(memory.get('msglint.exportFormat')).toBe('console');
    const uri = exportDoc.uri.toString();
    const lensCommand = fake.registeredCommands.get('msglint.exportLLMView')!;
    fake.ui.pick = undefined;
    await lensCommand(uri, 'openai', { until: '2' });
    const console = execFileSync(process.execPath, [CLI, 'export', exportDoc.fileName, '--until', '2', '--to', 'console', '--no-color'], { encoding: 'utf8' });
    expect(fake.ui.opened.at(-1)).toMatchObject({ language: 'plaintext', content: console });
    // Nothing remembered: asked, and remembered.
    await memory.update('msglint.exportFormat', undefined);
    fake.ui.pick = 'anthropic';
    await lensCommand(uri, 'openai', { until: '3' });
    const anthropic = JSON.parse(execFileSync(process.execPath, [CLI, 'export', exportDoc.fileName, '--until', '3', '--to', 'anthropic'], { encoding: 'utf8' }));
    expect(JSON.parse(fake.ui.opened.at(-1)!.content)).toEqual(anthropic);
    expect(memory.get('msglint.exportFormat')).toBe('anthropic');
    fake.ui.pick = undefined;
  });

  it("shows the file's problems and the whole view's tokens against the default agent's window in the status item; a click exports", async () => {
    fake.setActive(exportDoc);
    const item = fake.statusBarItems[0]!;
    for (let i = 0; i < 200 && !item.text.includes('Σ'); i++) await new Promise((r) => setTimeout(r, 50));
    expect(item.text).toMatch(/^\$\(check\) msglint {2}Σ \d+ \/ 128k · <1%$/);
    expect(item.command).toBe(COMMANDS.exportLLMView);
    expect(String((item.tooltip as { value: string }).value)).toContain('of the 128,000-token context window of `coder`');
    fake.setDiagnostics(exportDoc.uri, [
      { source: 'msglint', severity: 0, message: 'a' },
      { source: 'msglint', severity: 1, message: 'b' },
      { source: 'msglint', severity: 1, message: 'c' },
      { source: 'other', severity: 0, message: 'd' },
    ]);
    expect(item.text).toMatch(/^\$\(check\) msglint {2}\$\(error\) 1 \$\(warning\) 2 {2}Σ \d+ \/ 128k · <1%$/);
    fake.setDiagnostics(exportDoc.uri, []);
    // Not a message file: the state alone, and a click shows the output.
    const notes = new FakeTextDocument(path.join(packed.dir, 'editor', 'notes.md'), '# Notes\n');
    fake.setActive(notes);
    await new Promise((r) => setTimeout(r, 300));
    expect(item).toMatchObject({ text: '$(check) msglint', command: COMMANDS.showOutput });
    fake.setActive(brokenDoc);
  });

  it('"Import conversation…" opens `msglint import`\'s message file of a JSON file unsaved, in its folder under a free name, and says what was dropped', async () => {
    const dir = path.join(packed.dir, 'import');
    mkdirSync(dir, { recursive: true });
    const json = path.join(dir, 'chat.json');
    writeFileSync(json, CONVERSATION);
    // Taken: the import is named chat-2.msg.md.
    writeFileSync(path.join(dir, 'chat.msg.md'), '# %% [^1]\n');
    fake.ui.pick = 'From a JSON file…';
    fake.ui.openDialog = [(fake.module.Uri as { file(p: string): FakeTextDocument['uri'] }).file(json)];
    await fake.registeredCommands.get(COMMANDS.importConversation)!();
    const doc = fake.textDocuments.at(-1)!;
    expect(doc.uri.scheme).toBe('untitled');
    expect(doc.uri.path).toBe(path.join(dir, 'chat-2.msg.md'));
    const cli = spawnSync(process.execPath, [CLI, 'import', json], { encoding: 'utf8' });
    expect(doc.text).toBe(cli.stdout);
    expect(fake.messages.at(-1)).toMatch(/^warning: msglint: imported from openai, but the message file cannot hold everything: dropped 1 image/);
    expect(fake.log.some((l) => l.includes('Import conversation (openai): dropped 1 image'))).toBe(true);

    // The clipboard, holding no conversation: the reason, and nothing opened.
    const opened = fake.textDocuments.length;
    fake.ui.pick = 'From the clipboard';
    fake.ui.clipboard = '{"hello": 1}';
    await fake.registeredCommands.get(COMMANDS.importConversation)!();
    expect(fake.messages.at(-1)).toBe('error: msglint: not imported: not a conversation of a known shape (give --from FORMAT)');
    expect(fake.textDocuments.length).toBe(opened);
    // Dismissed: nothing.
    fake.ui.pick = undefined;
    await fake.registeredCommands.get(COMMANDS.importConversation)!();
    expect(fake.textDocuments.length).toBe(opened);
  });

  it('asks for a file when no editor is active, and hides the status item outside Markdown', async () => {
    fake.setActive(undefined);
    await fake.registeredCommands.get(COMMANDS.fixAll)!();
    expect(fake.messages.at(-1)).toBe('info: msglint: open a message file first.');
    expect(fake.statusBarItems[0]!.visible).toBe(false);
    fake.setActive(new FakeTextDocument(path.join(packed.dir, 'editor', 'x.py'), 'print(1)\n', 'python'));
    expect(fake.statusBarItems[0]!.visible).toBe(false);
    fake.setActive(brokenDoc);
    expect(fake.statusBarItems[0]!.visible).toBe(true);
  });

  it('shows the output channel on "Show output" and restarts on "Restart server"', async () => {
    const restart = fake.registeredCommands.get(COMMANDS.restartServer)!;
    await restart();
    const [item] = fake.statusBarItems;
    expect(item!.text).toMatch(/^\$\(check\) msglint/);
    await fake.registeredCommands.get(COMMANDS.showOutput)!();
  });

  it('stops the server on deactivate', async () => {
    await ext.deactivate();
    expect(fake.statusBarItems[0]!.text).toBe('$(circle-slash) msglint');
  });
});

describe('the bundled server, run from the unpacked .vsix', () => {
  const pull: ClientCapabilities = {
    workspace: { configuration: true, applyEdit: true, workspaceEdit: { documentChanges: true } },
    textDocument: {
      diagnostic: { dynamicRegistration: false },
      publishDiagnostics: { versionSupport: true },
      codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix', 'source', 'source.fixAll'] } } },
    },
  };
  const push: ClientCapabilities = { ...pull, textDocument: { ...pull.textDocument, diagnostic: undefined } };

  let workspace: string;
  let server: ServerSession;
  let version = 0;


  function open(session: ServerSession, file: string, text: string): string {
    const uri = pathToFileURL(file).href;
    void session.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'markdown', version: ++version, text } });
    return uri;
  }

  async function pulled(uri: string): Promise<Diagnostic[]> {
    const report = (await server.connection.sendRequest('textDocument/diagnostic', { textDocument: { uri } })) as DocumentDiagnosticReport;
    return report.kind === 'full' ? report.items : [];
  }

  beforeAll(async () => {
    workspace = path.join(packed.dir, 'workspace');
    mkdirSync(path.join(workspace, 'quiet', 'ignored'), { recursive: true });
    // A YAML config: loading it needs the bundled `yaml`, and `ignores` the bundled matcher.
    writeFileSync(path.join(workspace, 'quiet', '.msglintrc.yaml'), 'rules:\n  cell-marker: "off"\nignores:\n  - ignored/**\n');
    // JSON with comments: loading it needs the bundled jsonc-parser (its ES build; its UMD main cannot be bundled).
    mkdirSync(path.join(workspace, 'hushed'));
    writeFileSync(path.join(workspace, 'hushed', '.msglintrc.jsonc'), '{\n  // markers are checked elsewhere\n  "rules": { "cell-marker": "off", },\n}\n');
    server = await startServer(path.join(packed.extensionDir, SERVER_MODULE), packed.dir, pull);
  });

  afterAll(async () => {
    await server?.close();
  });

  it('says who it is and announces pull diagnostics, fix-all and its command', () => {
    const { serverInfo, capabilities } = server.initializeResult;
    expect(serverInfo).toEqual({ name: 'msglint-language-server', version: manifest.version });
    expect(capabilities.diagnosticProvider).toBeTruthy();
    expect(capabilities.executeCommandProvider?.commands).toContain(SERVER_FIX_ALL_COMMAND);
    const kinds = (capabilities.codeActionProvider as { codeActionKinds?: string[] }).codeActionKinds;
    expect(kinds).toContain(FIX_ALL_KIND);
  });

  it('reports a malformed cell marker when diagnostics are pulled', async () => {
    const uri = open(server, path.join(workspace, 'chat.msg.md'), BROKEN);
    const diagnostics = await pulled(uri);
    const marker = diagnostics.find((d) => d.code === 'cell-marker');
    expect(marker, JSON.stringify(diagnostics)).toBeDefined();
    expect(marker!.source).toBe('msglint');
    expect(marker!.range.start).toEqual({ line: 0, character: 0 });
  });

  it('publishes diagnostics to a client without pull support', async () => {
    const pushed = await startServer(path.join(packed.extensionDir, SERVER_MODULE), packed.dir, push);
    try {
      expect(pushed.initializeResult.capabilities.diagnosticProvider).toBeUndefined();
      const uri = open(pushed, path.join(workspace, 'pushed.msg.md'), BROKEN);
      const published = await pushed.waitForPublished(uri, (p) => p.diagnostics.length > 0);
      expect(published.diagnostics.map((d) => d.code)).toContain('cell-marker');
    } finally {
      await pushed.close();
    }
  });

  it('lints the examples, frontmatter included, as the CLI does (none has a problem)', async () => {
    const { readFileSync } = await import('node:fs');
    for (const name of ['coding-session.msg.md', 'release-notes.md', 'temporary-agents.msg.md']) {
      const text = readFileSync(path.join(CLIENT, '..', 'examples', name), 'utf8');
      const uri = open(server, path.join(workspace, name), text);
      expect(await pulled(uri), name).toEqual([]);
    }
    const uri = open(server, path.join(workspace, 'bad-frontmatter.msg.md'), '---\nagents: [unclosed\n---\n\n# %% Hi[^1]\n\n[^1]: [markdown]\n\nHello.\n');
    expect((await pulled(uri)).map((d) => d.code)).toContain('frontmatter-yaml');
  });

  it('reads YAML config files and their ignores', async () => {
    const quiet = open(server, path.join(workspace, 'quiet', 'chat.msg.md'), BROKEN);
    expect((await pulled(quiet)).map((d) => d.code)).not.toContain('cell-marker');
    const bogus = '# %% [^1]\n\n[^1]: [bogus]\n';
    const ignored = open(server, path.join(workspace, 'quiet', 'ignored', 'chat.msg.md'), bogus);
    expect(await pulled(ignored)).toEqual([]);
    const notIgnored = open(server, path.join(workspace, 'quiet', 'not-ignored.msg.md'), bogus);
    expect((await pulled(notIgnored)).map((d) => d.code)).toContain('cell-type');
  });

  it('reads JSON config files with comments and trailing commas', async () => {
    const hushed = open(server, path.join(workspace, 'hushed', 'chat.msg.md'), BROKEN);
    expect((await pulled(hushed)).map((d) => d.code)).not.toContain('cell-marker');
  });

  it('leaves an ordinary Markdown file alone', async () => {
    const uri = open(server, path.join(workspace, 'notes.md'), '# Notes\n\n#%% not a message file\n');
    expect(await pulled(uri)).toEqual([]);
  });

  it('fixes all through the command the "Fix all" command sends', async () => {
    const uri = open(server, path.join(workspace, 'fix-me.msg.md'), BROKEN);
    const before = server.appliedEdits.length;
    const result = (await server.connection.sendRequest('workspace/executeCommand', { command: SERVER_FIX_ALL_COMMAND, arguments: [uri] })) as { applied: boolean; edits: number };
    expect(result.applied).toBe(true);
    expect(result.edits).toBeGreaterThan(0);
    const edit = server.appliedEdits[before]!.edit;
    const doc = TextDocument.create(uri, 'markdown', version, BROKEN);
    const edits = (edit.documentChanges?.[0] as { edits: TextEdit[] } | undefined)?.edits ?? edit.changes?.[uri] ?? [];
    expect(TextDocument.applyEdits(doc, edits).startsWith('# %% [^1]\n')).toBe(true);
  });

  it('gives fix-all on save (source.fixAll.msglint) with no diagnostics in the request', async () => {
    const uri = open(server, path.join(workspace, 'on-save.msg.md'), BROKEN);
    const actions = (await server.connection.sendRequest('textDocument/codeAction', {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      context: { diagnostics: [], only: [FIX_ALL_KIND], triggerKind: 2 },
    })) as CodeAction[];
    expect(actions.map((a) => a.kind)).toEqual([FIX_ALL_KIND]);
    expect(actions[0]!.edit).toBeDefined();
  });

  it('rewrites legacy JSON tool calls the way "Rewrite legacy tool calls" does', async () => {
    const text = LEGACY;
    const file = path.join(workspace, 'legacy.msg.md');
    expect(lint(text, { fileName: file }).diagnostics.filter((d) => d.ruleId === 'legacy-json-tool-call')).toHaveLength(2);
    const uri = open(server, file, text);
    const lines = text.split('\n');
    const actions = (await server.connection.sendRequest('textDocument/codeAction', {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: { line: lines.length - 1, character: lines.at(-1)!.length } },
      context: { diagnostics: [], only: ['quickfix'], triggerKind: 1 },
    })) as (CodeAction | Command)[];
    const { edits, calls } = legacyRewriteEdits(actions, uri);
    expect(calls).toBe(2);
    const rewritten = TextDocument.applyEdits(TextDocument.create(uri, 'markdown', 1, text), edits);
    expect(rewritten).toContain('<tool_name>read_file</tool_name>');
    expect(rewritten).not.toContain('{"');
    expect(lint(rewritten, { fileName: file }).diagnostics.filter((d) => d.severity === 2 || d.ruleId === 'legacy-json-tool-call')).toEqual([]);
  });

  it('is still alive and wrote nothing to stderr', () => {
    expect(server.process.exitCode).toBeNull();
    expect(server.stderr()).toBe('');
  });
});
