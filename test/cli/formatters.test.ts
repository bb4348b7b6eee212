// The formatters on hand-made reports: exact layouts and escaping, without
// depending on any rule.

import path from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { loadFormatter } from '../../server/cli/formatters/index.js';
import type { FileReport, FormatContext, LintMessage } from '../../server/cli/formatters/types.js';
import { errorsOnly, withCounts } from '../../server/cli/report.js';
import type { RuleMeta } from '../../server/engine/types.js';

const cwd = path.resolve('/work/project');

const rules: RuleMeta[] = [
  { id: 'cell-marker', group: 'structure', severity: 'error', fixable: 'fix', description: 'Malformed marker.', docs: 'https://example.com/cell-marker' },
  { id: 'cell-id-missing', group: 'structure', severity: 'warning', fixable: 'fix', description: 'No id.', docs: 'https://example.com/cell-id-missing' },
];

const context: FormatContext = { cwd, color: false, rules, version: '1.2.3' };

function message(overrides: Partial<LintMessage>): LintMessage {
  return { ruleId: 'cell-marker', severity: 2, message: 'Bad marker.', line: 1, column: 1, endLine: 1, endColumn: 4, ...overrides };
}

function report(file: string, messages: LintMessage[]): FileReport {
  return withCounts({
    filePath: path.join(cwd, file),
    messages,
    suppressedMessages: [],
    errorCount: 0,
    fatalErrorCount: 0,
    warningCount: 0,
    fixableErrorCount: 0,
    fixableWarningCount: 0,
    usedDeprecatedRules: [],
  });
}

const sample: FileReport[] = [
  report('docs/a.msg.md', [
    message({ line: 3, column: 2, fix: { range: [10, 10], text: ' ' } }),
    message({ ruleId: 'cell-id-missing', severity: 1, message: 'No id here', line: 12, column: 10, endColumn: 15 }),
  ]),
  report('clean.msg.md', []),
  report('odd,name:100%.msg.md', [
    message({ ruleId: 'unused-disable', severity: 1, message: 'Line one\nline two with 50% & <b> "q" \u0001', line: 2 }),
  ]),
];

