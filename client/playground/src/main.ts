// The msglint playground: an editor talking LSP to msglint's language
// server in a Web Worker (dist/browser/server.js, embedded in this page's
// script by build.mjs), with the Problems list, the Export and Agents
// panels, an example picker and share links (`#text=<base64url UTF-8>`);
// the server's inlay hints in the text and the view's total beside the
// problem count (budget.ts).

import { lintGutter } from '@codemirror/lint';
import {
  findReferencesKeymap,
  formatDocument,
  formatKeymap,
  hoverTooltips,
  jumpToDefinitionKeymap,
  LSPClient,
  LSPPlugin,
  renameKeymap,
  serverCompletion,
} from '@codemirror/lsp-client';
import { EditorView, keymap, ViewPlugin, type ViewUpdate } from '@codemirror/view';
import { basicSetup } from 'codemirror';
import type * as lsp from 'vscode-languageserver-protocol';
import serverSource from 'msglint:worker-source';
import examples from 'msglint:examples';
import { hintsOnScroll, inlayHints, refreshInlayHints, refreshTotal } from './budget.js';
import { diagnosticsView } from './diagnostics.js';
import { applyWorkspaceEdit } from './edits.js';
import { refreshHighlighting, semanticHighlighting } from './highlight.js';
import { agentsListing, exportPanel } from './panels.js';
import { sanitizeHTML } from './sanitize.js';
import { encodeText, textFromHash } from './share.js';
import { startServerWorker, workerTransport } from './transport.js';

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;

/** The editor settings the server gets (the `msglint` section; the Settings panel edits them): no config files here. */
let settings: Record<string, unknown> = { enable: true, run: 'onType' };
const SHARED_NAME = 'shared.msg.md';

let view: EditorView | undefined;
let currentName = '';
let opened = 0;

const uri = (): string | undefined => (view ? LSPPlugin.get(view)?.uri : undefined);

const worker = startServerWorker(serverSource);
const transport = workerTransport(worker, {
  'workspace/configuration': (params) => ((params as lsp.ConfigurationParams).items ?? []).map((item) => (item.section === 'msglint' ? settings : null)),
  'workspace/applyEdit': (params) => ({ applied: view ? applyWorkspaceEdit(view, (params as lsp.ApplyWorkspaceEditParams).edit) : false }),
  'client/registerCapability': () => null,
  'client/unregisterCapability': () => null,
  'window/workDoneProgress/create': () => null,
});

const refreshAgents = (): void => {
  if (!view) return;
  $('agents').textContent = agentsListing(view.state.doc.toString(), currentName);
};
let refreshExport: () => Promise<void> = async () => undefined;
const problems = diagnosticsView($('problems'), $('problem-count'), () => {
  void refreshExport();
  refreshAgents();
  if (!view) return;
  void refreshHighlighting(client, view).catch((e: unknown) => console.warn('msglint playground: semantic tokens failed', e));
  void refreshInlayHints(client, view).catch((e: unknown) => console.warn('msglint playground: inlay hints failed', e));
  void refreshTotal(client, view, $('view-total')).catch((e: unknown) => console.warn('msglint playground: the view total failed', e));
});

const client = new LSPClient({
  timeout: 20_000,
  initializationOptions: { msglint: settings },
  sanitizeHTML,
  notificationHandlers: {
    'textDocument/publishDiagnostics': (c, params) => problems.handler(c, params as lsp.PublishDiagnosticsParams),
  },
  extensions: [
    serverCompletion(),
    hoverTooltips(),
    {
      // lsp-client announces pull diagnostics (textDocument.diagnostic) but
      // never pulls; `false` replaces that announcement, so the server pushes.
      clientCapabilities: { textDocument: { diagnostic: false, publishDiagnostics: { versionSupport: true } } },
    },
  ],
}).connect(transport);

refreshExport = exportPanel(client, uri, { target: $('export-target'), force: $('export-force'), output: $('export-output') });

/** Sends what was typed to the server shortly after typing stops (the server lints on every change). */
const autoSync = ViewPlugin.fromClass(
  class {
    private timer: ReturnType<typeof setTimeout> | undefined;
    update(update: ViewUpdate): void {
      if (!update.docChanged) return;
      clearTimeout(this.timer);
      this.timer = setTimeout(() => LSPPlugin.get(update.view)?.client.sync(), 200);
    }
    destroy(): void {
      clearTimeout(this.timer);
    }
  },
);

