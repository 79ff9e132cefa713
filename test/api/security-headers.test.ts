import { it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase, type TestServer } from '../support/server.js';

// Issue 13 item 9: no X-Content-Type-Options, Referrer-Policy, framing
// policy or content security policy; HSTS as an option for TLS deployments.

async function headersOf(server: TestServer, path: string, init: RequestInit = {}): Promise<Headers> {
  const response = await fetch(`${server.baseUrl}${path}`, init);
  await response.arrayBuffer();
  return response.headers;
}

describeEachDatabase('regression: security headers (issue 13 item 9)', {}, ({ server }) => {
  it('every kind of API answer forbids sniffing, referrers, framing and loading anything', async () => {
    const answers = [
      await headersOf(server(), '/_service/app/v1/config'),
      await headersOf(server(), '/_service/browser/v1/auth/session'),
      await headersOf(server(), '/_service/app/v1/no/such/route'),
      await headersOf(server(), '/_service/app/v1/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{bad' }),
      await headersOf(server(), '/_service/browser/v1/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }),
      await headersOf(server(), '/healthz'),
    ];
    for (const headers of answers) {
      assert.equal(headers.get('x-content-type-options'), 'nosniff');
      assert.equal(headers.get('referrer-policy'), 'no-referrer');
      assert.equal(headers.get('x-frame-options'), 'DENY');
      const csp = headers.get('content-security-policy') ?? '';
      assert.match(csp, /default-src 'none'/);
      assert.match(csp, /frame-ancestors 'none'/);
      assert.equal(headers.get('strict-transport-security'), null, 'no HSTS unless turned on');
      assert.equal(headers.get('cache-control'), 'no-store');
      assert.match(headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
      // Headers for documents and retired browsers stay on the documentation page.
      assert.equal(headers.get('x-xss-protection'), null);
      assert.equal(headers.get('x-dns-prefetch-control'), null);
    }
  });

  it('the OpenAPI page has a policy of its own that lets it load its own assets', async () => {
    const csp = (await headersOf(server(), '/_service/openapi.html')).get('content-security-policy') ?? '';
    assert.match(csp, /default-src 'self'/);
    assert.match(csp, /script-src 'self'/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
  });

  it("the OpenAPI page, a document, gets helmet's whole set", async () => {
    const headers = await headersOf(server(), '/_service/openapi.html');
    assert.equal(headers.get('x-dns-prefetch-control'), 'off');
    assert.equal(headers.get('origin-agent-cluster'), '?1');
    assert.equal(headers.get('x-content-type-options'), 'nosniff');
    assert.equal(headers.get('x-frame-options'), 'DENY');
  });
});

describeEachDatabase(
  'SECURE_HSTS_SECONDS for TLS deployments',
  { SECURE_HSTS_SECONDS: '31536000', SECURE_HSTS_INCLUDE_SUBDOMAINS: 'true' },
  ({ server }) => {
    it('sends Strict-Transport-Security as configured', async () => {
      for (const path of ['/_service/app/v1/config', '/_service/openapi.html']) {
        assert.equal((await headersOf(server(), path)).get('strict-transport-security'), 'max-age=31536000; includeSubDomains');
      }
    });
  },
);
