// Per-document state of the language server: the text (kept in sync
// incrementally), the parse of the current version (parsed with the previous
// version's parse, so only edited cells are parsed again), the diagnostics
// of that version, and whatever a feature derives from one version (symbols,
// tokens, indexes): computed on request and cached until the next edit.

import type { TextDocumentContentChangeEvent } from 'vscode-languageserver-textdocument';
import { lintDocumentSteps, parseForLint, unlinted } from '../linter.js';
import { MAX_LINT_CELLS, MAX_LINT_LENGTH } from '../engine/limits.js';
import { drain, runSteps, StepRun } from '../engine/steps.js';
import { countMarkerLines } from '../syntax/format/scan-lines.js';
import type { Diagnostic, MsglintConfig } from '../engine/types.js';
import { hasViewBudget, viewBudget } from '../llm-view/budget.js';
import { isMessageFile } from '../syntax/format/detect.js';
import type { MessageDocument, TextEditHint } from '../syntax/document.js';
import { pause, SLICE_MS, type Unfinished } from './cooperative.js';
import type { ServerEnvironment } from './environment.js';
import { EditableText, type TextChange } from './text.js';

/** How a document's URI becomes a file system path (the environment's). */
export type FsPathOf = ServerEnvironment['fsPath'];

/** What a document is linted with: the config and whether it is linted at all. */
export interface DocumentConfig {
  config: MsglintConfig;
  /** Identifies the config's content: caches are kept while it is the same. */
  key: string;
  /** False for files the config ignores or when msglint is disabled. */
  enabled: boolean;
}

/** A lint of one version under way in steps. */
interface LintRun {
  doc: MessageDocument;
  run: StepRun<Diagnostic[]>;
}

export class DocumentState {
  text: EditableText;
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
  /** For a version too large to parse (engine/limits.ts), its one finding; null when it is parsed; undefined until asked. */
  private verdict: Diagnostic[] | null | undefined;
  /** At least as many as the marker lines of the current text, once counted (see unparsed). */
  private markerBound: number | undefined;
  /**
   * The lint of `parsed` under way in steps (lintInSteps), paused or given
   * up by a cancelled request: the next request for this version resumes
   * it. Closed when the version or the config changes.
   */
  private running: LintRun | undefined;
  private derived = new Map<string, unknown>();
  /**
   * The edit from the last parse's text to the current one, as one range
   * (typing builds it up); null when the changes since are not one range;
   * undefined when nothing changed.
   */
  private pending: TextEditHint | null | undefined;

  constructor(
    readonly uri: string,
    languageId: string,
    version: number,
    content: string,
    fsPathOf: FsPathOf = () => undefined,
  ) {
    this.text = new EditableText(uri, languageId, version, content);
    const { fileName, fsPath } = fileNameOf(uri, fsPathOf);
    this.fileName = fileName;
    this.fsPath = fsPath;
  }

  get version(): number {
    return this.text.version;
  }

  update(changes: TextDocumentContentChangeEvent[], version: number): void {
    if (changes.length < 8) {
      for (const change of this.text.update(changes, version)) this.pending = composeEdit(this.pending, change);
    } else {
      this.text = applyChanges(this.text, changes, version);
      this.pending = null;
    }
    this.parsed = undefined;
    this.diagnostics = undefined;
    this.verdict = undefined;
    this.messageFile = undefined;
    this.derived.clear();
    this.stopLint();
  }

  /** Drops the caches when the config they were computed with changed. */
  private sync(dc: DocumentConfig): void {
    if (dc.key === this.configKey) return;
    this.configKey = dc.key;
    this.parsed = undefined;
    this.diagnostics = undefined;
    this.verdict = undefined;
    this.derived.clear();
    this.stopLint();
  }

  /** The lint under way is of a version or config gone: it must not run on (a newer version's parse has taken its segments over). */
  private stopLint(): void {
    this.running?.run.close();
    this.running = undefined;
  }

  /** The document was closed: a lint under way is given up (lintInSteps answers 'stale'). */
  close(): void {
    this.parsed = undefined;
    this.diagnostics = undefined;
    this.verdict = undefined;
    this.derived.clear();
    this.stopLint();
  }

  /** Whether this document gets msglint's features at all (spec section 1). */
  isMessageFile(): boolean {
    this.messageFile ??= isMessageFile(this.fileName, this.text.getText());
    return this.messageFile;
  }

