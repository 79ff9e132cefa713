import { spawnSync } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type autocannon from 'autocannon';
import pg from 'pg';
import { PASSWORD, ROUNDS, SECONDS, cleanUp, dir, inTurn, measure, median, signUp, spread, warmUp, type Figures } from './harness.js';
import { childLoadGenerator, clockTicks, loadFromChild, nodeFlags, pinToCores, releaseCores, startArgs, startProcess, type Pinning, type Process } from './processes.js';

// The hot path against its baselines, all measured in the same run: the
// server as `npm start` runs it (compiled, NODE_ENV=production, default
// settings, the access log on) beside a Fastify hello-world, a bare
// node:http hello-world, and Fastify replaying the server's own answers to
// the same requests (what those bytes and headers cost any Fastify route;
// and, with one buffered access line a request, what Fastify allows a server
// that keeps its access log), each in a process of its own with the same
// node and flags. Every case is a short autocannon run; each round runs every
// case once, starting one further along each time, and the medians of the
// rounds are reported. Server CPU per request is read from /proc. The CPU
// ratios come from a second run of each case per round at the same time as
// the Fastify hello-world, both servers on one core: this VM's speed drifts
// by a fifth from one second to the next, which two runs taken apart in
// time do not share, and two runs taken together do.
// Targets: whoami by session token (SQLite) at most 1.5x the Fastify
// hello-world's CPU per request, a stateless JWT whoami and GET /config at
// most 1.3x; whoami by session token at least 0.6x the bare node:http
// throughput.

/** Connections per autocannon run (the issue's figures: wrk, 50 connections). */
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
/** Unmeasured seconds per case before the rounds. */
const WARM_UP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
/** A role that may create and drop databases; the PostgreSQL case is skipped when it cannot connect. */
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface HotCase {
  name: string;
  figures: Figures;
  /** Median over rounds of this case's CPU per request / the Fastify hello-world's, the two loaded at the same time. */
  cpuVsFastify: number;
  cpuVsFastifyRounds: number[];
  /** Median over rounds of that ratio / the same of Fastify replaying the case's answer, where there is one. */
  cpuVsReplay?: number;
  /** The same against Fastify replaying the answer with its one-line access log: what Fastify allows. */
  cpuVsLoggedReplay?: number;
  cpuVsLoggedReplayRounds?: number[];
  /** Median over rounds of this case's req/s / bare node:http's in the same round. */
  rpsVsNode: number;
  rpsVsNodeRounds: number[];
}

export interface HotPath {
  cases: Map<string, HotCase>;
  /** Where the servers and the load generator ran. */
  pinning: Pinning | null;
  /** Resident memory of each process after its runs, MiB. */
  rss: Array<[string, number]>;
  notes: string[];
}

interface Spec {
  key: string;
  name: string;
  server: Process;
  request: () => Promise<autocannon.Options>;
  /** Statuses that are the expected answer (401 for a missing token). */
  expected?: number[];
  /** The key of the case replaying this one's answer. */
  replayedBy?: string;
  /** The key of the case replaying it with an access log. */
  loggedReplayBy?: string;
}

const HOP_BY_HOP = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding', 'x-request-id']);

/** The server's answer to `options` (status, headers but those Fastify sets itself, body text), for fastify-replay.mjs. */
async function answerOf(options: autocannon.Options): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const response = await fetch(options.url, { headers: options.headers as Record<string, string> | undefined });
  const headers = Object.fromEntries([...response.headers].filter(([name]) => !HOP_BY_HOP.has(name)));
  return { status: response.status, headers, body: await response.text() };
}

/** The compiled server; `npm run build` first unless BENCH_BUILD=false. */
export function build(): void {
  if (process.env.BENCH_BUILD === 'false') return;
  const result = spawnSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`npm run build failed (${result.error?.message ?? `exit ${result.status}`})`);
}

/** What production requires, rate limits off; everything else at its default (the access log included). */
export function serverEnv(databaseUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    // Only PATH from the bench's own environment, so that no setting of the shell leaks in.
    PATH: process.env.PATH ?? '',
    NODE_ENV: 'production',
    SECRET_KEY: 'bench-secret-key-bench-secret-key-0123456789',
    FRONTEND_URL: 'https://bench.example.com',
    EMAIL_BACKEND: 'console',
    ACCOUNT_RATE_LIMITS: 'false',
    DATABASE_URL: databaseUrl,
    ...extra,
  };
}

