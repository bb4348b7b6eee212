// Per-document state of the language server: the text (kept in sync
// incrementally), the parse of the current version (parsed with the previous
// version's parse, so only edited cells are parsed again), the diagnostics
// of that version, and whatever a feature derives from one version (symbols,
// tokens, indexes): computed on request and cached until the next edit.

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TextDocument, type TextDocumentContentChangeEvent } from 'vscode-languageserver-textdocument';
import { lintDocument, parseForLint } from '../engine/lint.js';
import type { Diagnostic, MsglintConfig } from '../engine/types.js';
import { isMessageFile } from '../syntax/detect.js';
import type { MessageDocument } from '../syntax/document.js';

/** What a document is linted with: the config and whether it is linted at all. */
export interface DocumentConfig {
  config: MsglintConfig;
  /** Identifies the config's content: caches are kept while it is the same. */
  key: string;
  /** False for files the config ignores or when msglint is disabled. */
  enabled: boolean;
}

export class DocumentState {
  text: TextDocument;
  /** The path used for detection and config lookup (a path for file: URIs). */
  readonly fileName: string;
  /** Absolute file system path, for file: URIs only. */
  readonly fsPath: string | undefined;
  /** The config the caches below were computed with. */
  private configKey = '';
  private messageFile: boolean | undefined;
  private parsed: MessageDocument | undefined;
  /** The last parse of any version: cell parses are reused from it. */
  private lastParse: MessageDocument | undefined;
  private diagnostics: Diagnostic[] | undefined;
  private derived = new Map<string, unknown>();

  constructor(
    readonly uri: string,
    languageId: string,
    version: number,
    content: string,
  ) {
    this.text = TextDocument.create(uri, languageId, version, content);
    const { fileName, fsPath } = fileNameOf(uri);
    this.fileName = fileName;
    this.fsPath = fsPath;
  }

  get version(): number {
    return this.text.version;
  }

  update(changes: TextDocumentContentChangeEvent[], version: number): void {
    this.text = TextDocument.update(this.text, changes, version);
    this.parsed = undefined;
    this.diagnostics = undefined;
    this.messageFile = undefined;
    this.derived.clear();
  }

  /** Drops the caches when the config they were computed with changed. */
  private sync(dc: DocumentConfig): void {
    if (dc.key === this.configKey) return;
    this.configKey = dc.key;
    this.parsed = undefined;
    this.diagnostics = undefined;
    this.derived.clear();
  }

  /** Whether this document gets msglint's features at all (spec section 1). */
  isMessageFile(): boolean {
    this.messageFile ??= isMessageFile(this.fileName, this.text.getText());
    return this.messageFile;
  }

  /** The parse of the current version, or undefined when this is not a message file. */
  parse(dc: DocumentConfig): MessageDocument | undefined {
    this.sync(dc);
    if (!dc.enabled || !this.isMessageFile()) return undefined;
    if (!this.parsed) {
      this.parsed = parseForLint(this.text.getText(), { fileName: this.fileName, config: dc.config, previous: this.lastParse });
      this.lastParse = this.parsed;
    }
    return this.parsed;
  }

  /** The engine's diagnostics of the current version (empty for files that get none). */
  lint(dc: DocumentConfig): Diagnostic[] {
    const doc = this.parse(dc);
    if (!doc) return [];
    this.diagnostics ??= lintDocument(doc, { fileName: this.fileName, config: dc.config });
    return this.diagnostics;
  }

  /** Something derived from the current version and config, computed once. */
  derive<T>(dc: DocumentConfig, key: string, compute: (doc: MessageDocument) => T): T | undefined {
    const doc = this.parse(dc);
    if (!doc) return undefined;
    if (this.derived.has(key)) return this.derived.get(key) as T;
    const value = compute(doc);
    this.derived.set(key, value);
    return value;
  }
}

/** The name msglint sees for a URI: the path for file: URIs, else the URI's path part. */
export function fileNameOf(uri: string): { fileName: string; fsPath?: string } {
  try {
    const url = new URL(uri);
    if (url.protocol === 'file:') {
      const fsPath = fileURLToPath(url);
      return { fileName: fsPath, fsPath };
    }
    return { fileName: path.posix.basename(decodeURIComponent(url.pathname)) || uri };
  } catch {
    return { fileName: uri };
  }
}

/** The open documents, by URI. */
export class DocumentStore {
  private readonly map = new Map<string, DocumentState>();

  open(uri: string, languageId: string, version: number, text: string): DocumentState {
    const state = new DocumentState(uri, languageId, version, text);
    this.map.set(uri, state);
    return state;
  }

  get(uri: string): DocumentState | undefined {
    return this.map.get(uri);
  }

  close(uri: string): void {
    this.map.delete(uri);
  }

  all(): DocumentState[] {
    return [...this.map.values()];
  }
}
