import net from 'node:net';

// Whether the PostgreSQL and Redis suites run. Outside CI an unreachable
// server skips them with a message; under CI=true it fails the run instead.

export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

function connects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.setTimeout(5000);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(false));
  });
}

/**
 * Three tries: on a loaded machine a local connect can take seconds, and a
 * test process busy compiling can see its timer fire before the connect
 * it already has; under CI a miss fails the run.
 */
async function reachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  for (let attempt = 0; attempt < 3; attempt++) {
    if (await connects(hostname, Number(port))) return true;
  }
  return false;
}

const inCi = process.env.CI === 'true';

/** Undefined when the suite may run; otherwise the reason to skip it. Throws under CI. */
export async function serviceSkipReason(name: 'PostgreSQL' | 'Redis'): Promise<string | undefined> {
  const url = name === 'PostgreSQL' ? POSTGRES_ADMIN_URL : REDIS_URL;
  if (await reachable(url)) return undefined;
  const message = `${name} is not reachable at ${new URL(url).host}`;
  if (inCi) throw new Error(`${message}: the ${name} suite is mandatory in CI`);
  console.log(`# skipping ${name} suite: ${message}`);
  return message;
}
