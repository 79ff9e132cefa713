import type { Command } from 'commander';
import { CliError } from './errors.js';

/** What a command answers: JSON for scripts, text for people, and its exit status. */
export interface CommandResult {
  json: unknown;
  text: string;
  /** 0 unless the command finished but did not do all it was asked (an import with conflicts). */
  exitCode?: number;
}

export function wantsJson(command: Command): boolean {
  return command.optsWithGlobals<{ json?: boolean }>().json === true;
}

/**
 * Runs a command's work and prints its result on stdout: JSON with --json,
 * text otherwise. An expected failure (CliError) goes to stderr as text, or
 * to stdout as {"errors": [...]} with --json, and sets exit status 1.
 */
export async function respond(command: Command, work: () => Promise<CommandResult>): Promise<void> {
  const json = wantsJson(command);
  try {
    const result = await work();
    process.stdout.write(json ? `${JSON.stringify(result.json, null, 2)}\n` : result.text.endsWith('\n') || result.text === '' ? result.text : `${result.text}\n`);
    process.exitCode = result.exitCode ?? 0;
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    if (json) process.stdout.write(`${JSON.stringify({ errors: error.errors }, null, 2)}\n`);
    else for (const item of error.errors) process.stderr.write(`error: ${item.message} (${item.code}${item.param ? `, ${item.param}` : ''})\n`);
    process.exitCode = 1;
  }
}

/** A time for people: UTC, to the second. */
export function formatTime(millis: number | null): string {
  return millis === null ? '-' : new Date(millis).toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z');
}

/** A time for scripts: ISO 8601 with milliseconds, or null. */
export function isoTime(millis: number | null): string | null {
  return millis === null ? null : new Date(millis).toISOString();
}

/** Columns aligned on the widest cell; the header row first. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ').trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}