  /** The parse of the current version, or undefined when this is not a message file or is too large to parse (unparsed). */
  parse(dc: DocumentConfig): MessageDocument | undefined {
    this.sync(dc);
    if (!dc.enabled || !this.isMessageFile()) return undefined;
    if (this.unparsed(dc)) return undefined;
    if (!this.parsed) {
      const edit = this.lastParse && this.pending ? this.pending : undefined;
      const previous = this.lastParse;
      this.parsed = parseForLint(this.text.getText(), { fileName: this.fileName, config: dc.config, previous, edit });
      // Inlay hints or the status keep the view's running total: this version's is the last one's, updated.
      if (previous && hasViewBudget(previous)) viewBudget(this.parsed);
      this.lastParse = this.parsed;
      this.pending = undefined;
    }
    return this.parsed;
  }

  /**
   * The one finding of a version not parsed (too large: no feature works on
   * it, and its diagnostics are that finding), or undefined. Decided once per
   * version and config, before the parse.
   */
  private unparsed(dc: DocumentConfig): Diagnostic[] | undefined {
    if (this.verdict === undefined) {
      const text = this.text.getText();
      // On the editor's path, a bound of the marker lines follows the edits
      // (the edit's own and a line at each end of it, which the edit may make
      // a marker): counting the whole text's on every keystroke would cost
      // what that path saves. It is counted again when it passes the limit.
      const edit = this.pending;
      if (edit && this.markerBound !== undefined && text.length <= MAX_LINT_LENGTH) {
        this.markerBound += countMarkerLines(edit.text, MAX_LINT_CELLS) + 2;
        if (this.markerBound <= MAX_LINT_CELLS) {
          this.verdict = null;
          return undefined;
        }
      }
      this.verdict = unlinted(text, { fileName: this.fileName, config: dc.config }) ?? null;
      this.markerBound = this.verdict ? undefined : countMarkerLines(text, MAX_LINT_CELLS);
    }
    return this.verdict ?? undefined;
  }


  /** The engine's diagnostics of the current version (empty for files that get none); finishes a lint under way in steps. */
  lint(dc: DocumentConfig): Diagnostic[] {
    const doc = this.parse(dc);
    if (!doc) return (dc.enabled && this.isMessageFile() && this.unparsed(dc)) || [];
    if (!this.diagnostics) drain(this.lintRun(doc, dc));
    return this.diagnostics!;
  }

  /**
   * The same diagnostics, linted in steps with pauses for the event loop
   * (cooperative.ts), so that messages are read while a long lint runs.
   * `cancelled`: stops before the next step when it returns true (a
   * request's token). Unfinished, it answers why: 'cancelled', or 'stale'
   * when the version or config changed meanwhile. A lint given up by a
   * cancel stays paused where it was, and the next request resumes it.
   */
  async lintInSteps(dc: DocumentConfig, cancelled: () => boolean): Promise<Diagnostic[] | Unfinished> {
    const doc = this.parse(dc);
    if (!doc) return (dc.enabled && this.isMessageFile() && this.unparsed(dc)) || [];
    if (this.diagnostics) return this.diagnostics;
    const run = this.lintRun(doc, dc);
    // Stops when the run is no longer the one under way: finished by lint(), or closed by an edit.
    const outcome = await runSteps(run, { stop: () => this.running?.run !== run || cancelled(), pause, sliceMs: SLICE_MS });
    if (this.parsed !== doc) return 'stale';
    // Finished by another request meanwhile (lint() drains the same run).
    if (this.diagnostics) return this.diagnostics;
    return outcome.done ? outcome.value : 'cancelled';
  }

  /** The lint of the current version: the one under way, or a new one. */
  private lintRun(doc: MessageDocument, dc: DocumentConfig): StepRun<Diagnostic[]> {
    if (this.running?.doc === doc) return this.running.run;
    this.stopLint();
    const running: LintRun = { doc, run: undefined! };
    running.run = new StepRun(this.lintSteps(running, dc));
    this.running = running;
    return running.run;
  }

