// The command against markdownlint on the 1,000- and 5,000-turn files, and
// the command's start-up alone.

import { bestOf } from '../lib/process.mjs';
import { MDL, OUT, log, round, target } from '../lib/util.mjs';

/** `msglint --version`, best of the runs: results.startup. */
export async function startupSection(o) {
  log('\n## startup');
  const startup = await bestOf('msglint --version', target.cli, ['--version'], { runs: o.runs });
  delete startup.outputLines;
  return startup;
}

/** results.cli */
export async function cliSection(manifest, o) {
  log('\n## CLI, whole process (msglint vs markdownlint)');
  const cli = {};
  for (const key of ['turns1000', 'turns5000']) {
    const f = manifest.files[key];
    const entry = { file: f.file, bytes: f.bytes };
    entry.msglint = await bestOf(`msglint ${f.file}`, target.cli, [f.path], { runs: o.runs, bytes: f.bytes, cwd: OUT });
    if (key === 'turns1000' || o.full) {
      const runs = key === 'turns1000' ? o.runs : 1;
      entry.markdownlint = await bestOf(`markdownlint ${f.file}${runs === 1 && o.runs > 1 ? ' (1 run)' : ''}`, MDL, [f.path], {
        runs,
        okCodes: [0, 1],
        bytes: f.bytes,
        cwd: OUT,
      });
      entry.markdownlint.findings = entry.markdownlint.outputLines;
      delete entry.markdownlint.outputLines;
      entry.ratio = round(entry.markdownlint.best / entry.msglint.best, 1);
      if (entry.markdownlint.cpu && entry.msglint.cpu) entry.ratioCpu = round(entry.markdownlint.cpu / entry.msglint.cpu, 1);
      log(`  markdownlint / msglint: ${entry.ratio}x wall, ${entry.ratioCpu ?? '?'}x cpu  (markdownlint reports ${entry.markdownlint.findings} findings)`);
    } else {
      entry.markdownlint = { skipped: 'minutes and gigabytes; run with --full' };
    }
    delete entry.msglint.outputLines;
    cli[key] = entry;
  }
  return cli;
}