/** Opens `text` as the file `name`, in a new editor (the file name decides what msglint checks). */
function open(name: string, text: string): void {
  view?.destroy();
  currentName = name;
  $('file-name').textContent = name;
  $('problems').removeAttribute('data-version');
  // A new URI each time: the server sees a new document, never a late change to the last one.
  const fileUri = `inmemory:///${++opened}/${encodeURIComponent(name)}`;
  view = new EditorView({
    doc: text,
    parent: $('editor'),
    extensions: [
      basicSetup,
      lintGutter(),
      semanticHighlighting,
      inlayHints,
      hintsOnScroll(client),
      EditorView.lineWrapping,
      client.plugin(fileUri, 'markdown'),
      autoSync,
      keymap.of([...formatKeymap, ...renameKeymap, ...jumpToDefinitionKeymap, ...findReferencesKeymap]),
    ],
  });
}

function openFromHash(): boolean {
  const text = textFromHash(location.hash);
  if (text === undefined) {
    if (new URLSearchParams(location.hash.slice(1)).has('text')) $('status').textContent = "The link's text is not UTF-8 in base64url";
    return false;
  }
  $('status').textContent = '';
  if (view && view.state.doc.toString() === text) return true;
  open(SHARED_NAME, text);
  ($('examples') as HTMLSelectElement).value = '';
  return true;
}

/** The Settings panel: JSON merged over the defaults, sent with workspace/didChangeConfiguration. */
function setUpSettings(): void {
  const input = $<HTMLTextAreaElement>('settings');
  const status = $('settings-status');
  const base = settings;
  let timer: ReturnType<typeof setTimeout> | undefined;
  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(input.value || '{}');
      } catch (e) {
        status.textContent = `Not JSON: ${(e as Error).message}`;
        status.classList.add('invalid');
        return;
      }
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
        status.textContent = 'Settings are a JSON object, such as { "rules": { "empty-cell": "off" } }';
        status.classList.add('invalid');
        return;
      }
      status.textContent = '';
      status.classList.remove('invalid');
      settings = { ...base, ...(parsed as Record<string, unknown>) };
      client.notification('workspace/didChangeConfiguration', { settings: { msglint: settings } });
    }, 300);
  });
}

function setUp(): void {
  setUpSettings();
  worker.addEventListener('error', (event) => {
    $('status').dataset.state = 'failed';
    $('status').textContent = `The language server stopped: ${event.message}`;
  });
  const picker = $<HTMLSelectElement>('examples');
  const none = document.createElement('option');
  none.value = '';
  none.textContent = '(shared text)';
  none.hidden = true;
  picker.append(none, ...examples.map((e, i) => Object.assign(document.createElement('option'), { value: String(i), textContent: e.name })));
  picker.addEventListener('change', () => {
    const example = examples[Number(picker.value)];
    if (!example) return;
    history.replaceState(null, '', location.pathname + location.search);
    open(example.name, example.text);
  });

  $('fix-all').addEventListener('click', async () => {
    const u = uri();
    if (!view || !u) return;
    client.sync();
    const actions = await client.request<lsp.CodeActionParams, (lsp.CodeAction | lsp.Command)[] | null>('textDocument/codeAction', {
      textDocument: { uri: u },
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      context: { diagnostics: [], only: ['source.fixAll.msglint'] },
    });
    const fixAll = (actions ?? []).find((a): a is lsp.CodeAction => 'edit' in a && !!a.edit);
    if (fixAll?.edit) applyWorkspaceEdit(view, fixAll.edit);
    view.focus();
  });
  $('format').addEventListener('click', () => {
    if (view) formatDocument(view);
  });
  $('share').addEventListener('click', async () => {
    if (!view) return;
    history.replaceState(null, '', `#text=${encodeText(view.state.doc.toString())}`);
    const status = $('share-status');
    try {
      await navigator.clipboard.writeText(location.href);
      status.textContent = 'Link copied';
    } catch {
      status.textContent = 'Link in the address bar';
    }
    setTimeout(() => (status.textContent = ''), 3000);
  });
  window.addEventListener('hashchange', () => void openFromHash());

  if (!openFromHash()) {
    const first = examples.findIndex((e) => e.name === 'showcase.msg.md');
    picker.value = String(Math.max(first, 0));
    const example = examples[Math.max(first, 0)]!;
    open(example.name, example.text);
  }
  void client.initializing.then(() => ($('status').dataset.state = 'ready'));
}

setUp();