  /** A lint's steps; its result is kept when it is done, while it is still the one under way. */
  private *lintSteps(running: LintRun, dc: DocumentConfig): Generator<void, Diagnostic[], void> {
    try {
      const diagnostics = yield* lintDocumentSteps(running.doc, { fileName: this.fileName, config: dc.config });
      if (this.running === running) {
        this.diagnostics = diagnostics;
        // The client's line starts, counted once now rather than on the next keystroke.
        void this.text.lineCount;
      }
      return diagnostics;
    } finally {
      // Done, given up or thrown: a lint that threw is not resumed, the next request starts afresh.
      if (this.running === running) this.running = undefined;
    }
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

/** The edit `pending` followed by `change`, as one range when it still is one. */
function composeEdit(pending: TextEditHint | null | undefined, change: TextChange | undefined): TextEditHint | null {
  if (!change || pending === null) return null;
  if (pending === undefined) return { start: change.start, oldEnd: change.end, text: change.text };
  const end = pending.start + pending.text.length;
  if (change.start < pending.start || change.end > end) return null;
  return {
    start: pending.start,
    oldEnd: pending.oldEnd,
    text: pending.text.slice(0, change.start - pending.start) + change.text + pending.text.slice(change.end - pending.start),
  };
}

/** Position order: line, then character. */
function before(a: { line: number; character: number }, b: { line: number; character: number }): boolean {
  return a.line < b.line || (a.line === b.line && a.character <= b.character);
}

/**
 * Applies a didChange notification's changes. Applied one at a time, each
 * change of many (a multi-cursor edit, a replace-all) folds the text into
 * one string again, so hundreds of them are slow on a long file. Clients
 * send such edits from the end of the document backwards; when every change
 * ends before the previous one starts and all positions are real positions
 * of the current text (no character past a line's end), each change's
 * offsets are the same in the current text as when it is applied in turn,
 * and the new text is built in one pass. Anything else goes through
 * EditableText.update.
 */
export function applyChanges(doc: EditableText, changes: TextDocumentContentChangeEvent[], version: number): EditableText {
  const viaUpdate = (): EditableText => {
    doc.update(changes, version);
    return doc;
  };
  if (changes.length < 8) return viaUpdate();
  const text = doc.getText();
  const lineCount = doc.lineCount;
  const offsets: [number, number, string][] = [];
  let previous: { line: number; character: number } | undefined;
  for (const change of changes) {
    if (!('range' in change) || !change.range) return viaUpdate();
    const { start, end } = change.range;
    const valid = (p: { line: number; character: number }): boolean => {
      if (!Number.isInteger(p.line) || !Number.isInteger(p.character) || p.line < 0 || p.character < 0 || p.line >= lineCount) return false;
      // The position's offset must lie on its line (before its line break).
      const back = doc.positionAt(doc.offsetAt(p));
      return back.line === p.line && back.character === p.character;
    };
    if (!before(start, end) || !valid(start) || !valid(end) || (previous && !before(end, previous))) {
      return viaUpdate();
    }
    const startOffset = doc.offsetAt(start);
    // After a lone CR, an inserted LF would join it into one line break and
    // move the positions at this offset: leave that to EditableText.update.
    if (text.charCodeAt(startOffset - 1) === 13) return viaUpdate();
    offsets.push([startOffset, doc.offsetAt(end), change.text]);
    previous = start;
  }
  const pieces: string[] = [];
  let tail = text.length;
  for (const [start, end, insert] of offsets) {
    pieces.push(text.slice(end, tail), insert);
    tail = start;
  }
  pieces.push(text.slice(0, tail));
  return new EditableText(doc.uri, doc.languageId, version, pieces.reverse().join(''));
}

/**
 * The name msglint sees for a URI: the path where the URI is a file on disk
 * (`fsPathOf`), else the last segment of the URI's path.
 */
export function fileNameOf(uri: string, fsPathOf: FsPathOf): { fileName: string; fsPath?: string } {
  try {
    const url = new URL(uri);
    const fsPath = fsPathOf(url);
    if (fsPath !== undefined) return { fileName: fsPath, fsPath };
    const segments = decodeURIComponent(url.pathname).split('/');
    return { fileName: segments.findLast((s) => s !== '') || uri };
  } catch {
    return { fileName: uri };
  }
}

/** The open documents, by URI. */
export class DocumentStore {
  private readonly map = new Map<string, DocumentState>();

  constructor(private readonly fsPathOf: FsPathOf = () => undefined) {}

  open(uri: string, languageId: string, version: number, text: string): DocumentState {
    const state = new DocumentState(uri, languageId, version, text, this.fsPathOf);
    this.map.set(uri, state);
    return state;
  }

  get(uri: string): DocumentState | undefined {
    return this.map.get(uri);
  }

  close(uri: string): void {
    this.map.get(uri)?.close();
    this.map.delete(uri);
  }

  all(): DocumentState[] {
    return [...this.map.values()];
  }
}
