import { it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../support/server.js';
import { eventsOf } from '../audit/support.js';
import { IDP_ENV, registerClient } from './support.js';

// Issue 33 item 7: failed client authentication was not limited; 150 wrong
// secrets in a row all got 401, each costing an imported client a slow
// hash. IDP_OIDC_RATE_LIMITS.client_auth_failed limits it per client id and
// per IP (one proxy in front: the address is X-Forwarded-For's last).

const ENV = { ...IDP_ENV, TRUSTED_PROXY_COUNT: '1', IDP_OIDC_RATE_LIMITS: '{"device_user_code": false, "client_auth_failed": "5/m/ip,3/m/key"}' };
const PATHS = { token: '/identity/o/api/token', introspect: '/identity/o/api/introspect', revoke: '/identity/o/api/revoke' };

describeEachDatabase('regression: failed client authentication is limited (issue 33 item 7)', ENV, ({ server }) => {
  const newClient = () => registerClient(server(), { grantTypes: ['client_credentials'] });

  async function authenticate(client: { id: string; secret: string | null }, ip: string, secret: string | null, path = PATHS.token) {
    const response = await fetch(`${server().baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': ip, authorization: `Basic ${Buffer.from(`${client.id}:${secret ?? 'wrong'}`).toString('base64')}` },
      body: path === PATHS.token ? 'grant_type=client_credentials' : 'token=unknown',
    });
    return { status: response.status, body: await response.json(), retryAfter: response.headers.get('retry-after') };
  }
  const wrong = (client: { id: string; secret: string | null }, ip: string, path?: string) => authenticate(client, ip, null, path);

  it('past the client\'s limit even its right secret gets 429, from any address', async () => {
    const client = await newClient();
    for (let i = 0; i < 3; i++) assert.equal((await wrong(client, '10.0.0.1')).body.error, 'invalid_client');
    const refused = await authenticate(client, '10.0.0.1', client.secret);
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error, 'too_many_requests');
    assert.equal(typeof refused.body.error_description, 'string');
    assert.ok(Number(refused.retryAfter) >= 1, `retry-after: ${refused.retryAfter}`);
    assert.equal((await authenticate(client, '10.0.0.2', client.secret)).status, 429);
  });

  it('past the address\'s limit every client from it gets 429, another address does not', async () => {
    const [b, c, d] = [await newClient(), await newClient(), await newClient()];
    for (const client of [b, b, c, c, d]) assert.equal((await wrong(client, '10.0.1.1')).status, 401);
    // d has failed once: the address's rule refuses it.
    assert.equal((await authenticate(d, '10.0.1.1', d.secret)).status, 429);
    assert.equal((await authenticate(d, '10.0.1.2', d.secret)).status, 200);
  });

  it('a right secret clears the client\'s count', async () => {
    const client = await newClient();
    for (let i = 0; i < 2; i++) assert.equal((await wrong(client, '10.0.2.1')).status, 401);
    assert.equal((await authenticate(client, '10.0.2.1', client.secret)).status, 200);
    for (let i = 0; i < 2; i++) assert.equal((await wrong(client, '10.0.2.1')).status, 401);
  });

  it('counts at introspection and revocation too', async () => {
    const client = await newClient();
    for (let i = 0; i < 3; i++) assert.equal((await wrong(client, '10.0.3.1', PATHS.introspect)).status, 401);
    const refused = await authenticate(client, '10.0.3.1', client.secret, PATHS.revoke);
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error, 'too_many_requests');
  });
});

describeEachDatabase('the provider\'s audit events take the address the trusted proxy saw', ENV, ({ server }) => {
  it('not the leftmost X-Forwarded-For, which the client writes', async () => {
    const client = await registerClient(server(), { grantTypes: ['client_credentials'] });
    const response = await fetch(`${server().baseUrl}${PATHS.token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '6.6.6.6, 10.0.9.9', authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}` },
      body: 'grant_type=client_credentials',
    });
    assert.equal(response.status, 200);
    const issued = (await eventsOf(server(), 'idp.token_issued')).filter((e) => (e.detail as { client_id?: string }).client_id === client.id);
    assert.deepEqual(issued.map((e) => e.ip), ['10.0.9.9']);
  });
});
