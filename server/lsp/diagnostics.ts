// Diagnostics, pulled (textDocument/diagnostic, LSP 3.17) when the client
// supports it, else pushed (textDocument/publishDiagnostics) after a short
// pause in typing. A push carries the document version it was computed for
// and is computed at the moment it is sent, so it is never stale. With
// `run: onSave` diagnostics are computed when a document is opened or saved.
// A pull or a push lints in steps (cooperative.ts): a pull cancelled while it
// lints is answered RequestCancelled, one whose document changed under it
// ServerCancelled (the client pulls again), and a push whose document
// changed is dropped (the change's push follows).

import {
  DocumentDiagnosticReportKind,
  LSPErrorCodes,
  ResponseError,
  type CancellationToken,
  type Connection,
  type Diagnostic as LspDiagnostic,
  type DocumentDiagnosticReport,
} from 'vscode-languageserver/node';
import { toLspDiagnostic } from './convert.js';
import { unfinishedError, type Unfinished } from './cooperative.js';
import type { DocumentState, DocumentStore } from './documents.js';
import { describeError, guard, type Log } from './guard.js';
import type { LintSettings, SettingsService } from './settings.js';
import { WARM_UP_MIN_LENGTH, warmUp } from './warm-up.js';

/** Pause after the last keystroke before pushing diagnostics (push mode). */
const PUSH_DELAY_MS = 120;

/** How long the client must have been quiet before the warm-up begins (warmAfter). */
const WARM_UP_QUIET_MS = 100;

export interface DiagnosticsMode {
  /** The client pulls (textDocument/diagnostic). */
  pull: boolean;
  /** The client accepts workspace/diagnostic/refresh. */
  refresh: boolean;
}

/** The LSP diagnostics of a document's current version (cached per version). */
export function lspDiagnostics(state: DocumentState, ls: LintSettings): LspDiagnostic[] {
  const convert = () => state.lint(ls).map((d) => toLspDiagnostic(state.text, state.uri, d));
  // A document not parsed (too large) derives nothing, but has its one problem.
  return state.derive(ls, 'lsp-diagnostics', convert) ?? convert();
}

/** lspDiagnostics linted in steps (DocumentState.lintInSteps): why not, when it did not finish. */
export async function lspDiagnosticsInSteps(state: DocumentState, ls: LintSettings, cancelled: () => boolean): Promise<LspDiagnostic[] | Unfinished> {
  const found = await state.lintInSteps(ls, cancelled);
  return typeof found === 'string' ? found : lspDiagnostics(state, ls);
}

const NEVER = (): boolean => false;

export class DiagnosticsFeature {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** For `run: onSave`: the diagnostics of the last open or save, per URI. */
  private readonly snapshots = new Map<string, { resultId: string; items: LspDiagnostic[] }>();
  /** Whether the typing path has been warmed (warm-up.ts): once per server. */
  private warmed = false;

  constructor(
    private readonly connection: Connection,
    private readonly store: DocumentStore,
    private readonly settings: SettingsService,
    private readonly log: Log,
    private readonly mode: DiagnosticsMode,
    /** Milliseconds since the client's last message (lifecycle.ts). */
    private readonly clientQuietFor: () => number = () => Infinity,
  ) {
    if (mode.pull) {
      connection.languages.diagnostics.on(
        guard(log, 'textDocument/diagnostic', { kind: DocumentDiagnosticReportKind.Full, items: [] } as DocumentDiagnosticReport, async (params, token) => {
          // Clients cancel the pull of a version they have already edited again: skip that work.
          if (token.isCancellationRequested) throw new ResponseError(LSPErrorCodes.RequestCancelled, 'cancelled');
          return this.pullReport(params.textDocument.uri, params.previousResultId, token);
        }),
      );
    }
  }

  private async pullReport(uri: string, previousResultId: string | undefined, token: CancellationToken): Promise<DocumentDiagnosticReport> {
    const state = this.store.get(uri);
    if (!state) return { kind: DocumentDiagnosticReportKind.Full, items: [] };
    const ls = await this.settings.forDocument(state);
    if (this.store.get(uri) !== state) return { kind: DocumentDiagnosticReportKind.Full, items: [] };
    if (token.isCancellationRequested) throw new ResponseError(LSPErrorCodes.RequestCancelled, 'cancelled');
    let resultId: string;
    let items: LspDiagnostic[] | undefined;
    const saved = ls.run === 'onSave' ? this.snapshots.get(uri) : undefined;
    if (saved) {
      resultId = saved.resultId;
      items = saved.items;
    } else {
      resultId = this.resultId(state);
    }
    if (previousResultId === resultId) return { kind: DocumentDiagnosticReportKind.Unchanged, resultId };
    if (!items) {
      const found = await lspDiagnosticsInSteps(state, ls, () => token.isCancellationRequested);
      // Closed while it was linted: nothing to report, as for a document closed before.
      if (this.store.get(uri) !== state) return { kind: DocumentDiagnosticReportKind.Full, items: [] };
      if (typeof found === 'string') throw unfinishedError('textDocument/diagnostic', found);
      items = found;
    }
    this.warmAfter(state, ls);
    return { kind: DocumentDiagnosticReportKind.Full, resultId, items };
  }

