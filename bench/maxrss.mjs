// Preloaded with `node --import ./bench/maxrss.mjs` when /usr/bin/time is
// missing: on exit, writes the process's peak resident set size (KiB) and its
// user and system CPU seconds to the file named by BENCH_MAXRSS_FILE, in the
// shape of `/usr/bin/time -f '%M %U %S'`.
import { writeFileSync } from 'node:fs';

const target = process.env.BENCH_MAXRSS_FILE;
if (target) {
  process.on('exit', () => {
    try {
      const u = process.resourceUsage();
      writeFileSync(target, `${u.maxRSS} ${(u.userCPUTime / 1e6).toFixed(3)} ${(u.systemCPUTime / 1e6).toFixed(3)}\n`);
    } catch {
      // The benchmark reports a missing figure; never change the exit code.
    }
  });
}
