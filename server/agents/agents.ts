// The agents of a parsed message file with their settings: each setting's
// place in the file (for diagnostics) and its checked value (for the rules
// that use the settings, such as `context-window`).

import type { Node } from 'yaml';
import { isSeq } from '../syntax/format/frontmatter.js';
import type { AgentDefinition, MessageDocument } from '../syntax/document.js';
import { assignSetting, checkAttributeSetting, checkYamlSetting, type AgentSettings, type Checked } from './schema.js';
import { Memo } from '../base/memo.js';

export interface AgentSettingEntry {
  key: string;
  /** Absolute offsets of the key. */
  keyAt: [number, number];
  /** Absolute offsets of the value as written (with quotes). */
  valueAt: [number, number];
  /** The whole setting: `key: value` or `key=value`. */
  at: [number, number];
  /** For a YAML list value: each item's offsets. */
  itemsAt?: [number, number][];
  /** The value: plain JavaScript from YAML, or the attribute's text. */
  value: unknown;
  /** For attributes: whether the value was quoted. */
  quoted?: boolean;
  /** The checked value; undefined when the key is not an agent setting. */
  checked?: Checked<unknown>;
  /** A later entry for a key already set (the first one counts). */
  repeated?: boolean;
}

export interface AgentInfo {
  def: AgentDefinition;
  /** Settings as written, in order (frontmatter: the agent's mapping; body: the line's attributes). */
  entries: AgentSettingEntry[];
  /** The valid settings (the first occurrence of each key). */
  settings: AgentSettings;
  /** Frontmatter: the agent's value is not a mapping. */
  notAMapping?: boolean;
  /** Frontmatter: offsets of the agent's value. */
  valueAt?: [number, number];
}

function settingsOf(entries: AgentSettingEntry[]): AgentSettings {
  const settings: AgentSettings = {};
  for (const e of entries) if (!e.repeated && e.checked?.ok) assignSetting(settings, e.key, e.checked.value);
  return settings;
}

function markRepeats(entries: AgentSettingEntry[]): void {
  const seen = new Set<string>();
  for (let i = 0, list = entries; i < list.length; i++) {
    const e = list[i]!;
    if (seen.has(e.key)) e.repeated = true;
    seen.add(e.key);
  }
}

function frontmatterInfos(doc: MessageDocument): AgentInfo[] {
  const out: AgentInfo[] = [];
  const values = doc.frontmatter?.agentsEntry?.value;
  for (let i = 0, list = doc.frontmatter?.agents ?? []; i < list.length; i++) {
    const a = list[i]!;
    // `name:` with nothing after it is an agent without settings, not a wrong value.
    const empty = values !== null && typeof values === 'object' && (values as Record<string, unknown>)[a.name] === null;
    const notAMapping = a.notAMapping === true && !empty;
    const def = doc.agents.find((d) => d.source === 'frontmatter' && d.at[0] === a.nameSpan.start);
    if (!def) continue;
    const entries: AgentSettingEntry[] = a.settings.map((s) => {
      const entry: AgentSettingEntry = {
        key: s.key,
        keyAt: [s.keySpan.start, s.keySpan.end],
        valueAt: [s.valueSpan.start, s.valueSpan.end],
        at: [s.keySpan.start, Math.max(s.valueSpan.end, s.keySpan.end)],
        value: s.value,
        checked: checkYamlSetting(s.key, s.value),
      };
      if (isSeq(s.node)) {
        // Node ranges are relative to the YAML text; the value's span tells the shift.
        const shift = s.valueSpan.start - (s.node as Node).range![0];
        entry.itemsAt = s.node.items.map((item): [number, number] => {
          const r = (item as Node | null)?.range;
          return r ? [r[0] + shift, r[1] + shift] : [s.valueSpan.start, s.valueSpan.end];
        });
      }
      return entry;
    });
    markRepeats(entries);
    const valueEnd = a.span.end;
    out.push({
      def,
      entries,
      settings: settingsOf(entries),
      notAMapping,
      valueAt: notAMapping ? [valueStart(doc, a.nameSpan.end, valueEnd), valueEnd] : undefined,
    });
  }
  return out;
}

/** The start of a YAML value after its key: past `:` and blanks. */
function valueStart(doc: MessageDocument, keyEnd: number, valueEnd: number): number {
  let p = keyEnd;
  const t = doc.text;
  while (p < valueEnd && (t[p] === ':' || t[p] === ' ' || t[p] === '\t' || t[p] === '\r' || t[p] === '\n')) p++;
  return p;
}

function bodyInfo(doc: MessageDocument, def: AgentDefinition): AgentInfo {
  const m = def.metadata!;
  const entries: AgentSettingEntry[] = m.node.attributes.map((a) => ({
    key: a.key,
    keyAt: doc.abs(m.segment, a.keySpan),
    valueAt: doc.abs(m.segment, a.valueSpan),
    at: doc.abs(m.segment, a.span),
    value: a.value,
    quoted: a.quoted,
    checked: checkAttributeSetting(a.key, a.value),
  }));
  markRepeats(entries);
  const settings = settingsOf(entries);
  // "without it the models are the name" (spec section 7).
  settings.models ??= [def.name];
  return { def, entries, settings };
}

const cache = new Memo<MessageDocument, AgentInfo[]>('document');

/** Every agent defined in the file (frontmatter, then body, in file order), with its settings. */
export function agentInfos(doc: MessageDocument): AgentInfo[] {
  let infos = cache.get(doc);
  if (!infos) {
    infos = frontmatterInfos(doc);
    for (const def of doc.agents) if (def.source === 'body' && def.metadata) infos.push(bodyInfo(doc, def));
    cache.set(doc, infos);
  }
  return infos;
}

/** The settings of the agent a cell at `offset` means by `name` (config agents have none). */
export function agentInfoAt(doc: MessageDocument, name: string, offset: number): AgentInfo | undefined {
  const def = doc.agentAt(name, offset);
  if (!def) return undefined;
  return agentInfos(doc).find((i) => i.def === def);
}
