import cliProgress from 'cli-progress';

/** A progress bar per stage of a long command, on stderr (stdout carries the result). */
export interface Progress {
  start(label: string, total: number): { advance(n: number): void; stop(): void };
}

const silent: Progress = { start: () => ({ advance() {}, stop() {} }) };

/** Bars on stderr when it is a terminal and `enabled` (not with --json); otherwise nothing. */
export function progressOnStderr(enabled: boolean): Progress {
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
