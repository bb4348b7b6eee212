// Problems in files nobody opened: workspace/diagnostic (LSP 3.17) for
// clients that pull, and the command msglint.lintWorkspace, which publishes
// them, for clients that do not.
//
// The files are those `msglint .` lints in each workspace folder (the same
// discovery, config files and `ignores`), each linted with the config and
// editor settings an open file would get. Open documents are left to the
// document pull or push, which see the editor's text. A file's result id is
// a digest of its text and of its settings: a client that sends it back
// gets "unchanged" for it. Clients ask again every few seconds, so a file is
// read only when its stamp (size, times, inode) moved since the last pass.
// A large tree streams: partial results every BATCH files when the client
// gives a partial result token, and work done progress throughout. Each file
// is linted in steps (cooperative.ts): a cancel is heeded within a file, and
// answered RequestCancelled (the partial results sent are the client's to
// keep, as the protocol allows).

import {
  DiagnosticSeverity,
  DocumentDiagnosticReportKind,
  type CancellationToken,
  type Connection,
  type Diagnostic as LspDiagnostic,
  type ResultProgressReporter,
  type WorkDoneProgressReporter,
  type WorkspaceDiagnosticParams,
  type WorkspaceDiagnosticReport,
  type WorkspaceDiagnosticReportPartialResult,
  type WorkspaceDocumentDiagnosticReport,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { lintSteps } from '../linter.js';
import { runSteps } from '../engine/steps.js';
import { SOURCE, toLspDiagnostic } from './convert.js';
import { pause, SLICE_MS, unfinishedError } from './cooperative.js';
import type { DocumentStore } from './documents.js';
import type { WorkspaceFiles } from './environment.js';
import type { Log } from './guard.js';
import type { SettingsService } from './settings.js';

export const LINT_WORKSPACE_COMMAND = 'msglint.lintWorkspace';

/** Files per partial result and per progress report. */
const BATCH = 50;

interface FileResult {
  stamp: string;
  settingsKey: string;
  resultId: string;
  /** Undefined for a file that is not a message file: remembered so that it is not read again while unchanged. */
  items?: LspDiagnostic[];
}

type MessageFileResult = FileResult & { items: LspDiagnostic[] };

const isMessageFileResult = (result: FileResult | undefined): result is MessageFileResult => result?.items !== undefined;

/** A short digest of a string (FNV-1a): result ids change when the settings do. */
function settingsDigest(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(36);
}

export class WorkspaceDiagnostics {
  /** The last result of each file, by path. */
  private readonly results = new Map<string, FileResult>();
  /** URIs that have had a push from lintWorkspace with problems in it (to clear them when they go). */
  private readonly published = new Set<string>();
  /**
   * Documents closed since the last report: a client drops their document
   * diagnostics on close, so they are sent in full even if unchanged.
   */
  private readonly closedSince = new Set<string>();

  constructor(
    private readonly connection: Connection,
    private readonly files: WorkspaceFiles,
    private readonly folders: readonly string[],
    private readonly store: DocumentStore,
    private readonly settings: SettingsService,
    private readonly log: Log,
  ) {}

  /** A document was closed: its file is reported in full next time. */
  closed(uri: string): void {
    this.closedSince.add(uri);
  }

  /** The workspace/diagnostic request. */
  async report(
    params: WorkspaceDiagnosticParams,
    token: CancellationToken,
    progress: WorkDoneProgressReporter,
    partial: ResultProgressReporter<WorkspaceDiagnosticReportPartialResult> | undefined,
  ): Promise<WorkspaceDiagnosticReport> {
    const previous = new Map(params.previousResultIds.map((p) => [p.uri, p.value]));
    for (const uri of this.closedSince) previous.delete(uri);
    this.closedSince.clear();
    const all: WorkspaceDocumentDiagnosticReport[] = [];
    let batch: WorkspaceDocumentDiagnosticReport[] = [];
    const flush = () => {
      if (batch.length && partial) partial.report({ items: batch });
      else all.push(...batch);
      batch = [];
    };
    const seen = new Set<string>();
    await this.pass('workspace/diagnostic', token, progress, (uri, result) => {
      seen.add(uri);
      batch.push(
        previous.get(uri) === result.resultId
          ? { kind: DocumentDiagnosticReportKind.Unchanged, uri, version: null, resultId: result.resultId }
          : { kind: DocumentDiagnosticReportKind.Full, uri, version: null, resultId: result.resultId, items: result.items },
      );
      if (batch.length >= BATCH) flush();
    });
    // Files the client had that are gone or now ignored: nothing from this report (open ones are the document pull's).
    for (const uri of previous.keys()) {
      if (!seen.has(uri) && !this.store.get(uri)) batch.push({ kind: DocumentDiagnosticReportKind.Full, uri, version: null, items: [] });
    }
    flush();
    return { items: all };
  }

  /** msglint.lintWorkspace: publishes the problems of every message file not open; returns how many files have some, and how many problems. */
  async publish(progress: WorkDoneProgressReporter, token: CancellationToken): Promise<{ files: number; problems: number }> {
    const now = new Set<string>();
    let problems = 0;
    const sends: Promise<void>[] = [];
    await this.pass(LINT_WORKSPACE_COMMAND, token, progress, (uri, result) => {
      if (result.items.length === 0 && !this.published.has(uri)) return;
      if (result.items.length) now.add(uri);
      problems += result.items.length;
      sends.push(this.connection.sendDiagnostics({ uri, diagnostics: result.items }));
    });
    for (const uri of this.published) {
      if (!now.has(uri) && !this.store.get(uri)) sends.push(this.connection.sendDiagnostics({ uri, diagnostics: [] }));
    }
    await Promise.all(sends);
    this.published.clear();
    for (const uri of now) this.published.add(uri);
    return { files: now.size, problems };
  }

  /**
   * Lints every file of the folders that is not open, calling `take` with
   * each message file's result; throws RequestCancelled, naming `method`,
   * once `token` is cancelled.
   */
  private async pass(method: string, token: CancellationToken, progress: WorkDoneProgressReporter, take: (uri: string, result: MessageFileResult) => void): Promise<void> {
    progress.begin('msglint: linting the workspace', 0, undefined, true);
    try {
      const { files, problems } = await this.files.list(this.folders);
      for (const problem of problems) this.log.warn(`msglint: ${problem}`);
      const live = new Set(files);
      for (const known of this.results.keys()) if (!live.has(known)) this.results.delete(known);
      for (let i = 0; i < files.length; i++) {
        if (token.isCancellationRequested) throw unfinishedError(method, 'cancelled');
        if (i % BATCH === 0) progress.report(Math.floor((i / files.length) * 100), `${i}/${files.length} files`);
        const fsPath = files[i]!;
        const uri = this.files.uri(fsPath);
        if (this.store.get(uri)) continue;
        const result = await this.lintFile(uri, fsPath, token);
        if (result === 'cancelled') throw unfinishedError(method, 'cancelled');
        if (result) take(uri, result);
      }
    } finally {
      progress.done();
    }
  }

  /** A file's result: the last one while its stamp and settings hold, else a fresh lint; undefined for files that are not message files (or not linted). */
  private async lintFile(uri: string, fsPath: string, token: CancellationToken): Promise<MessageFileResult | 'cancelled' | undefined> {
    const ls = await this.settings.forFile(uri, fsPath);
    if (!ls.enabled) return undefined;
    const settingsKey = `${this.settings.generation}:${ls.key}`;
    const last = this.results.get(fsPath);
    const read = this.files.read(fsPath, last?.settingsKey === settingsKey ? last.stamp : undefined);
    if (read === 'unchanged') return isMessageFileResult(last) ? last : undefined;
    if (read === undefined) {
      this.results.delete(fsPath);
      return undefined;
    }
    if ('problem' in read) return this.keep(fsPath, { stamp: read.stamp, settingsKey, resultId: `${read.stamp}:${settingsKey}`, items: [unreadable(read.problem)] });
    let items: LspDiagnostic[] | undefined;
    try {
      const steps = lintSteps(read.text, { fileName: fsPath, config: ls.config, encoding: read.encoding });
      const outcome = await runSteps(steps, { stop: () => token.isCancellationRequested, pause, sliceMs: SLICE_MS });
      if (!outcome.done) {
        // Nothing of it is kept: the next pass reads and lints the file again.
        steps.return(undefined!);
        return 'cancelled';
      }
      const result = outcome.value;
      if (result.isMessageFile) {
        const text = TextDocument.create(uri, 'markdown', 0, read.text);
        items = result.diagnostics.map((d) => toLspDiagnostic(text, uri, d));
      }
    } catch (error) {
      this.log.error(`msglint: ${fsPath}: ${(error as Error)?.message ?? error}`);
    }
    // The settings key is long (the whole config), and the same for most files: its generation and a short digest stand for it.
    const resultId = `${read.digest}:${this.settings.generation}:${settingsDigest(ls.key)}`;
    return this.keep(fsPath, { stamp: read.stamp, settingsKey, resultId, ...(items ? { items } : {}) });
  }

  private keep(fsPath: string, entry: FileResult): MessageFileResult | undefined {
    this.results.set(fsPath, entry);
    return isMessageFileResult(entry) ? entry : undefined;
  }
}

/** The one problem of a file msglint does not read (a link to /dev/zero, a file past the size limit), where the command says it on stderr. */
function unreadable(problem: string): LspDiagnostic {
  const start = { line: 0, character: 0 };
  return { range: { start, end: start }, severity: DiagnosticSeverity.Error, source: SOURCE, message: `not linted: ${problem}` };
}
