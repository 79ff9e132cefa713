import autocannon from 'autocannon';
import { PASSWORD, emailOf } from './databases.js';
import { sessionKeyOf } from './keys.js';

// The three requests compared between sizes, each against a uniformly random
// account of the database (so the large one is read all over, as real users
// spread over it would), and what one measured run yields.

export interface Figures {
  rps: number;
  p99: number;
  errors: number;
}

export type Case = 'whoami' | 'login' | 'signup';

const pick = (size: number) => 1 + Math.floor(Math.random() * size);
let signups = 0;
const run = Date.now().toString(36);

/** autocannon options for one case against a server whose database holds `size` accounts. */
export function requestsFor(kind: Case, api: string, size: number): autocannon.Options {
  if (kind === 'whoami') {
    return {
      url: `${api}/auth/session`,
      connections: 32,
      requests: [{ setupRequest: (req) => ({ ...req, headers: { ...req.headers, 'x-session-token': sessionKeyOf(pick(size)) } }) }],
    };
  }
  const body =
    kind === 'login'
      ? () => ({ email: emailOf(pick(size)), password: PASSWORD })
      : () => ({ email: `signup-${run}-${++signups}@scale.example.com`, password: PASSWORD });
  return {
    url: `${api}/auth/${kind}`,
    method: 'POST',
    connections: 8,
    requests: [{ setupRequest: (req) => ({ ...req, headers: { ...req.headers, 'content-type': 'application/json' }, body: JSON.stringify(body()) }) }],
  };
}

export async function measure(opts: autocannon.Options, seconds: number): Promise<Figures> {
  const result = await autocannon({ ...opts, duration: seconds });
  return { rps: result.requests.total / result.duration, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

/** Distinct sessions, each used once (keys 1..count), `connections` at a time. */
export async function useSessions(api: string, count: number): Promise<Figures> {
  let next = 0;
  const result = await autocannon({
    url: `${api}/auth/session`,
    connections: 32,
    amount: count,
    requests: [{ setupRequest: (req) => ({ ...req, headers: { ...req.headers, 'x-session-token': sessionKeyOf(1 + (next++ % count)) } }) }],
  });
  return { rps: result.requests.total / result.duration, p99: result.latency.p99, errors: result.errors + result.non2xx };
}
