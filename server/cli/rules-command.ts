// `msglint rules`: the rule catalog as the running version knows it.

import { allRules } from '../linter.js';
import type { RulesCommand } from './args.js';
import type { CliIo } from './lint-command.js';

export function runRules(command: RulesCommand, io: Pick<CliIo, 'stdout'>): number {
  const metas = allRules.map(({ meta }) => ({
    id: meta.id,
    group: meta.group,
    severity: meta.severity,
    fixable: meta.fixable,
    description: meta.description,
    docs: meta.docs,
  }));
  if (command.format === 'json') {
    io.stdout.write(`${JSON.stringify(metas, null, 2)}\n`);
    return 0;
  }
  const rows = [
    ['RULE', 'GROUP', 'SEVERITY', 'FIXABLE', 'DOCS'],
    ...metas.map((m) => [m.id, m.group, m.severity, m.fixable ?? '-', m.docs]),
  ];
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((row) => row[col]!.length)));
  const lines = rows.map((row) =>
    row
      .map((cell, col) => (col === row.length - 1 ? cell : cell.padEnd(widths[col]!)))
      .join('  ')
      .trimEnd(),
  );
  io.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
