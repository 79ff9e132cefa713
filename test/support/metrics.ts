import assert from 'node:assert/strict';

/** The Prometheus text of a server's /metrics. */
export async function scrape(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/metrics`);
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  return response.text();
}

/** The value of one sample, e.g. `auth_logins_total{method="password",outcome="success"}`; 0 when absent. */
export function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const brace = /^[^{ ]+(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!brace) continue;
    const present = Object.fromEntries([...(brace[1] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => present[k] === v)) return Number(brace[2]);
  }
  return 0;
}
