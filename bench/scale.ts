import { loadavg } from 'node:os';
import { scaleDatabase } from './scale/databases.js';
import { measure, requestsFor, type Case, type Figures } from './scale/loads.js';
import { timeLookups } from './scale/lookup-query.js';
import { measureMemory, sqliteScaleDatabase, type MemoryFigures } from './scale/memory.js';
import { serverCommand, startScaleServer, type ScaleServer } from './scale/server.js';

// `npm run bench:scale`: does the server slow down as its database grows?
// Two PostgreSQL databases built alike, 1k and 1M users (each with an address
// and a live session), serve whoami, login and signup in alternating rounds;
// the ratios large/small are the result. Then the session lookup's query
// timed inside PostgreSQL at both sizes, and the server's resident memory,
// idle and after 100k distinct sessions were used (PostgreSQL and SQLite).
// Targets: each rate and p99 at 1M within 1.2x of 1k; RSS idle < 130 MiB and
// < 150 MiB after 100k sessions.

const SMALL = Number(process.env.SCALE_SMALL ?? 1_000);
const LARGE = Number(process.env.SCALE_LARGE ?? 1_000_000);
const ROUNDS = Number(process.env.SCALE_ROUNDS ?? 5);
const SECONDS = Number(process.env.SCALE_SECONDS ?? 4);
const MEMORY_SESSIONS = Number(process.env.SCALE_MEMORY_SESSIONS ?? 100_000);
const CASES: Case[] = ['whoami', 'login', 'signup'];

const log = (line: string) => console.log(line);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const load = () => loadavg()[0]!.toFixed(1);

log(`scale bench: ${SMALL} vs ${LARGE} users, ${ROUNDS} rounds of ${SECONDS} s; server: node ${serverCommand.join(' ')}; load average ${load()}`);
const smallUrl = await scaleDatabase(`scale_${SMALL}`, SMALL, log);
const largeUrl = await scaleDatabase(`scale_${LARGE}`, LARGE, log);

const lookups = await timeLookups([
  { url: smallUrl, size: SMALL },
  { url: largeUrl, size: LARGE },
]);

const servers: [ScaleServer, ScaleServer] = [await startScaleServer('small', smallUrl), await startScaleServer('large', largeUrl)];
const sizes = [SMALL, LARGE] as const;
const results = new Map<Case, [Figures[], Figures[]]>();
try {
  for (const kind of CASES) {
    const runs: [Figures[], Figures[]] = [[], []];
    // Warm-up: V8 optimises the path, PostgreSQL's caches fill.
    for (const side of [0, 1] as const) await measure(requestsFor(kind, servers[side].api, sizes[side]), kind === 'whoami' ? 3 : 5);
    for (let round = 0; round < ROUNDS; round++) {
      // Alternating which size goes first, so a drifting machine favours neither.
      for (const side of round % 2 === 0 ? ([0, 1] as const) : ([1, 0] as const)) {
        runs[side].push(await measure(requestsFor(kind, servers[side].api, sizes[side]), SECONDS));
      }
    }
    results.set(kind, runs);
    log(`${kind}: done (load average ${load()})`);
  }
} finally {
  await Promise.all(servers.map((s) => s.stop()));
}

const memory: Array<[string, MemoryFigures]> = [];
memory.push([`PostgreSQL, ${LARGE} users`, await measureMemory('memory-pg', largeUrl, MEMORY_SESSIONS)]);
const sqlite = await sqliteScaleDatabase(MEMORY_SESSIONS);
try {
  memory.push([`SQLite, ${MEMORY_SESSIONS} users`, await measureMemory('memory-sqlite', sqlite.url, MEMORY_SESSIONS)]);
} finally {
  sqlite.remove();
}

const verdicts: boolean[] = [];
const verdict = (met: boolean) => {
  verdicts.push(met);
  return met ? 'met' : 'MISSED';
};
const col = (s: string, n: number) => s.padStart(n);
log(`\nPostgreSQL, medians of ${ROUNDS} rounds (ratios per round, large / small); load average now ${load()}`);
log('case'.padEnd(10) + col(`req/s ${SMALL}`, 14) + col(`req/s ${LARGE}`, 16) + col('rate ratio', 12) + col(`p99 ${SMALL}`, 12) + col(`p99 ${LARGE}`, 14) + col('p99 ratio', 11) + col('errors', 8) + '  target (rate >= 0.83, p99 <= 1.2)');
for (const kind of CASES) {
  const [small, large] = results.get(kind)!;
  const rates = small.map((s, i) => large[i]!.rps / s.rps);
  const p99s = small.map((s, i) => large[i]!.p99 / Math.max(s.p99, 1));
  const rate = median(rates);
  const p99 = median(p99s);
  const errors = [...small, ...large].reduce((n, f) => n + f.errors, 0);
  log(
    kind.padEnd(10) +
      col(median(small.map((f) => f.rps)).toFixed(0), 14) +
      col(median(large.map((f) => f.rps)).toFixed(0), 16) +
      col(rate.toFixed(2), 12) +
      col(`${median(small.map((f) => f.p99)).toFixed(0)} ms`, 12) +
      col(`${median(large.map((f) => f.p99)).toFixed(0)} ms`, 14) +
      col(p99.toFixed(2), 11) +
      col(String(errors), 8) +
      `  ${verdict(rate >= 1 / 1.2 && p99 <= 1.2 && errors === 0)}; rounds ${Math.min(...rates).toFixed(2)}-${Math.max(...rates).toFixed(2)}`,
  );
}

log(`\nSession lookup query inside PostgreSQL (prepared; EXPLAIN ANALYZE for random sessions, rounds alternating)`);
for (const [i, f] of lookups.entries()) {
  log(`  ${String(sizes[i]).padStart(8)} users: ${f.executionUs.toFixed(1)} us execution, ${f.buffers.toFixed(1)} buffers per lookup`);
}
log(`  ratio large / small: ${(lookups[1]!.executionUs / lookups[0]!.executionUs).toFixed(2)}\n  plan:\n${lookups[1]!.plan.replace(/^/gm, '    ')}`);

log(`\nResident memory (node ${serverCommand.join(' ')})`);
for (const [name, f] of memory) {
  log(
    `  ${name.padEnd(28)} idle ${f.idle.toFixed(0)} MiB (target < 130: ${verdict(f.idle < 130)}), ` +
      `after ${f.sessions} distinct sessions ${f.afterSessions.toFixed(0)} MiB (target < 150: ${verdict(f.afterSessions < 150)}), errors ${f.errors}`,
  );
}
log(`\n${verdicts.filter(Boolean).length} of ${verdicts.length} targets met`);
