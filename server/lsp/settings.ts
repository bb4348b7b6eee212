// What a document is linted with: the nearest config file (the same
// discovery as the CLI, see server/config/load.ts; none where the
// environment has no disk) with the editor's `msglint` settings on top (`rules` overrides, `run: onType | onSave`,
// `enable`; `inlayHints`, which inlay hints the server gives). Resolved once per document and kept until the settings or a
// config file change.

import { MessageType, ShowMessageNotification, type Connection } from 'vscode-languageserver/node';
import { ConfigError } from '../config/errors.js';
import { validateConfig } from '../config/validate.js';
import type { MsglintConfig } from '../engine/types.js';
import { allRules } from '../linter.js';
import type { DocumentConfig, DocumentState } from './documents.js';
import type { ConfigFiles } from './environment.js';
import type { Log } from './guard.js';

export type RunMode = 'onType' | 'onSave';

/** Which inlay hints the server gives: every cell's tokens and the totals at replies, only the totals, or none. */
export type InlayHintsMode = 'all' | 'replies' | 'off';

const INLAY_HINTS_MODES: readonly InlayHintsMode[] = ['all', 'replies', 'off'];

export interface LintSettings extends DocumentConfig {
  run: RunMode;
  /** Undefined: 'all'. */
  inlayHints?: InlayHintsMode;
}

/** The editor settings of the `msglint` section, as the client sends them. */
interface ClientSettings {
  enable: boolean;
  run: RunMode;
  rules?: MsglintConfig['rules'];
  inlayHints: InlayHintsMode;
}

const DEFAULTS: ClientSettings = { enable: true, run: 'onType', inlayHints: 'all' };

export class SettingsService {
  private readonly cache = new Map<string, Promise<LintSettings>>();
  /** Settings pushed with workspace/didChangeConfiguration (clients without workspace/configuration). */
  private pushed: unknown;
  /** Config problems already shown to the user (each once). */
  private readonly shown = new Set<string>();
  /** Increases whenever settings or config files change (part of pull result ids). */
  generation = 0;

  constructor(
    private readonly connection: Connection,
    private readonly log: Log,
    /** Whether the client answers workspace/configuration. */
    private readonly pull: boolean,
    private readonly configFiles?: ConfigFiles,
  ) {}

  /** The settings of a document (cached). */
  forDocument(state: DocumentState): Promise<LintSettings> {
    return this.forFile(state.uri, state.fsPath);
  }

  /** The settings of a file, open or not (cached by URI: they are the same either way). */
  forFile(uri: string, fsPath: string | undefined): Promise<LintSettings> {
    let p = this.cache.get(uri);
    if (!p) {
      p = this.resolve(uri, fsPath);
      this.cache.set(uri, p);
    }
    return p;
  }

  forget(uri: string): void {
    this.cache.delete(uri);
  }

  /** The editor settings changed. */
  settingsChanged(settings: unknown): void {
    this.pushed = (settings as { msglint?: unknown } | null | undefined)?.msglint;
    this.cache.clear();
    this.generation++;
  }

  /** A config file was created, changed or deleted. */
  configFilesChanged(): void {
    this.configFiles?.clear();
    this.cache.clear();
    this.shown.clear();
    this.generation++;
  }

  private async resolve(uri: string, fsPath: string | undefined): Promise<LintSettings> {
    const client = await this.clientSettings(uri);
    let config: MsglintConfig = {};
    let enabled = client.enable;
    if (fsPath && this.configFiles) {
      try {
        const found = this.configFiles.forFile(fsPath);
        config = found.config;
        if (found.isIgnored(fsPath)) enabled = false;
      } catch (e) {
        this.problem(e);
      }
    }
    if (client.rules) config = { ...config, rules: { ...config.rules, ...client.rules } };
    return { config, enabled, run: client.run, inlayHints: client.inlayHints, key: JSON.stringify([enabled, config]) };
  }

  private async clientSettings(uri: string): Promise<ClientSettings> {
    let raw: unknown = this.pushed;
    if (this.pull) {
      try {
        raw = await this.connection.workspace.getConfiguration({ scopeUri: uri, section: 'msglint' });
      } catch (e) {
        this.log.warn(`workspace/configuration failed: ${(e as Error)?.message ?? e}`);
      }
    }
    const settings: ClientSettings = { ...DEFAULTS };
    if (raw === null || typeof raw !== 'object') return settings;
    const r = raw as Record<string, unknown>;
    if (r.enable === false) settings.enable = false;
    if (r.run === 'onSave' || r.run === 'onType') settings.run = r.run;
    else if (r.run !== undefined) this.problem(new ConfigError(`msglint.run (editor settings): expected "onType" or "onSave", got ${JSON.stringify(r.run)}`));
    if ((INLAY_HINTS_MODES as readonly unknown[]).includes(r.inlayHints)) settings.inlayHints = r.inlayHints as InlayHintsMode;
    else if (r.inlayHints !== undefined) {
      this.problem(new ConfigError(`msglint.inlayHints (editor settings): expected ${INLAY_HINTS_MODES.map((m) => `"${m}"`).join(', ')}, got ${JSON.stringify(r.inlayHints)}`));
    }
    if (r.rules !== undefined && r.rules !== null) {
      try {
        settings.rules = validateConfig({ rules: r.rules }, 'editor settings', allRules, 'msglint.').rules;
      } catch (e) {
        this.problem(e);
      }
    }
    return settings;
  }

  /** Shows a config problem once (and logs it every time). */
  private problem(e: unknown): void {
    const message = e instanceof ConfigError ? e.message : `Cannot load the msglint config: ${(e as Error)?.message ?? e}`;
    this.log.error(message);
    if (this.shown.has(message)) return;
    this.shown.add(message);
    void this.connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Error, message: `msglint: ${message}` }).catch(() => undefined);
  }
}
