// The status bar item: the language server's state, shown while a Markdown
// editor is active; a click shows the output.

import * as vscode from 'vscode';
import { COMMANDS, isMarkdownLike } from './constants.js';

export type ServerState = 'starting' | 'running' | 'stopped' | 'failed';

const ICONS: Record<ServerState, string> = {
  starting: '$(sync~spin)',
  running: '$(check)',
  stopped: '$(circle-slash)',
  failed: '$(error)',
};

export class ServerStatus implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly listeners: vscode.Disposable[] = [];
  private state: ServerState = 'stopped';
  private detail = '';
  private version: string | undefined;

  constructor() {
    this.item = vscode.window.createStatusBarItem('msglint.status', vscode.StatusBarAlignment.Right, 100);
    this.item.name = 'msglint';
    this.item.command = COMMANDS.showOutput;
    this.listeners.push(
      vscode.window.onDidChangeActiveTextEditor(() => this.render()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('msglint.enable')) this.render();
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
  }

  get current(): ServerState {
    return this.state;
  }

  private render(): void {
    const editor = vscode.window.activeTextEditor;
    const doc = editor?.document;
    if (!doc || !isMarkdownLike(doc.languageId, doc.fileName)) {
      this.item.hide();
      return;
    }
    const enabled = vscode.workspace.getConfiguration('msglint', doc.uri).get<boolean>('enable', true);
    const icon = enabled ? ICONS[this.state] : '$(circle-slash)';
    this.item.text = `${icon} msglint`;
    const lines = [`**msglint** language server: ${this.state}${this.version ? ` (version ${this.version})` : ''}`];
    if (!enabled) lines.push('', 'Disabled for this file by `msglint.enable`.');
    if (this.detail) lines.push('', this.detail);
    lines.push('', 'Click to show the output.');
    this.item.tooltip = new vscode.MarkdownString(lines.join('\n'));
    this.item.backgroundColor = this.state === 'failed' ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
    this.item.show();
  }

  dispose(): void {
    for (const l of this.listeners) l.dispose();
    this.item.dispose();
  }
}
