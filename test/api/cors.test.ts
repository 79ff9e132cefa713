import { it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase, type TestServer } from '../support/server.js';
import { PASSWORD, uniqueEmail } from '../support/accounts.js';

// Issue 13 item 7: the app client is meant for other origins, yet a preflight
// answered 405 and no response carried Access-Control-*. CORS_ALLOWED_ORIGINS
// lists the origins (none by default); `*` never comes with credentials.

const SPA = 'https://app.example.com';
const DEV = 'http://localhost:5173';

function preflight(server: TestServer, origin: string | undefined, path = '/_service/app/v1/auth/login') {
  return fetch(`${server.baseUrl}${path}`, {
    method: 'OPTIONS',
    headers: {
      ...(origin ? { origin } : {}),
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type,x-session-token,authorization',
    },
  });
}

function allowedHeaders(response: Response): string[] {
  return (response.headers.get('access-control-allow-headers') ?? '').split(',').map((h) => h.trim().toLowerCase());
}

describeEachDatabase('CORS by default', { ACCOUNT_EMAIL_VERIFICATION: 'none' }, ({ server }) => {
  it('allows no other origin: no Access-Control-* header, and a preflight is a 405 in the envelope', async () => {
    const response = await preflight(server(), SPA);
    assert.equal(response.status, 405);
    assert.equal((await response.json()).errors[0].code, 'method_not_allowed');
    assert.equal(response.headers.get('access-control-allow-origin'), null);
    const config = await fetch(`${server().baseUrl}/_service/app/v1/config`, { headers: { origin: SPA } });
    assert.equal(config.status, 200);
    assert.equal(config.headers.get('access-control-allow-origin'), null);
  });
});

describeEachDatabase(
  'regression: CORS for listed origins (issue 13 item 7)',
  { ACCOUNT_EMAIL_VERIFICATION: 'none', CORS_ALLOWED_ORIGINS: `${SPA}, ${DEV}` },
  ({ server }) => {
    it('answers a preflight from a listed origin with the methods and headers both clients send', async () => {
      for (const origin of [SPA, DEV]) {
        const response = await preflight(server(), origin);
        assert.equal(response.status, 204);
        assert.equal(response.headers.get('access-control-allow-origin'), origin);
        assert.equal(response.headers.get('access-control-allow-credentials'), 'true');
        assert.match(response.headers.get('access-control-allow-methods') ?? '', /\bPOST\b/);
        for (const header of ['content-type', 'x-session-token', 'authorization', 'x-csrftoken']) {
          assert.ok(allowedHeaders(response).includes(header), `${header} in ${allowedHeaders(response).join()}`);
        }
        assert.match(response.headers.get('vary') ?? '', /origin/i);
      }
    });

    it('marks the responses to a listed origin, exposing X-Request-Id and Retry-After', async () => {
      const response = await fetch(`${server().baseUrl}/_service/app/v1/auth/signup`, {
        method: 'POST',
        headers: { origin: SPA, 'content-type': 'application/json' },
        body: JSON.stringify({ email: uniqueEmail('cors'), password: PASSWORD }),
      });
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('access-control-allow-origin'), SPA);
      const exposed = (response.headers.get('access-control-expose-headers') ?? '').toLowerCase();
      assert.ok(exposed.includes('x-request-id') && exposed.includes('retry-after'), exposed);
    });

    it('gives an unlisted origin nothing, and an OPTIONS without an origin the 405 as before', async () => {
      for (const origin of ['https://evil.example.net', 'https://app.example.com.evil.net', undefined]) {
        const response = await preflight(server(), origin);
        assert.equal(response.status, 405, String(origin));
        assert.equal(response.headers.get('access-control-allow-origin'), null);
        assert.equal(response.headers.get('access-control-allow-credentials'), null);
      }
    });
  },
);

describeEachDatabase('CORS_ALLOWED_ORIGINS=*', { ACCOUNT_EMAIL_VERIFICATION: 'none', CORS_ALLOWED_ORIGINS: '*' }, ({ server }) => {
  it('allows any origin, never with credentials', async () => {
    const response = await preflight(server(), 'https://anyone.example.org');
    assert.equal(response.status, 204);
    assert.equal(response.headers.get('access-control-allow-origin'), '*');
    assert.equal(response.headers.get('access-control-allow-credentials'), null);
    const config = await fetch(`${server().baseUrl}/_service/app/v1/config`, { headers: { origin: 'https://anyone.example.org' } });
    assert.equal(config.headers.get('access-control-allow-origin'), '*');
    assert.equal(config.headers.get('access-control-allow-credentials'), null);
  });
});
