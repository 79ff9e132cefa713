import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROUNDS, SECONDS, cleanUp, dir, inTurn, measure, median, spread, warmUp, type Figures } from './harness.js';
import { CONNECTIONS, baselineEnv, build, postgresDatabase, serverEnv, startAll } from './hot-path.js';
import { childLoadGenerator, clockTicks, loadFromChild, nodeFlags, pinToCores, releaseCores, startArgs, startProcess, type ChildTarget, type Pinning, type Process } from './processes.js';

// The OpenID provider's token endpoint (BENCH_ONLY=idp): a client_credentials
// grant, the server as `npm start` runs it with IDP_OIDC_ENABLED=true, on
// SQLite and on PostgreSQL, beside bare oidc-provider (its in-memory adapter,
// one static client, bench/baselines/oidc-provider-bare.mjs) measured in the
// same run. The figure is server CPU per token, read from /proc as in the
// hot block; the ratio to the baseline is taken from runs loaded at the same
// time (the machine's drift slows both alike). Target: at most 2x the bare
// provider on SQLite. Tokens/s per vCPU is 1 s over the CPU per token: what
// one fully busy core issues, the form of Keycloak's sizing guide.

const SCOPE = 'orders.read';
/** Unmeasured seconds per case first: the token path runs a lot of code, which V8 takes a while to optimise. */
const WARM_UP_SECONDS = Math.max(Number(process.env.BENCH_WARMUP_SECONDS ?? 3), 5);

export interface TokenCase {
  name: string;
  /** Each case loaded alone, medians of the rounds. */
  figures: Figures;
  /** This case's CPU per token over the bare provider's, the two loaded at once; per round. */
  ratioRounds: number[];
}

export interface IdpToken {
  bare: TokenCase;
  cases: TokenCase[];
  pinning: Pinning | null;
  notes: string[];
}

interface Client {
  id: string;
  secret: string;
}

/** A confidential client allowed client_credentials, registered with the CLI as an operator would (`idp clients create`). */
function registerClient(env: Record<string, string>): Client {
  const output = execFileSync(process.execPath, ['dist/cli/main.js', '--json', 'idp', 'clients', 'create', '--name', 'Bench', '--grant-type', 'client_credentials', '--scope', SCOPE], { env }).toString();
  const created = JSON.parse(output) as { client: { id: string }; client_secret: string };
  return { id: created.client.id, secret: created.client_secret };
}

