// Whether this instance can serve: each dependency answers a trivial
// request within a short timeout. A probe polled every second by several
// load balancers runs one check per dependency at a time: callers arriving
// while one is under way share it, and a check that outlives its timeout
// is not started again until it ends, so a frozen database holds one
// connection for the probe, not one per poll.

export interface DependencyCheck {
  /** The part named in the answer: `database`, `redis`. */
  name: string;
  check(): Promise<unknown>;
}

export type CheckResult = { status: 'ok'; ms: number } | { status: 'failing'; ms: number; error: string };

export interface Readiness {
  ready: boolean;
  /** Shutdown has begun: not ready whatever the dependencies answer. */
  shuttingDown?: true;
  checks: Record<string, CheckResult>;
}

/** The answer from the start of a shutdown on; no dependency is asked. */
export const shuttingDown: Readiness = { ready: false, shuttingDown: true, checks: {} };

export function readinessProbe(checks: readonly DependencyCheck[], timeoutMs: number): () => Promise<Readiness> {
  const inFlight = new Map<string, Promise<unknown>>();
  const start = (dependency: DependencyCheck): Promise<unknown> => {
    let pending = inFlight.get(dependency.name);
    if (!pending) {
      pending = dependency.check().finally(() => inFlight.delete(dependency.name));
      inFlight.set(dependency.name, pending);
    }
    return pending;
  };
  let running: Promise<Readiness> | null = null;
  return () => {
    running ??= runAll(checks, start, timeoutMs).finally(() => (running = null));
    return running;
  };
}

async function runAll(checks: readonly DependencyCheck[], start: (d: DependencyCheck) => Promise<unknown>, timeoutMs: number): Promise<Readiness> {
  const results = await Promise.all(checks.map((c) => runOne(c, start, timeoutMs)));
  const entries = checks.map((c, i) => [c.name, results[i]!] as const);
  return { ready: results.every((r) => r.status === 'ok'), checks: Object.fromEntries(entries) };
}

async function runOne(dependency: DependencyCheck, start: (d: DependencyCheck) => Promise<unknown>, timeoutMs: number): Promise<CheckResult> {
  const started = performance.now();
  const elapsed = () => Math.round((performance.now() - started) * 10) / 10;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
    timer.unref();
  });
  try {
    const result = await Promise.race([start(dependency).then(() => 'ok' as const), timeout]);
    if (result === 'timeout') return { status: 'failing', ms: elapsed(), error: `no answer within ${timeoutMs} ms` };
    return { status: 'ok', ms: elapsed() };
  } catch (error) {
    // The error's class and code, not its message: a driver's message may quote a connection string.
    const code = (error as { code?: unknown }).code;
    return { status: 'failing', ms: elapsed(), error: `${(error as Error)?.name ?? 'Error'}${typeof code === 'string' ? ` ${code}` : ''}` };
  } finally {
    clearTimeout(timer);
  }
}
