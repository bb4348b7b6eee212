// A stand-in for the `vscode` module, for loading the packaged extension in
// Node (no VS Code can be downloaded here). It implements what the
// extension itself calls (commands, status bar, output channel,
// configuration, events) and records it; anything else the bundled
// vscode-languageclient touches is an inert proxy, so its start-up runs
// (spawning the bundled server over IPC) without an editor behind it.

import { readFileSync, statSync } from 'node:fs';
import Module from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

type Listener<T> = (e: T) => unknown;

export class EventEmitter<T> {
  private listeners: Listener<T>[] = [];
  readonly event = (listener: Listener<T>, thisArg?: unknown, disposables?: { dispose(): void }[]) => {
    const bound: Listener<T> = thisArg ? listener.bind(thisArg) : listener;
    this.listeners.push(bound);
    const d = { dispose: () => (this.listeners = this.listeners.filter((l) => l !== bound)) };
    disposables?.push(d);
    return d;
  };
  fire(e: T): void {
    for (const l of [...this.listeners]) l(e);
  }
  dispose(): void {
    this.listeners = [];
  }
}

/** A value that accepts any use: property access, calls, `new`, disposal, subscription. */
function inert(path: string): any {
  const target = function () {};
  return new Proxy(target, {
    get(_t, prop) {
      if (prop === 'then') return undefined;
      if (prop === Symbol.toPrimitive) return () => path;
      if (prop === Symbol.iterator) return function* () {};
      if (typeof prop === 'symbol') return undefined;
      if (prop === 'toString' || prop === 'toJSON') return () => path;
      if (prop === 'length') return 0;
      if (prop === 'prototype') return Object.prototype;
      return inert(`${path}.${prop}`);
    },
    apply: () => inert(`${path}()`),
    construct: () => inert(`new ${path}`),
    set: () => true,
  });
}

/** Properties given explicitly win; everything else is inert. */
function withFallback<T extends object>(path: string, explicit: T): T {
  return new Proxy(explicit, {
    get(t, prop, receiver) {
      if (prop in t) return Reflect.get(t, prop, receiver);
      if (prop === 'then' || typeof prop === 'symbol') return undefined;
      return inert(`${path}.${String(prop)}`);
    },
  });
}

class Disposable {
  constructor(private readonly fn: () => void) {}
  static from(...items: { dispose(): unknown }[]): Disposable {
    return new Disposable(() => items.forEach((i) => i.dispose()));
  }
  dispose(): void {
    this.fn();
  }
}