describe('stylish', () => {
  it('lays out problems like ESLint', async () => {
    const out = (await loadFormatter('stylish'))(sample, context);
    expect(out).toBe(
      [
        '',
        'docs/a.msg.md',
        '   3:2   error    Bad marker  cell-marker',
        '  12:10  warning  No id here  cell-id-missing',
        '',
        'odd,name:100%.msg.md',
        '  2:1  warning  Line one line two with 50% & <b> "q" \u2401  unused-disable',
        '',
        '\u2716 3 problems (1 error, 2 warnings)',
        '  1 error and 0 warnings potentially fixable with the --fix option.',
        '',
        '',
      ].join('\n'),
    );
  });

  it('prints nothing without problems and uses singular forms', async () => {
    const stylish = await loadFormatter('stylish');
    expect(stylish([report('clean.msg.md', [])], context)).toBe('');
    const one = stylish([report('a.msg.md', [message({ severity: 1, ruleId: 'cell-id-missing' })])], context);
    expect(one).toContain('\u2716 1 problem (0 errors, 1 warning)\n');
    expect(one).not.toContain('fixable');
  });

  it('colours only when asked to', async () => {
    const stylish = await loadFormatter('stylish');
    const coloured = stylish(sample, { ...context, color: true });
    expect(coloured).toContain('\u001b[4mdocs/a.msg.md\u001b[24m');
    expect(coloured).toContain('\u001b[31merror\u001b[39m');
    expect(coloured.replace(/\u001b\[\d+m/g, '')).toBe(stylish(sample, context));
  });

  it('keeps paths outside the working directory absolute', async () => {
    const outside = { ...report('x.msg.md', [message({})]), filePath: path.resolve('/elsewhere/x.msg.md') };
    expect((await loadFormatter('stylish'))([outside], context)).toContain(`\n${path.resolve('/elsewhere/x.msg.md')}\n`);
  });
});

describe('json', () => {
  it('prints the reports in ESLint shape', async () => {
    const parsed = JSON.parse((await loadFormatter('json'))(sample, context));
    expect(parsed).toHaveLength(3);
    expect(Object.keys(parsed[0])).toEqual([
      'filePath',
      'messages',
      'suppressedMessages',
      'errorCount',
      'fatalErrorCount',
      'warningCount',
      'fixableErrorCount',
      'fixableWarningCount',
      'usedDeprecatedRules',
    ]);
    expect(parsed[0]).toMatchObject({ errorCount: 1, warningCount: 1, fixableErrorCount: 1, fixableWarningCount: 0 });
    expect(parsed[0].messages[0]).toEqual({
      ruleId: 'cell-marker',
      severity: 2,
      message: 'Bad marker.',
      line: 3,
      column: 2,
      endLine: 1,
      endColumn: 4,
      fix: { range: [10, 10], text: ' ' },
    });
  });

  it('--quiet filtering recounts', () => {
    expect(errorsOnly(sample[0]!)).toMatchObject({ errorCount: 1, warningCount: 0, fixableWarningCount: 0 });
    expect(errorsOnly(sample[0]!).messages).toHaveLength(1);
  });
});

describe('sarif', () => {
  it('describes every rule and points results at them', async () => {
    const log = JSON.parse((await loadFormatter('sarif'))(sample, context));
    expect(log).toMatchObject({ version: '2.1.0', $schema: expect.stringContaining('sarif') });
    const [run] = log.runs;
    expect(run.tool.driver).toMatchObject({ name: 'msglint', version: '1.2.3', informationUri: expect.stringMatching(/^https:/) });
    expect(run.tool.driver.rules.map((r: { id: string }) => r.id)).toEqual(['cell-marker', 'cell-id-missing', 'unused-disable']);
    expect(run.tool.driver.rules[0]).toEqual({
      id: 'cell-marker',
      shortDescription: { text: 'Malformed marker.' },
      helpUri: 'https://example.com/cell-marker',
      defaultConfiguration: { level: 'error' },
      properties: { tags: ['structure'] },
    });
    expect(run.results).toHaveLength(3);
    for (const result of run.results) expect(run.tool.driver.rules[result.ruleIndex].id).toBe(result.ruleId);
    expect(run.results[1]).toEqual({
      ruleId: 'cell-id-missing',
      ruleIndex: 1,
      level: 'warning',
      message: { text: 'No id here' },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: 'docs/a.msg.md', uriBaseId: '%SRCROOT%' },
            region: { startLine: 12, startColumn: 10, endLine: 1, endColumn: 15 },
          },
        },
      ],
    });
    expect(run.results[2].locations[0].physicalLocation.artifactLocation.uri).toBe('odd%2Cname%3A100%25.msg.md');
    expect(run.originalUriBaseIds['%SRCROOT%'].uri).toMatch(/^file:\/\/.*\/$/);
  });

  it('is a valid empty log without problems', async () => {
    const log = JSON.parse((await loadFormatter('sarif'))([report('clean.msg.md', [])], context));
    expect(log.runs[0].results).toEqual([]);
  });
});

describe('github', () => {
  it('prints one escaped workflow command per message', async () => {
    const out = (await loadFormatter('github'))(sample, context);
    expect(out.split('\n')).toEqual([
      '::error file=docs/a.msg.md,line=3,col=2,endLine=1,endColumn=4,title=cell-marker::Bad marker.',
      '::warning file=docs/a.msg.md,line=12,col=10,endLine=1,endColumn=15,title=cell-id-missing::No id here',
      '::warning file=odd%2Cname%3A100%25.msg.md,line=2,col=1,endLine=1,endColumn=4,title=unused-disable::Line one%0Aline two with 50%25 & <b> "q" \u2401',
      '',
    ]);
  });
});

describe('junit', () => {
  it('is well-formed XML with a suite per file and a case per message', async () => {
    const xml = (await loadFormatter('junit'))(sample, context);
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml).not.toContain('\u0001');
    const doc = new XMLParser({ ignoreAttributes: false, isArray: (name) => ['testsuite', 'testcase'].includes(name) }).parse(xml);
    expect(doc.testsuites['@_tests']).toBe('4');
    expect(doc.testsuites['@_failures']).toBe('3');
    const [a, clean, odd] = doc.testsuites.testsuite;
    expect(a['@_name']).toBe('docs/a.msg.md');
    expect(a.testcase.map((t: { failure: Record<string, string> }) => t.failure['@_type'])).toEqual(['error', 'warning']);
    expect(clean.testcase).toHaveLength(1);
    expect(clean.testcase[0].failure).toBeUndefined();
    expect(xml).toContain('50% &amp; &lt;b&gt; &quot;q&quot; \ufffd');
    expect(odd.testcase[0].failure['@_message']).toContain('50% & <b>');
  });
});
