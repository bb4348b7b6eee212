// Root cause: a frontmatter whose agents cannot be read (frontmatter-yaml:
// not valid YAML, not a mapping, never closed; agent-config: `agents` is not
// a mapping). The agents it declares are unknown, so a reply's type that
// names none of the known agents is not reported, nor is `default_agent`.
import { describe, expect, it } from 'vitest';
import { build, edit, findings } from './conversation.js';

const broken = (...yaml: string[]) => ['---', ...yaml, '---', ''];

describe('cascades of a frontmatter that cannot be read (frontmatter-yaml)', () => {
  it('YAML that is not valid: the replies of `coder` are not reported unknown', () => {
    expect(findings(build({}, broken('agents:', '  coder:', '    models: [gpt-4o', 'default_agent: coder')))).toEqual([
      'frontmatter-yaml 5:1 d',
    ]);
  });

  it('a key twice, or a tab', () => {
    expect(findings(build({}, broken('agents:', '  coder:', '    models: [gpt-4o]', 'default_agent: coder', 'default_agent: coder')))).toEqual([
      'frontmatter-yaml 6:1 default_agent',
    ]);
    expect(findings(build({}, broken('agents:', '\tcoder:', '    models: [gpt-4o]')))).toEqual(['frontmatter-yaml 3:1 \t']);
  });

  it('not a mapping', () => {
    expect(findings(build({}, broken('- coder', '- reviewer')))).toEqual(['frontmatter-yaml 2:1 - coder\n- reviewer']);
  });

  it('never closed', () => {
    expect(findings(build({}, ['---', 'agents:', '  coder:', '    models: [gpt-4o]', '']))).toEqual(['frontmatter-yaml 1:1 ---']);
  });

  it('still reports what stands on its own: a message type on an output cell', () => {
    const t = build({ done: edit('done', '[coder]', '[markdown]') }, broken('agents:', '  coder:', '    models: [gpt-4o'));
    expect(findings(t)).toEqual(['frontmatter-yaml 4:19 o', 'unknown-agent 50:8 markdown']);
  });
});

describe('cascades of `agents` that is not a mapping (agent-config)', () => {
  it('no unknown agent, no default_agent naming nothing', () => {
    expect(findings(build({}, broken('agents: coder', 'default_agent: coder')))).toEqual(['agent-config 2:9 coder']);
  });
});