class Uri {
  private constructor(
    readonly scheme: string,
    readonly authority: string,
    readonly path: string,
    readonly query: string,
    readonly fragment: string,
  ) {}
  static parse(value: string): Uri {
    const u = new URL(value);
    return new Uri(u.protocol.replace(/:$/, ''), u.host, decodeURIComponent(u.pathname), u.search.replace(/^\?/, ''), u.hash.replace(/^#/, ''));
  }
  static file(p: string): Uri {
    return Uri.parse(pathToFileURL(p).href);
  }
  static from(c: { scheme: string; authority?: string; path?: string; query?: string; fragment?: string }): Uri {
    return new Uri(c.scheme, c.authority ?? '', c.path ?? '', c.query ?? '', c.fragment ?? '');
  }
  static joinPath(base: Uri, ...segments: string[]): Uri {
    return base.with({ path: path.posix.join(base.path, ...segments) });
  }
  get fsPath(): string {
    return this.path;
  }
  with(change: Partial<Pick<Uri, 'scheme' | 'authority' | 'path' | 'query' | 'fragment'>>): Uri {
    return new Uri(change.scheme ?? this.scheme, change.authority ?? this.authority, change.path ?? this.path, change.query ?? this.query, change.fragment ?? this.fragment);
  }
  toString(): string {
    return `${this.scheme}://${this.authority}${encodeURI(this.path)}${this.query ? `?${this.query}` : ''}${this.fragment ? `#${this.fragment}` : ''}`;
  }
  toJSON(): string {
    return this.toString();
  }
}

class Position {
  constructor(
    readonly line: number,
    readonly character: number,
  ) {}
}

class Range {
  readonly start: Position;
  readonly end: Position;
  constructor(a: Position | number, b: Position | number, c?: number, d?: number) {
    this.start = typeof a === 'number' ? new Position(a, b as number) : a;
    this.end = typeof a === 'number' ? new Position(c!, d!) : (b as Position);
  }
}

class TextEdit {
  constructor(
    readonly range: Range,
    readonly newText: string,
  ) {}
}

/** Records the text edits per document, as VS Code's WorkspaceEdit does. */
class WorkspaceEdit {
  readonly edits = new Map<string, { uri: Uri; edits: TextEdit[] }>();
  set(uri: Uri, edits: (TextEdit | [TextEdit, unknown])[]): void {
    this.edits.set(uri.toString(), { uri, edits: edits.map((e) => (Array.isArray(e) ? e[0] : e)) });
  }
  replace(uri: Uri, range: Range, newText: string): void {
    const entry = this.edits.get(uri.toString()) ?? { uri, edits: [] };
    entry.edits.push(new TextEdit(range, newText));
    this.edits.set(uri.toString(), entry);
  }
  insert(uri: Uri, position: Position, newText: string): void {
    this.replace(uri, new Range(position, position), newText);
  }
  delete(uri: Uri, range: Range): void {
    this.replace(uri, range, '');
  }
  entries(): [Uri, TextEdit[]][] {
    return [...this.edits.values()].map((e) => [e.uri, e.edits]);
  }
  get size(): number {
    return this.edits.size;
  }
}

/** An open document: what the extension and the language client read of one. */
export class FakeTextDocument {
  readonly uri: Uri;
  version = 1;
  readonly isClosed = false;
  readonly isDirty = false;
  readonly isUntitled = false;
  readonly eol = 1;
  constructor(
    readonly fileName: string,
    public text: string,
    readonly languageId = 'markdown',
    uri?: Uri,
  ) {
    this.uri = uri ?? Uri.file(fileName);
  }
  getText(): string {
    return this.text;
  }
  get lineCount(): number {
    return this.text.split('\n').length;
  }
  lineAt(line: number): { text: string; range: Range } {
    const text = this.text.split('\n')[line] ?? '';
    return { text, range: new Range(line, 0, line, text.length) };
  }
  offsetAt(p: Position): number {
    const lines = this.text.split('\n');
    let offset = 0;
    for (let i = 0; i < p.line && i < lines.length; i++) offset += lines[i]!.length + 1;
    return offset + p.character;
  }
  /** Applies edits (non-overlapping, against the current text) and bumps the version. */
  apply(edits: TextEdit[]): void {
    const sorted = [...edits].sort((a, b) => this.offsetAt(b.range.start) - this.offsetAt(a.range.start));
    for (const e of sorted) this.text = this.text.slice(0, this.offsetAt(e.range.start)) + e.newText + this.text.slice(this.offsetAt(e.range.end));
    this.version++;
  }
}

/** vscode.languages.match for the filters the extension uses (language, scheme, a `**\/*.ext` pattern). */
function match(selector: unknown, doc: FakeTextDocument): number {
  const filters = Array.isArray(selector) ? selector : [selector];
  let best = 0;
  for (const f of filters) {
    if (typeof f === 'string') {
      if (f === doc.languageId) best = Math.max(best, 10);
      continue;
    }
    const filter = f as { language?: string; scheme?: string; pattern?: string };
    if (filter.language && filter.language !== doc.languageId) continue;
    if (filter.scheme && filter.scheme !== doc.uri.scheme) continue;
    if (filter.pattern) {
      const suffix = /^\*\*\/\*(\.[\w.]+)$/.exec(filter.pattern)?.[1];
      if (!suffix || !doc.fileName.endsWith(suffix)) continue;
    }
    best = Math.max(best, filter.language ? 10 : 5);
  }
  return best;
}

export interface FakeStatusBarItem {
  id: string;
  text: string;
  tooltip: unknown;
  command: unknown;
  name?: string;
  visible: boolean;
}

export interface FakeVscode {
  module: Record<string, unknown>;
  registeredCommands: Map<string, (...args: unknown[]) => unknown>;
  statusBarItems: FakeStatusBarItem[];
  /** Keys read with workspace.getConfiguration(section).get(key), as `section.key`. */
  configurationReads: Set<string>;
  /** Every line written to output channels. */
  log: string[];
  messages: string[];
  configuration: Record<string, unknown>;
  /** The open documents (language client and extension see them); set before activation. */
  textDocuments: FakeTextDocument[];
  /** Edits applied with workspace.applyEdit. */
  appliedEdits: WorkspaceEdit[];
  /**
   * Quick picks answer with the item of this label (undefined: dismissed);
   * untitled documents opened with content, with the column they were shown
   * in; what the open dialog answers; the clipboard's text.
   */
  ui: { pick?: string; opened: { language: string; content: string; column?: number }[]; openDialog?: Uri[]; clipboard?: string };
  /** Makes `doc` the active editor's document (undefined: no editor). */
  setActive(doc: FakeTextDocument | undefined): void;
  /** Sets what languages.getDiagnostics answers for a document, and says it changed. */
  setDiagnostics(uri: Uri, diagnostics: { source?: string; severity: number; message: string }[]): void;
  restore(): void;
}

/** Installs the fake as `vscode` for require() until restore(). */
export function installFakeVscode(version = '1.91.0'): FakeVscode {
  const registeredCommands = new Map<string, (...args: unknown[]) => unknown>();
  const statusBarItems: FakeStatusBarItem[] = [];
  const configurationReads = new Set<string>();
  const log: string[] = [];
  const messages: string[] = [];
  const configuration: Record<string, unknown> = {};
  const textDocuments: FakeTextDocument[] = [];
  const appliedEdits: WorkspaceEdit[] = [];
  const ui: FakeVscode['ui'] = { opened: [] };
  const activeEditorChanged = new EventEmitter<unknown>();
  const diagnostics = new Map<string, unknown[]>();
  const diagnosticsChanged = new EventEmitter<{ uris: Uri[] }>();
  const noEvent = new EventEmitter<unknown>().event;

  const outputChannel = (name: string) =>
    withFallback(`OutputChannel(${name})`, {
      name,
      logLevel: 2,
      onDidChangeLogLevel: noEvent,
      append: (s: string) => log.push(s),
      appendLine: (s: string) => log.push(s),
      replace: () => undefined,
      clear: () => undefined,
      show: () => undefined,
      hide: () => undefined,
      dispose: () => undefined,
      trace: (s: string) => log.push(`[trace] ${s}`),
      debug: (s: string) => log.push(`[debug] ${s}`),
      info: (s: string) => log.push(`[info] ${s}`),
      warn: (s: string) => log.push(`[warn] ${s}`),
      error: (s: unknown) => log.push(`[error] ${String(s)}`),
    });

  const getConfiguration = (section?: string) =>
    withFallback(`WorkspaceConfiguration(${section})`, {
      get: (key: string, def?: unknown) => {
        const full = section ? `${section}.${key}` : key;
        configurationReads.add(full);
        return Object.hasOwn(configuration, full) ? configuration[full] : def;
      },
      has: (key: string) => Object.hasOwn(configuration, section ? `${section}.${key}` : key),
      inspect: () => undefined,
      update: async () => undefined,
    });

  const vscode: Record<string, unknown> = {
    version,
    EventEmitter,
    Disposable,
    Uri,
    Position,
    Range,
    TextEdit,
    WorkspaceEdit,
    StatusBarAlignment: { Left: 1, Right: 2 },
    DiagnosticSeverity: { Error: 0, Warning: 1, Information: 2, Hint: 3 },
    ThemeColor: class {
      constructor(readonly id: string) {}
    },
    MarkdownString: class {
      constructor(public value = '') {}
      appendMarkdown(s: string) {
        this.value += s;
        return this;
      }
      appendText(s: string) {
        this.value += s;
        return this;
      }
    },
    commands: withFallback('commands', {
      registerCommand: (id: string, fn: (...args: unknown[]) => unknown) => {
        if (registeredCommands.has(id)) throw new Error(`command '${id}' already exists`);
        registeredCommands.set(id, fn);
        return new Disposable(() => registeredCommands.delete(id));
      },
      executeCommand: async () => undefined,
      getCommands: async () => [...registeredCommands.keys()],
    }),
    window: withFallback('window', {
      activeTextEditor: undefined,
      visibleTextEditors: [],
      onDidChangeActiveTextEditor: activeEditorChanged.event,
      onDidChangeVisibleTextEditors: noEvent,
      createOutputChannel: (name: string) => outputChannel(name),
      createStatusBarItem: (id: string) => {
        const item: FakeStatusBarItem & Record<string, unknown> = {
          id,
          text: '',
          tooltip: undefined,
          command: undefined,
          visible: false,
          show() {
            item.visible = true;
          },
          hide() {
            item.visible = false;
          },
          dispose() {},
        };
        statusBarItems.push(item);
        return item;
      },
      showInformationMessage: async (m: string) => void messages.push(`info: ${m}`),
      showWarningMessage: async (m: string) => void messages.push(`warning: ${m}`),
      showErrorMessage: async (m: string) => void messages.push(`error: ${m}`),
      showQuickPick: async (items: ({ label: string } | string)[]) => items.find((item) => (typeof item === 'string' ? item : item.label) === ui.pick),
      showOpenDialog: async () => ui.openDialog,
      showTextDocument: async (doc: { column?: number }, options: { viewColumn?: number }) => void (doc.column = options.viewColumn),
    }),
    ViewColumn: { Active: -1, Beside: -2 },
    workspace: withFallback('workspace', {
      workspaceFolders: undefined,
      textDocuments,
      notebookDocuments: [],
      applyEdit: async (edit: WorkspaceEdit) => {
        appliedEdits.push(edit);
        for (const [uri, edits] of edit.entries()) {
          const doc = textDocuments.find((d) => d.uri.toString() === uri.toString());
          if (!doc) return false;
          doc.apply(edits);
        }
        return true;
      },
      getConfiguration,
      // A URI (an untitled one, empty) becomes an open document; content becomes an entry of ui.opened.
      openTextDocument: async (init: { language: string; content: string } | Uri) => {
        if (!(init instanceof Uri)) return ui.opened[ui.opened.push({ ...init }) - 1];
        const doc = new FakeTextDocument(init.path, init.scheme === 'untitled' ? '' : readFileSync(init.path, 'utf8'), 'markdown', init);
        textDocuments.push(doc);
        return doc;
      },
      // file: URIs only.
      fs: {
        readFile: async (uri: Uri) => new Uint8Array(readFileSync(uri.fsPath)),
        stat: async (uri: Uri) => statSync(uri.fsPath),
      },
      onDidChangeConfiguration: noEvent,
      onDidOpenTextDocument: noEvent,
      onDidCloseTextDocument: noEvent,
      onDidChangeTextDocument: noEvent,
      onDidSaveTextDocument: noEvent,
      onWillSaveTextDocument: noEvent,
      onDidChangeWorkspaceFolders: noEvent,
    }),
    languages: withFallback('languages', {
      match,
      getDiagnostics: (uri: Uri) => diagnostics.get(uri.toString()) ?? [],
      onDidChangeDiagnostics: diagnosticsChanged.event,
    }),
    env: withFallback('env', { appName: 'Fake Code', language: 'en', machineId: 'test', sessionId: 'test', uiKind: 1, clipboard: { readText: async () => ui.clipboard ?? '' } }),
    extensions: withFallback('extensions', { all: [], getExtension: () => undefined, onDidChange: noEvent }),
  };
  const fake = withFallback('vscode', vscode);

  const M = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
  const originalLoad = M._load;
  M._load = function (request: string, ...rest: unknown[]) {
    if (request === 'vscode') return fake;
    return originalLoad.call(this, request, ...rest);
  };
  return {
    module: fake,
    registeredCommands,
    statusBarItems,
    configurationReads,
    log,
    messages,
    configuration,
    textDocuments,
    appliedEdits,
    ui,
    setActive: (doc) => {
      (vscode.window as { activeTextEditor: unknown }).activeTextEditor = doc ? { document: doc } : undefined;
      activeEditorChanged.fire((vscode.window as { activeTextEditor: unknown }).activeTextEditor);
    },
    setDiagnostics: (uri, list) => {
      diagnostics.set(uri.toString(), list);
      diagnosticsChanged.fire({ uris: [uri] });
    },
    restore: () => {
      M._load = originalLoad;
    },
  };
}

/** A minimal ExtensionContext for `activate`. */
export function fakeContext(extensionPath: string): { subscriptions: { dispose(): unknown }[]; extensionPath: string; asAbsolutePath(p: string): string; workspaceState: FakeMemento } & Record<string, unknown> {
  return withFallback('ExtensionContext', {
    subscriptions: [] as { dispose(): unknown }[],
    extensionPath,
    asAbsolutePath: (p: string) => `${extensionPath}/${p}`,
    workspaceState: new FakeMemento(),
  });
}

/** A Memento (the workspace's state) in memory. */
export class FakeMemento {
  readonly values = new Map<string, unknown>();
  keys(): string[] {
    return [...this.values.keys()];
  }
  get<T>(key: string, fallback?: T): T | undefined {
    return this.values.has(key) ? (this.values.get(key) as T) : fallback;
  }
  async update(key: string, value: unknown): Promise<void> {
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, value);
  }
}