const tokenRequest = (url: string, client: Client): ChildTarget => ({
  url,
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}` },
  body: `grant_type=client_credentials&scope=${SCOPE}`,
});

/** One answer, to check the setup before loading it: a token of the scope asked for. */
async function checkToken(name: string, target: ChildTarget): Promise<void> {
  const response = await fetch(target.url, { method: 'POST', headers: target.headers, body: target.body });
  const body = (await response.json()) as { access_token?: string; scope?: string };
  if (response.status !== 200 || !body.access_token || body.scope !== SCOPE) throw new Error(`${name}: the token endpoint answered ${response.status} ${JSON.stringify(body)}`);
}

/** CPU per token of `server` over `bare`'s, both loaded at the same time. */
async function pairedRatio(server: Process, target: ChildTarget, bare: Process, bareTarget: ChildTarget): Promise<number> {
  const before = [server.cpu().all, bare.cpu().all];
  const loads = await Promise.all([loadFromChild(target, CONNECTIONS, SECONDS), loadFromChild(bareTarget, CONNECTIONS, SECONDS)]);
  loads.forEach((load, i) => {
    if (load.non2xx > 0) throw new Error(`${[server, bare][i]!.name}: ${load.non2xx} of ${load.answered} token requests were refused in a paired run`);
  });
  const ours = (server.cpu().all - before[0]!) / loads[0]!.answered;
  const theirs = (bare.cpu().all - before[1]!) / loads[1]!.answered;
  return ours / theirs;
}

export async function measureIdpToken(): Promise<IdpToken> {
  build();
  const pinning = pinToCores();
  const notes: string[] = [];
  const database = await postgresDatabase();
  if ('skipped' in database) notes.push(database.skipped);
  const privateKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  // Production requires the issuer; client credentials do not depend on it.
  const idpEnv = { IDP_OIDC_ENABLED: 'true', IDP_OIDC_PRIVATE_KEY: privateKey, IDP_OIDC_ISSUER: 'https://auth.bench.example' };
  const envs: Array<[string, Record<string, string>]> = [['server, SQLite', serverEnv(`sqlite:${join(dir, 'idp.sqlite3')}`, idpEnv)]];
  if ('url' in database) envs.push(['server, PostgreSQL', serverEnv(database.url, idpEnv)]);
  const processes: Process[] = [];
  try {
    // The servers migrate their databases as they start; the client is registered after.
    const servers = await startAll(envs.map(([name, env]) => startProcess(name, startArgs, env, '/readyz')));
    processes.push(...servers);
    const clients = envs.map(([, env]) => registerClient(env));
    // The baseline's client has the same id and secret as the SQLite server's, so that every request is as long.
    const bareClient = clients[0]!;
    const [bare] = await startAll([
      startProcess('bare oidc-provider, in-memory', [...nodeFlags, 'bench/baselines/oidc-provider-bare.mjs'], { ...baselineEnv(), BARE_CLIENT_ID: bareClient.id, BARE_CLIENT_SECRET: bareClient.secret, BARE_SCOPE: SCOPE }, '/.well-known/openid-configuration'),
    ]);
    processes.push(bare!);
    const bareTarget = tokenRequest(`${bare!.origin}/token`, bareClient);
    const targets = servers.map((server, i) => tokenRequest(`${server.origin}/identity/o/api/token`, clients[i]!));
    await checkToken(bare!.name, bareTarget);
    for (const [i, server] of servers.entries()) await checkToken(server.name, targets[i]!);

    const all = [bare!, ...servers];
    const allTargets = [bareTarget, ...targets];
    const autocannonOf = (t: ChildTarget) => ({ url: t.url, method: t.method, headers: t.headers, body: t.body, connections: CONNECTIONS });
    for (const t of allTargets) await warmUp(autocannonOf(t), WARM_UP_SECONDS);
    const alone: Figures[][] = all.map(() => []);
    const ratios: number[][] = servers.map(() => []);
    for (let round = 0; round < ROUNDS; round++) {
      const figures = await inTurn(
        round,
        all.map((p, i) => () => measure(autocannonOf(allTargets[i]!), p.cpu)),
      );
      figures.forEach((f, i) => alone[i]!.push(f));
      const paired = await inTurn(
        round,
        servers.map((server, i) => () => pairedRatio(server, targets[i]!, bare!, bareTarget)),
      );
      paired.forEach((ratio, i) => ratios[i]!.push(ratio));
    }
    const summary = (i: number): Figures => {
      const fs = alone[i]!;
      const of = (pick: (f: Figures) => number) => median(fs.map(pick));
      return { rps: of((f) => f.rps), p99: of((f) => f.p99), errors: fs.reduce((n, f) => n + f.errors, 0), cpu: of((f) => f.cpu), mainCpu: of((f) => f.mainCpu), generatorCpu: of((f) => f.generatorCpu) };
    };
    return {
      bare: { name: bare!.name, figures: summary(0), ratioRounds: [] },
      cases: servers.map((server, i) => ({ name: server.name, figures: summary(i + 1), ratioRounds: ratios[i]! })),
      pinning,
      notes,
    };
  } finally {
    releaseCores();
    await Promise.all(processes.map((p) => p.stop()));
    if ('url' in database) await database.drop().catch((error: Error) => console.log(`could not drop the bench database: ${error.message}`));
  }
}

/** Prints the table and the target; whether it was met. */
export function printIdpToken({ bare, cases, pinning, notes }: IdpToken): boolean {
  console.log(
    `\nOpenID provider, POST /identity/o/api/token, grant_type=client_credentials, client_secret_basic, scope ${SCOPE}:` +
      `\nthe server as \`npm start\` runs it (IDP_OIDC_ENABLED=true, access log on to /dev/null, a client registered by the CLI) beside bare oidc-provider` +
      `\n(its in-memory adapter, one static client: bench/baselines/oidc-provider-bare.mjs), each in its own process; ${ROUNDS} rounds of ${SECONDS} s, ${CONNECTIONS} connections, medians;` +
      (pinning ? `\nservers pinned to CPU ${pinning.server}, the bench to CPU ${pinning.generator};` : '\nnothing pinned (one core, or no taskset);') +
      `\ntokens/s and cpu us/token from each loaded alone (autocannon); x bare from each server loaded at the same time as the baseline (${childLoadGenerator});` +
      `\nserver CPU = utime + stime of /proc/<pid>/stat (${clockTicks} ticks/s), every thread, PostgreSQL's own backends not included; per vCPU = 1 s / cpu us per token\n`,
  );
  for (const note of notes) console.log(note);
  console.log('case'.padEnd(34) + 'tokens/s'.padStart(10) + 'p99 ms'.padStart(8) + 'cpu us/token'.padStart(14) + 'loop us'.padStart(9) + 'tokens/s/vCPU'.padStart(15) + 'x bare'.padStart(8) + 'errors'.padStart(8));
  for (const c of [bare, ...cases]) {
    const f = c.figures;
    console.log(
      c.name.padEnd(34) +
        f.rps.toFixed(0).padStart(10) +
        f.p99.toFixed(0).padStart(8) +
        f.cpu.toFixed(0).padStart(14) +
        f.mainCpu.toFixed(0).padStart(9) +
        (1e6 / f.cpu).toFixed(0).padStart(15) +
        (c.ratioRounds.length ? median(c.ratioRounds).toFixed(2) : '').padStart(8) +
        String(f.errors).padStart(8),
    );
  }
  for (const c of cases) console.log(`  ${c.name}: x bare ${spread(c.ratioRounds)}`);
  const sqlite = cases[0]!;
  const ratio = median(sqlite.ratioRounds);
  const met = ratio <= 2;
  console.log(`\n${'token endpoint (SQLite) cpu x bare'.padEnd(40)}${ratio.toFixed(3).padStart(8)}  target <= 2.00  ${met ? 'met' : 'MISSED'}  ${spread(sqlite.ratioRounds)}`);
  return met;
}

// `BENCH_ONLY=idp npm run bench` runs this block alone, as does `node --import tsx bench/idp-token.ts`.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    printIdpToken(await measureIdpToken());
  } finally {
    await cleanUp();
  }
}
