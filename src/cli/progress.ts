import cliProgress from 'cli-progress';
import type { ImportProgress } from '../flows/admin/import-allauth/import.js';

// A progress bar per step of an import, on stderr (stdout carries the result).

const silent: ImportProgress = { start: () => ({ advance() {}, stop() {} }) };

/** Bars on stderr when it is a terminal and `enabled` (not with --json); otherwise nothing. */
export function progressOnStderr(enabled: boolean): ImportProgress {
  if (!enabled || !process.stderr.isTTY) return silent;
  return {
    start(label, total) {
      const bar = new cliProgress.SingleBar(
        { format: `${label.padEnd(9)} [{bar}] {value}/{total} {percentage}%  {eta_formatted} left`, stream: process.stderr, hideCursor: true },
        cliProgress.Presets.shades_classic,
      );
      bar.start(total, 0);
      return { advance: (n) => bar.increment(n), stop: () => bar.stop() };
    },
  };
}
