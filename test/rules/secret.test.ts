// secret: where in a message file a credential is reported, with which
// message, suggestion and fix (rules/secret/detect.ts has the corpus).
import { describe, expect, it } from 'vitest';
import { validateConfig } from '../../server/config/validate.js';
import { rules } from '../../rules/index.js';
import { applyFix, check, checkRule, file, fixText } from '../helpers.js';

const RULE = 'secret';
// Made, not written out: no key-shaped literal in the repository.
const GH = `ghp_${'aB3dE5fG7h'.repeat(3)}K9mN2p`;
const PASSWORD = 'Zq8vR2mK7pLx';
const REDACT = { config: { rules: { secret: ['error', { redact: true }] } } } as const;

const cell = (...body: string[]) => file('# %% Deploy[^1]', '', '[^1]: [markdown]', '', ...body);

describe('secret', () => {
  it('reports exactly the secret, names its kind and never its value', () => {
    const t = cell(`The token is ${GH}, keep it safe.`);
    const found = check(t);
    expect(found.map((f) => [f.ruleId, f.line, f.column, f.text])).toEqual([[RULE, 5, 14, GH]]);
    expect(found[0]!.message).toBe('A GitHub token is written here in plain text: redact it, and revoke it if it is live.');
    expect(found[0]!.message).not.toContain(GH.slice(4));
    expect(found[0]!.diagnostic.severity).toBe(2);
  });

  it('suggests [REDACTED:KIND] and fixes nothing by default', () => {
    const t = cell(`DATABASE_URL=postgres://app:${PASSWORD}@db.internal/app`);
    const [f] = checkRule(RULE, t);
    expect(f!.diagnostic.fix).toBeUndefined();
    expect(f!.diagnostic.suggestions?.map((s) => s.desc)).toEqual(['Replace it with [REDACTED:URL_PASSWORD]']);
    expect(applyFix(t, f!.diagnostic, 0)).toBe(cell('DATABASE_URL=postgres://app:[REDACTED:URL_PASSWORD]@db.internal/app'));
    expect(fixText(t)).toBe(t);
  });

  it('redacts on --fix with { "redact": true }, once', () => {
    const t = cell(`export GITHUB_TOKEN=${GH}`, `curl -H "Authorization: Bearer ${PASSWORD}0a1b2c3d"`);
    const fixed = fixText(t, REDACT);
    expect(fixed).toBe(cell('export GITHUB_TOKEN=[REDACTED:GITHUB_TOKEN]', 'curl -H "Authorization: Bearer [REDACTED:BEARER_TOKEN]"'));
    expect(checkRule(RULE, fixed, REDACT)).toEqual([]);
    expect(fixText(fixed, REDACT)).toBe(fixed);
  });

  it('checks the frontmatter', () => {
    const t = file('---', 'agents:', '  coder:', `    token: ${GH}`, '---', '', '# %% Hi[^1]', '', '[^1]: [markdown]', '', 'Hello.');
    expect(checkRule(RULE, t).map((f) => [f.line, f.column, f.text])).toEqual([[4, 12, GH]]);
    expect(fixText(t, REDACT)).toContain('    token: [REDACTED:GITHUB_TOKEN]\n');
  });

  it("checks a tool call's arguments and a tool result", () => {
    const t = file(
      '# %%% Call[^1.k7f3q]',
      '',
      '[^1.k7f3q]: [tool] name="http"',
      '',
      '<tool>',
      '<server_name>local</server_name>',
      '<tool_name>http</tool_name>',
      `<arguments><url>https://deploy:${PASSWORD}@example.org/</url></arguments>`,
      '</tool>',
      '',
      '# %%% Result[^1.k7f3q.1]',
      '',
      '[^1.k7f3q.1]: [tool] status="success"',
      '',
      `GITHUB_TOKEN=${GH}`,
    );
    expect(checkRule(RULE, t).map((f) => [f.line, f.text])).toEqual([
      [8, PASSWORD],
      [15, GH],
    ]);
  });

  it('checks text before the first cell', () => {
    expect(checkRule(RULE, file(`Notes: ${GH}`, '', '# %% Hi[^1]', '', '[^1]: [markdown]', '', 'Hello.')).map((f) => f.line)).toEqual([1]);
  });

  it('leaves the base64 body of a binary output alone, not a textual one', () => {
    // The base64 alphabet holds key prefixes by chance; the format says such a body is base64 (section 6).
    const body = `stdout> iVBORw0KGgoAAAANSUhEUgAA/AIza${'Q'.repeat(35)}+xyz`;
    const output = (mime: string) =>
      file('# %% Run[^1]', '', '[^1]: [code]', '', '```python', 'plot()', '```', '', '# %%% Output[^1.1]', '', `[^1.1]: [python] mime_type="${mime}"`, '', body);
    expect(checkRule(RULE, output('image/png'))).toEqual([]);
    expect(checkRule(RULE, output('text/plain')).map((f) => f.text)).toEqual([`AIza${'Q'.repeat(35)}`]);
  });

  it('is silent on code that names a key and on documented samples', () => {
    const t = cell(
      '```python',
      'api_key = os.environ["OPENAI_API_KEY"]',
      'headers = {"Authorization": f"Bearer {api_key}"}',
      '```',
      '',
      'AWS documents AKIAIOSFODNN7EXAMPLE; see postgres://user:password@localhost/db.',
    );
    expect(checkRule(RULE, t)).toEqual([]);
  });

  it('is disabled by a disable comment, as any rule', () => {
    const t = cell('<!-- msglint-disable-next-line secret -->', `test fixture: ${GH}`);
    expect(checkRule(RULE, t)).toEqual([]);
  });

  describe('options', () => {
    const validate = (options: unknown) => {
      try {
        validateConfig({ rules: { secret: ['error', options] } }, 'config', rules);
        return null;
      } catch (e) {
        return (e as Error).message;
      }
    };
    it('accepts { redact: true | false }', () => {
      expect(validate({ redact: true })).toBeNull();
      expect(validate({ redact: false })).toBeNull();
      expect(validate({})).toBeNull();
    });
    it('rejects anything else, saying what is expected', () => {
      expect(validate({ redact: 'yes' })).toContain('"redact" must be true or false');
      expect(validate({ mask: true })).toContain('unknown option "mask"');
      expect(validate(true)).toContain('expected an object');
    });
  });
});