export const baselineEnv = () => ({ PATH: process.env.PATH ?? '', NODE_ENV: 'production' });

/** A fresh database `bench_<random>` on the PostgreSQL server, or why there is none. */
export async function postgresDatabase(): Promise<{ url: string; drop(): Promise<void> } | { skipped: string }> {
  const admin = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch (error) {
    await admin.end().catch(() => {});
    return { skipped: `PostgreSQL case skipped: cannot connect to ${POSTGRES_URL} (${(error as Error).message}); set BENCH_POSTGRES_URL` };
  }
  const name = `bench_${randomBytes(6).toString('hex')}`;
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } catch (error) {
    await admin.end();
    return { skipped: `PostgreSQL case skipped: CREATE DATABASE failed (${(error as Error).message})` };
  }
  await admin.end();
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/** Starts every process at once; stops those that started when one fails. */
export async function startAll(starts: Array<Promise<Process>>): Promise<Process[]> {
  const settled = await Promise.allSettled(starts);
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  const started = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  if (failed) {
    await Promise.all(started.map((p) => p.stop()));
    throw failed.reason;
  }
  return started;
}

async function signedUp(server: Process): Promise<{ session_token: string; access_token?: string }> {
  const meta = await signUp({ api: `${server.origin}/_service/app/v1` });
  if (!meta?.session_token && !meta?.access_token) throw new Error(`${server.name}: signup gave no token (${JSON.stringify(meta)})`);
  return meta;
}

/**
 * An access token for a JWT server, renewed by a login once it is 150 s old
 * (they live 300 s by default), outside the measured runs.
 */
