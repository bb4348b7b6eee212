// Configs that validateConfig accepts and rejects, shared by its tests and by
// the test that holds msglint.schema.json to the same verdicts. The rule ids
// are built-in ones, so the shipped schema knows them.

/** Each documented key and form; the first is the README's example with every top-level key. */
export const ACCEPTED: Record<string, unknown>[] = [
  {
    $schema: 'https://example.com/schema.json',
    root: true,
    rules: {
      'cell-marker': 'warn',
      'context-window': ['error', { limit: 5 }],
      'unused-disable': 0,
      'unknown-rule': ['off'],
    },
    agents: ['coder'],
    languages: ['elixir'],
    ignores: ['drafts/**', '*.tmp.msg.md'],
  },
  {},
  { rules: { 'cell-marker': 2, 'empty-cell': ['warn'] } },
  { extends: './base.json' },
  { extends: ['msglint-config-team', '@acme', '../shared/.msglintrc.yaml'] },
  { overrides: [] },
  {
    overrides: [
      { files: ['drafts/**'], rules: { 'empty-cell': 'off' } },
      { files: ['*.review.msg.md'], agents: ['reviewer'], languages: ['elixir'] },
    ],
  },
];

/** A config and (part of) the one line validateConfig says about it. */
export const REJECTED: [unknown, string][] = [
    [[], 'cfg.json: expected an object, got an array'],
    ['rules', 'cfg.json: expected an object, got a string'],
    [{ rule: {} }, 'cfg.json: unknown key "rule" (allowed: root, extends, rules, agents, languages, ignores, overrides)'],
    [{ root: 'yes' }, 'cfg.json: "root" must be true or false, got a string'],
    [{ rules: [] }, 'cfg.json: "rules" must be an object mapping rule ids to severities, got an array'],
    [{ rules: { 'cell-markr': 'off' } }, 'cfg.json: unknown rule "cell-markr" in "rules" (did you mean "cell-marker"?)'],
    [{ rules: { 'totally-else': 'off' } }, 'cfg.json: unknown rule "totally-else" in "rules"'],
    [{ rules: { 'cell-marker': 'warning' } }, 'cfg.json: "rules.cell-marker": expected "off", "warn", "error", 0, 1, 2 or [severity, options], got a string'],
    [{ rules: { 'cell-marker': 3 } }, '"rules.cell-marker": expected'],
    [{ rules: { 'cell-marker': [] } }, '"rules.cell-marker": expected'],
    [{ rules: { 'cell-marker': ['warn', {}, 1] } }, '"rules.cell-marker": expected'],
    [{ rules: { 'context-window': ['warn', { limit: 'big' }] } }, 'cfg.json: "rules.context-window": invalid options: "limit" must be a number'],
    [{ agents: 'coder' }, 'cfg.json: "agents" must be an array of strings, got a string'],
    [{ languages: ['ok', 3] }, 'cfg.json: "languages[1]" must be a non-empty string, got 3'],
    [{ ignores: [''] }, '"ignores[0]" must be a non-empty string'],
    [{ ignores: ['!keep.msg.md'] }, '"ignores[0]": negated patterns ("!…") are not supported'],
  [{ extends: 5 }, 'cfg.json: "extends" must be a string or an array of strings, got 5'],
  [{ extends: [''] }, '"extends[0]" must be a non-empty string'],
  [{ overrides: {} }, 'cfg.json: "overrides" must be an array of objects, got an object'],
  [{ overrides: ['x'] }, 'cfg.json: "overrides[0]" must be an object, got a string'],
  [{ overrides: [{ rules: {} }] }, 'cfg.json: "overrides[0]" needs "files", the patterns of the files it applies to'],
  [{ overrides: [{ files: [] }] }, 'cfg.json: "overrides[0].files" must name at least one pattern'],
  [{ overrides: [{ files: 'a.msg.md' }] }, '"overrides[0].files" must be an array of strings'],
  [{ overrides: [{ files: ['!a'] }] }, '"overrides[0].files[0]": negated patterns ("!…") are not supported'],
  [{ overrides: [{ files: ['a'], ignores: ['b'] }] }, 'unknown key "overrides[0].ignores" (allowed: files, rules, agents, languages)'],
  [{ overrides: [{ files: ['a'], rules: { 'cell-markr': 'off' } }] }, 'unknown rule "cell-markr" in "overrides[0].rules"'],
  [{ overrides: [{ files: ['a'], rules: { 'cell-marker': 'loud' } }] }, '"overrides[0].rules.cell-marker": expected'],
  [{ overrides: [{ files: ['a'], $schema: 'x' }] }, 'unknown key "overrides[0].$schema"'],
];
