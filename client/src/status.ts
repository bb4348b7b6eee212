// The status bar item, shown while a Markdown editor is active: the
// language server's state, the file's msglint problems (errors, warnings)
// and, for a message file, the whole LLM view's tokens against the default
// agent's context window (the server's msglint/viewTotal). A click on a
// message file runs "Export LLM view…"; anywhere else it shows the output.

import * as vscode from 'vscode';
import { COMMANDS, isMarkdownLike } from './constants.js';

export type ServerState = 'starting' | 'running' | 'stopped' | 'failed';

/** What msglint/viewTotal answers for a message file. */
export interface ViewTotal {
  tokens: number;
  agent?: string;
  window?: number;
  label: string;
  tooltip: string;
}

/** Asks the server for a document's total (null: not a message file). */
export type TotalSource = (doc: vscode.TextDocument) => Promise<ViewTotal | null>;

const ICONS: Record<ServerState, string> = {
  starting: '$(sync~spin)',
  running: '$(check)',
  stopped: '$(circle-slash)',
  failed: '$(error)',
};

/** The diagnostics' `source` of msglint's problems. */
const SOURCE = 'msglint';

/** How long typing pauses before the total is asked for again. */
const TOTAL_DELAY_MS = 400;

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

export class ServerStatus implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly listeners: vscode.Disposable[] = [];
  private state: ServerState = 'stopped';
  private detail = '';
  private version: string | undefined;
  private totals: TotalSource | undefined;
  /** The last total, of the document and version it was asked for. */
  private total: { uri: string; version: number; value: ViewTotal | null } | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    this.item = vscode.window.createStatusBarItem('msglint.status', vscode.StatusBarAlignment.Right, 100);
    this.item.name = 'msglint';
    this.item.command = COMMANDS.showOutput;
    this.listeners.push(
      vscode.window.onDidChangeActiveTextEditor(() => {
        this.render();
        this.refreshTotal(0);
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('msglint.enable')) this.render();
      }),
      vscode.languages.onDidChangeDiagnostics((e) => {
        const doc = vscode.window.activeTextEditor?.document;
        if (doc && e.uris.some((u) => u.toString() === doc.uri.toString())) this.render();
      }),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document === vscode.window.activeTextEditor?.document) this.refreshTotal(TOTAL_DELAY_MS);
      }),
    );
    this.render();
  }

  /** The server's state; `detail` says why it stopped or failed, `version` is the server's. */
  set(state: ServerState, detail = '', version?: string): void {
    this.state = state;
    this.detail = detail;
    if (version !== undefined) this.version = version;
    this.render();
    if (state === 'running') this.refreshTotal(0);
  }

  get current(): ServerState {
    return this.state;
  }

  /** Where totals come from (the language client, once made). */
  useTotals(source: TotalSource): void {
    this.totals = source;
    this.refreshTotal(0);
  }

  /** Asks for the active document's total after `delay` ms; a newer question replaces it. */
  private refreshTotal(delay: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.askTotal(), delay);
  }

  private async askTotal(): Promise<void> {
    const doc = vscode.window.activeTextEditor?.document;
    if (!doc || !this.totals || this.state !== 'running' || !isMarkdownLike(doc.languageId, doc.fileName)) return;
    const version = doc.version;
    let value: ViewTotal | null;
    try {
      value = await this.totals(doc);
    } catch {
      // Cancelled or changed meanwhile: the next change asks again; keep the last.
      return;
    }
    if (vscode.window.activeTextEditor?.document !== doc) return;
    this.total = { uri: doc.uri.toString(), version, value };
    this.render();
  }

  /** Errors and warnings msglint reports in a document. */
  private problems(doc: vscode.TextDocument): { errors: number; warnings: number } {
    let errors = 0;
    let warnings = 0;
    for (const d of vscode.languages.getDiagnostics(doc.uri)) {
      if (d.source !== SOURCE) continue;
      if (d.severity === vscode.DiagnosticSeverity.Error) errors++;
      else if (d.severity === vscode.DiagnosticSeverity.Warning) warnings++;
    }
    return { errors, warnings };
  }

  private render(): void {
    const editor = vscode.window.activeTextEditor;
    const doc = editor?.document;
    if (!doc || !isMarkdownLike(doc.languageId, doc.fileName)) {
      this.item.hide();
      return;
    }
    const enabled = vscode.workspace.getConfiguration('msglint', doc.uri).get<boolean>('enable', true);
    const running = enabled && this.state === 'running';
    const icon = enabled ? ICONS[this.state] : '$(circle-slash)';
    const { errors, warnings } = running ? this.problems(doc) : { errors: 0, warnings: 0 };
    const total = running && this.total?.uri === doc.uri.toString() ? this.total.value : null;
    const parts = [`${icon} msglint`];
    if (errors || warnings) parts.push(`$(error) ${errors} $(warning) ${warnings}`);
    if (total) parts.push(total.label);
    this.item.text = parts.join('  ');
    const lines = [`**msglint** language server: ${this.state}${this.version ? ` (version ${this.version})` : ''}`];
    if (!enabled) lines.push('', 'Disabled for this file by `msglint.enable`.');
    if (this.detail) lines.push('', this.detail);
    if (running) lines.push('', `This file: ${plural(errors, 'error')}, ${plural(warnings, 'warning')}.`);
    if (total) lines.push('', total.tooltip);
    lines.push('', total ? 'Click to export the LLM view.' : 'Click to show the output.');
    this.item.tooltip = new vscode.MarkdownString(lines.join('\n'));
    this.item.command = total ? COMMANDS.exportLLMView : COMMANDS.showOutput;
    this.item.backgroundColor = this.state === 'failed' ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
    this.item.show();
  }

  dispose(): void {
    clearTimeout(this.timer);
    for (const l of this.listeners) l.dispose();
    this.item.dispose();
  }
}