function accessTokens(server: Process, first: string): () => Promise<string> {
  let token = first;
  let issued = Date.now();
  return async () => {
    if (Date.now() - issued > 150_000) {
      const response = await fetch(`${server.origin}/_service/app/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'bench@example.com', password: PASSWORD }),
      });
      const body = (await response.json()) as { meta?: { access_token?: string } };
      if (!body.meta?.access_token) throw new Error(`${server.name}: login gave no access token (${response.status})`);
      token = body.meta.access_token;
      issued = Date.now();
    }
    return token;
  };
}

/**
 * The CPU per request of `spec` over that of `reference`, the two loaded at
 * the same time, each by a process of its own. A run whose answers are not
 * what the case expects (2xx, or all the expected error) fails the bench.
 */
async function pairedRatio(spec: Spec, reference: Spec): Promise<number> {
  const pair = [reference, spec];
  const targets = await Promise.all(pair.map((s) => s.request()));
  const before = pair.map((s) => s.server.cpu().all);
  const loads = await Promise.all(targets.map((t) => loadFromChild({ url: String(t.url), headers: t.headers as Record<string, string> | undefined }, CONNECTIONS, SECONDS)));
  loads.forEach((load, i) => {
    const wanted = pair[i]!.expected ? load.answered : 0;
    if (load.non2xx !== wanted) throw new Error(`${pair[i]!.name}: ${load.non2xx} of ${load.answered} answers in a paired run were not 2xx/3xx (expected ${wanted})`);
  });
  const [a, b] = pair.map((s, i) => s.server.cpu().all - before[i]!);
  return b! / loads[1]!.answered / (a! / loads[0]!.answered);
}

export async function measureHotPath(): Promise<HotPath> {
  build();
  const pinning = pinToCores();
  const notes: string[] = [];
  const database = await postgresDatabase();
  if ('skipped' in database) notes.push(database.skipped);
  const privateKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const jwtEnv = { HEADLESS_TOKEN_STRATEGY: 'jwt', HEADLESS_JWT_ALGORITHM: 'RS256', HEADLESS_JWT_PRIVATE_KEY: privateKey };
  const sqlite = (name: string) => `sqlite:${join(dir, `hot-${name}.sqlite3`)}`;
  const processes: Process[] = [];
  try {
    processes.push(
      ...(await startAll([
        startProcess('node:http hello-world', [...nodeFlags, 'bench/baselines/node-http-hello.mjs'], baselineEnv(), '/'),
        startProcess('Fastify hello-world', [...nodeFlags, 'bench/baselines/fastify-hello.mjs'], baselineEnv(), '/'),
        startProcess('server, SQLite, session tokens', startArgs, serverEnv(sqlite('session')), '/readyz'),
        startProcess('server, SQLite, JWT stateless', startArgs, serverEnv(sqlite('jwt'), jwtEnv), '/readyz'),
        startProcess('server, SQLite, JWT stateful', startArgs, serverEnv(sqlite('jwt-stateful'), { ...jwtEnv, HEADLESS_JWT_STATEFUL_VALIDATION_ENABLED: 'true' }), '/readyz'),
        ...('url' in database ? [startProcess('server, PostgreSQL, session tokens', startArgs, serverEnv(database.url), '/readyz')] : []),
      ])),
    );
    const [nodeHello, fastifyHello, session, jwt, jwtStateful, postgres] = processes as [Process, Process, Process, Process, Process, Process?];
    const api = (server: Process) => `${server.origin}/_service/app/v1`;
    const fixed = (options: autocannon.Options) => () => Promise.resolve(options);
    const sessionToken = (await signedUp(session)).session_token;
    const jwtToken = accessTokens(jwt, (await signedUp(jwt)).access_token!);
    const statefulToken = accessTokens(jwtStateful, (await signedUp(jwtStateful)).access_token!);
    const configRequest = { url: `${api(session)}/config` };
    const sessionHeaders = { 'x-session-token': sessionToken };
    const whoamiRequest = { url: `${api(session)}/auth/session`, headers: sessionHeaders };
    const bearer = async () => ({ authorization: `Bearer ${await jwtToken()}` });
    const replayFile = join(dir, 'replay.json');
    const answers = {
      '/config': await answerOf(configRequest),
      '/whoami': await answerOf(whoamiRequest),
      '/whoami-jwt': await answerOf({ url: `${api(jwt)}/auth/session`, headers: await bearer() }),
    };
    writeFileSync(replayFile, JSON.stringify(answers));
    const replayArgs = [...nodeFlags, 'bench/baselines/fastify-replay.mjs'];
    const [replay, logged] = await startAll([
      startProcess("Fastify, the server's answers", replayArgs, { ...baselineEnv(), REPLAY_FILE: replayFile }, '/config'),
      startProcess("Fastify, the server's answers, logged", replayArgs, { ...baselineEnv(), REPLAY_FILE: replayFile, REPLAY_LOG: 'on' }, '/config'),
    ]);
    processes.push(replay!, logged!);
    // Each replay gets the request its case gets (the token header too), so that only the server's own work differs.
    const replaySpec = (key: string, name: string, server: Process, path: string, headers: () => Promise<Record<string, string>> = () => Promise.resolve({})): Spec => ({
      key,
      name,
      server,
      request: async () => ({ url: `${server.origin}${path}`, headers: await headers() }),
    });
    const specs: Spec[] = [
      { key: 'node', name: 'node:http hello-world', server: nodeHello, request: fixed({ url: `${nodeHello.origin}/` }) },
      { key: 'fastify', name: 'Fastify hello-world', server: fastifyHello, request: fixed({ url: `${fastifyHello.origin}/` }) },
      replaySpec('replayConfig', "Fastify, /config's answer", replay!, '/config'),
      replaySpec('replayWhoami', "Fastify, whoami's answer", replay!, '/whoami', () => Promise.resolve(sessionHeaders)),
      replaySpec('replayJwt', "Fastify, JWT whoami's answer", replay!, '/whoami-jwt', bearer),
      replaySpec('loggedConfig', "the same, /config, access log", logged!, '/config'),
      replaySpec('loggedWhoami', "the same, whoami, access log", logged!, '/whoami', () => Promise.resolve(sessionHeaders)),
      replaySpec('loggedJwt', "the same, JWT whoami, access log", logged!, '/whoami-jwt', bearer),
      { key: 'config', name: 'GET /config', server: session, request: fixed(configRequest), replayedBy: 'replayConfig', loggedReplayBy: 'loggedConfig' },
      { key: 'session', name: 'whoami, X-Session-Token, SQLite', server: session, request: fixed(whoamiRequest), replayedBy: 'replayWhoami', loggedReplayBy: 'loggedWhoami' },
    ];
    if (postgres) {
      const token = (await signedUp(postgres)).session_token;
      specs.push({ key: 'postgres', name: 'whoami, X-Session-Token, PostgreSQL', server: postgres, request: fixed({ url: `${api(postgres)}/auth/session`, headers: { 'x-session-token': token } }) });
    }
    specs.push(
      { key: 'jwt', name: 'whoami, Bearer JWT RS256, stateless', server: jwt, request: async () => ({ url: `${api(jwt)}/auth/session`, headers: await bearer() }), replayedBy: 'replayJwt', loggedReplayBy: 'loggedJwt' },
      { key: 'jwtStateful', name: 'whoami, Bearer JWT RS256, stateful', server: jwtStateful, request: async () => ({ url: `${api(jwtStateful)}/auth/session`, headers: { authorization: `Bearer ${await statefulToken()}` } }) },
      { key: 'missing', name: 'whoami, no token -> 401', server: session, request: fixed({ url: `${api(session)}/auth/session` }), expected: [401] },
    );

    for (const spec of specs) await warmUp({ ...(await spec.request()), connections: CONNECTIONS }, WARM_UP_SECONDS);
    const fastifySpec = specs[1]!;
    const run = async (spec: Spec) => measure({ ...(await spec.request()), connections: CONNECTIONS }, spec.server.cpu, spec.expected);
    const runs: Figures[][] = specs.map(() => []);
    // Per round and case, its CPU per request over the Fastify hello-world's, both loaded at once.
    const paired: number[][] = specs.map(() => []);
    for (let round = 0; round < ROUNDS; round++) {
      const results = await inTurn(
        round,
        specs.map((spec) => () => run(spec)),
      );
      results.forEach((f, i) => runs[i]!.push(f));
      const ratios = await inTurn(
        round,
        specs.map((spec) => () => (spec === fastifySpec ? Promise.resolve(1) : pairedRatio(spec, fastifySpec))),
      );
      ratios.forEach((ratio, i) => paired[i]!.push(ratio));
    }
    const rss = processes.map((p): [string, number] => [p.name, p.rss()]);

    const nodeRuns = runs[0]!;
    const cases = new Map<string, HotCase>();
    specs.forEach((spec, i) => {
      const fs = runs[i]!;
      const cpuVsFastifyRounds = paired[i]!;
      const roundsOf = (key: string | undefined) => (key ? paired[specs.findIndex((s) => s.key === key)]! : undefined);
      const over = (rounds: number[]) => cpuVsFastifyRounds.map((ratio, r) => ratio / rounds[r]!);
      const replayRounds = roundsOf(spec.replayedBy);
      const loggedRounds = roundsOf(spec.loggedReplayBy);
      const rpsVsNodeRounds = fs.map((f, r) => f.rps / nodeRuns[r]!.rps);
      cases.set(spec.key, {
        name: spec.name,
        figures: {
          rps: median(fs.map((f) => f.rps)),
          p99: median(fs.map((f) => f.p99)),
          errors: fs.reduce((n, f) => n + f.errors, 0),
          cpu: median(fs.map((f) => f.cpu)),
          mainCpu: median(fs.map((f) => f.mainCpu)),
          generatorCpu: median(fs.map((f) => f.generatorCpu)),
        },
        cpuVsFastify: median(cpuVsFastifyRounds),
        cpuVsFastifyRounds,
        ...(replayRounds ? { cpuVsReplay: median(over(replayRounds)) } : {}),
        ...(loggedRounds ? { cpuVsLoggedReplay: median(over(loggedRounds)), cpuVsLoggedReplayRounds: over(loggedRounds) } : {}),
        rpsVsNode: median(rpsVsNodeRounds),
        rpsVsNodeRounds,
      });
    });
    return { cases, rss, notes, pinning };
  } finally {
    releaseCores();
    await Promise.all(processes.map((p) => p.stop()));
    if ('url' in database) await database.drop().catch((error: Error) => console.log(`could not drop the bench database: ${error.message}`));
  }
}

/** Prints the table, the memory and the targets; whether each target was met. */
export function printHotPath({ cases, rss, notes, pinning }: HotPath): boolean[] {
  console.log(
    `\nHot path: the server as \`npm start\` runs it (node ${startArgs.join(' ')}, NODE_ENV=production, default settings but rate limits off, access log on to /dev/null),` +
      `\nbeside a Fastify hello-world, a bare node:http hello-world and Fastify replaying the server's answers (node ${nodeFlags.join(' ')}), each in its own process;` +
      `\nautocannon, ${CONNECTIONS} connections, on the same machine; ${ROUNDS} rounds of ${SECONDS} s (every case once per round, in turn), medians;` +
      (pinning ? `\nservers pinned to CPU ${pinning.server}, the bench (autocannon) to CPU ${pinning.generator};` : '\nnothing pinned (one core, or no taskset);') +
      `\nserver CPU = utime + stime of /proc/<pid>/stat (${clockTicks} ticks/s) over the run / requests answered; loop = its main thread alone;` +
      `\nreq/s, p99 and cpu us/req from each case loaded alone; cpu x fastify from each case loaded at the same time as the Fastify hello-world` +
      `\n(both servers on one core, so that the machine's drift slows both alike, each loaded by ${childLoadGenerator}, ${CONNECTIONS} connections),` +
      `\ncpu x replay from those of the case and of its replay, x logged from those of the case and of its replay with an access log\n`,
  );
  for (const note of notes) console.log(note);
  console.log(
    'scenario'.padEnd(38) +
      'req/s'.padStart(8) +
      'p99 ms'.padStart(8) +
      'rps x node'.padStart(12) +
      'cpu us/req'.padStart(12) +
      'loop us'.padStart(9) +
      'cpu x fastify'.padStart(15) +
      'cpu x replay'.padStart(14) +
      'x logged'.padStart(10) +
      'autocannon us'.padStart(15) +
      'errors'.padStart(8),
  );
  for (const c of cases.values()) {
    const f = c.figures;
    console.log(
      c.name.padEnd(38) +
        f.rps.toFixed(0).padStart(8) +
        f.p99.toFixed(1).padStart(8) +
        c.rpsVsNode.toFixed(2).padStart(12) +
        f.cpu.toFixed(1).padStart(12) +
        f.mainCpu.toFixed(1).padStart(9) +
        c.cpuVsFastify.toFixed(2).padStart(15) +
        (c.cpuVsReplay === undefined ? '' : c.cpuVsReplay.toFixed(2)).padStart(14) +
        (c.cpuVsLoggedReplay === undefined ? '' : c.cpuVsLoggedReplay.toFixed(2)).padStart(10) +
        f.generatorCpu.toFixed(1).padStart(15) +
        String(f.errors).padStart(8),
    );
  }
  console.log('\nresident memory after the runs (VmRSS):');
  for (const [name, mib] of rss) console.log(`  ${name.padEnd(38)}${mib.toFixed(0).padStart(5)} MiB`);
  console.log('');
  const targets: Array<[string, HotCase | undefined, 'cpu' | 'rps', number]> = [
    ['whoami (session, SQLite) cpu x fastify', cases.get('session'), 'cpu', 1.5],
    ['whoami (JWT stateless) cpu x fastify', cases.get('jwt'), 'cpu', 1.3],
    ['GET /config cpu x fastify', cases.get('config'), 'cpu', 1.3],
    ['whoami (session, SQLite) rps x node', cases.get('session'), 'rps', 0.6],
  ];
  const met = targets.map(([name, c, kind, goal]) => {
    const value = kind === 'cpu' ? c!.cpuVsFastify : c!.rpsVsNode;
    const met = kind === 'cpu' ? value <= goal : value >= goal;
    // Three decimals, so that a ratio just past its target never prints as equal to it.
    console.log(`${name.padEnd(40)}${value.toFixed(3).padStart(8)}  target ${`${kind === 'cpu' ? '<=' : '>='} ${goal.toFixed(2)}`.padEnd(8)} ${(met ? 'met' : 'MISSED').padEnd(7)} ${spread(kind === 'cpu' ? c!.cpuVsFastifyRounds : c!.rpsVsNodeRounds)}`);
    return met;
  });
  // What Fastify allows: the same answer to the same request from a plain Fastify route that writes an access line.
  console.log("\nagainst what Fastify allows (a Fastify route sending the same answer to the same request, one buffered access line a request):");
  for (const key of ['session', 'jwt', 'config']) {
    const c = cases.get(key)!;
    console.log(`${c.name.padEnd(40)}${c.cpuVsLoggedReplay!.toFixed(3).padStart(8)}  ${spread(c.cpuVsLoggedReplayRounds!)}`);
  }
  return met;
}

// `BENCH_ONLY=hot npm run bench` runs this block alone, as does `node --import tsx bench/hot-path.ts`.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    printHotPath(await measureHotPath());
  } finally {
    await cleanUp();
  }
}