  /**
   * After the first large message file's diagnostics: the first keystroke
   * in it should not find cold code. The warm-up begins once neither the
   * client nor these diagnostics have made a sound for WARM_UP_QUIET_MS:
   * what a client asks right after the diagnostics (the screen's inlay
   * hints, code actions) is answered first, not after a step of it.
   */
  private warmAfter(state: DocumentState, ls: LintSettings): void {
    if (this.warmed || !ls.enabled || state.text.length < WARM_UP_MIN_LENGTH || !state.isMessageFile()) return;
    this.warmed = true;
    const answered = performance.now();
    const wait = (): number => WARM_UP_QUIET_MS - Math.min(this.clientQuietFor(), performance.now() - answered);
    warmUp(ls, lspDiagnostics, (e) => this.log.error(`msglint: the warm-up of the typing path failed: ${describeError(e)}`), wait);
  }

  private resultId(state: DocumentState): string {
    return `${state.version}:${this.settings.generation}`;
  }

  opened(state: DocumentState): void {
    this.lintNow(state, 'open');
  }

  changed(state: DocumentState): void {
    if (this.mode.pull) return; // the client pulls after a change
    this.cancel(state.uri);
    this.timers.set(
      state.uri,
      setTimeout(() => {
        this.timers.delete(state.uri);
        void this.push(state, 'change');
      }, PUSH_DELAY_MS),
    );
  }

  saved(state: DocumentState): void {
    this.lintNow(state, 'save');
  }

  closed(uri: string): void {
    this.cancel(uri);
    this.snapshots.delete(uri);
    if (!this.mode.pull) void this.connection.sendDiagnostics({ uri, diagnostics: [] }).catch(() => undefined);
  }

  /** Settings or config files changed: every open document is linted again. */
  refreshAll(): void {
    this.snapshots.clear();
    if (this.mode.pull) {
      for (const state of this.store.all()) void this.snapshot(state, 'open');
      if (this.mode.refresh) void this.connection.languages.diagnostics.refresh().catch(() => undefined);
    } else {
      for (const state of this.store.all()) void this.push(state, 'open');
    }
  }

  private lintNow(state: DocumentState, why: 'open' | 'save'): void {
    if (this.mode.pull) void this.snapshot(state, why);
    else void this.push(state, why);
  }

  /** For `run: onSave` in pull mode: remembers the diagnostics of this version. */
  private async snapshot(state: DocumentState, why: 'open' | 'save'): Promise<void> {
    try {
      const ls = await this.settings.forDocument(state);
      if (this.store.get(state.uri) !== state || ls.run !== 'onSave') return;
      if (why === 'open' && this.snapshots.has(state.uri)) return;
      this.snapshots.set(state.uri, { resultId: `saved:${this.resultId(state)}`, items: lspDiagnostics(state, ls) });
      if (why === 'save' && this.mode.refresh) void this.connection.languages.diagnostics.refresh().catch(() => undefined);
    } catch (e) {
      this.log.error(`msglint: diagnostics failed: ${(e as Error)?.stack ?? e}`);
    }
  }

  private async push(state: DocumentState, why: 'open' | 'change' | 'save'): Promise<void> {
    try {
      const ls = await this.settings.forDocument(state);
      // Closed (or closed and opened again) while the settings were read.
      if (this.store.get(state.uri) !== state) return;
      if (ls.run === 'onSave' && why === 'change') return;
      // Computed now, for the version the document has now: never stale.
      const diagnostics = await lspDiagnosticsInSteps(state, ls, NEVER);
      // Changed or closed while it was linted: the change's push follows, a closed document gets none.
      if (typeof diagnostics === 'string' || this.store.get(state.uri) !== state) return;
      await this.connection.sendDiagnostics({ uri: state.uri, version: state.version, diagnostics });
      this.warmAfter(state, ls);
    } catch (e) {
      this.log.error(`msglint: diagnostics failed: ${(e as Error)?.stack ?? e}`);
    }
  }

  private cancel(uri: string): void {
    const t = this.timers.get(uri);
    if (t) {
      clearTimeout(t);
      this.timers.delete(uri);
    }
  }
}
