import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import * as oidc from 'openid-client';
import { startTestServer, type TestServer } from '../support/server.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases.js';
import { describeUnlessSkipped } from '../support/suites.js';
import { cliJson } from '../cli/support.js';
import { AdminClient, adminUrl, newKey } from '../admin/support.js';
import { IDP_ENV, REDIRECT_URI, authorize, loggedInBrowser, navigate, registerClient, relyingParty } from './support.js';

// Pushed authorization requests (RFC 9126): the endpoint, announced in
// discovery, and clients registered (CLI, admin API) to use nothing else.

for (const { kind, skip } of await databaseKinds()) {
  describeUnlessSkipped(`OpenID provider: pushed authorization requests [${kind}]`, skip, () => {
    let server: TestServer;
    let database: TestDatabase;
    let admin: AdminClient;
    before(async () => {
      // The CLI's process writes to the server's database.
      database = await createTestDatabase(kind);
      server = await startTestServer(kind, { ...IDP_ENV, ADMIN_PORT: '0' }, { database });
      admin = new AdminClient(await adminUrl(server), (await newKey(server, 'write')).secret);
    });
    after(async () => {
      await server?.close();
      await database?.drop();
    });

    /** A code flow whose request goes through the PAR endpoint. */
    async function parFlow(rp: oidc.Configuration, jar: Awaited<ReturnType<typeof loggedInBrowser>>['api']) {
      const verifier = oidc.randomPKCECodeVerifier();
      const params = { redirect_uri: REDIRECT_URI, scope: 'openid email', code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state: 'st' };
      const url = await oidc.buildAuthorizationUrlWithPAR(rp, params);
      assert.deepEqual([...url.searchParams.keys()].sort(), ['client_id', 'request_uri']);
      const callback = await authorize(server, jar, url);
      return { url, tokens: await oidc.authorizationCodeGrant(rp, callback, { pkceCodeVerifier: verifier, expectedState: 'st' }) };
    }

    it('is announced in discovery, not required globally', async () => {
      const doc = await (await fetch(`${server.baseUrl}/.well-known/openid-configuration`)).json();
      assert.equal(doc.pushed_authorization_request_endpoint, `${server.baseUrl}/identity/o/api/par`);
      assert.equal(doc.require_pushed_authorization_requests, false);
    });

    it('completes a code flow from a pushed request, whose request_uri is used once', async () => {
      const client = await registerClient(server);
      const rp = await relyingParty(server, client);
      const { api, email } = await loggedInBrowser(server);
      const { url, tokens } = await parFlow(rp, api);
      assert.equal(tokens.claims()!.email, email);
      // The same request_uri again: refused, back at the client's (only) registered redirect URI.
      const again = await navigate(server, api, url);
      assert.equal(again.url.origin + again.url.pathname, REDIRECT_URI);
      assert.equal(again.url.searchParams.get('error'), 'invalid_request_uri');

      // The endpoint authenticates the client as the token endpoint does.
      const anonymous = await fetch(`${server.baseUrl}/identity/o/api/par`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ client_id: client.id, response_type: 'code', redirect_uri: REDIRECT_URI, scope: 'openid' }) });
      assert.equal(anonymous.status, 401);
      assert.equal((await anonymous.json()).error, 'invalid_client');
    });

    it('a client registered with --require-par is refused a plain authorization request, served a pushed one', async () => {
      const out = await cliJson(database.url, ['idp', 'clients', 'create', '--name', 'Bank', '--redirect-uri', REDIRECT_URI, '--scope', 'openid', '--scope', 'email', '--require-par']);
      assert.equal(out.client.require_pushed_authorization_requests, true);
      const rp = await relyingParty(server, { id: out.client.id, secret: out.client_secret });
      const { api } = await loggedInBrowser(server);
      const plain = oidc.buildAuthorizationUrl(rp, { redirect_uri: REDIRECT_URI, scope: 'openid', state: 'st', code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()), code_challenge_method: 'S256' });
      const refused = await navigate(server, api, plain);
      assert.equal(refused.url.origin + refused.url.pathname, REDIRECT_URI);
      assert.equal(refused.url.searchParams.get('error'), 'invalid_request');
      // Refused before the redirect URI is checked, the error still goes to a registered one only.
      const elsewhere = new URL(plain);
      elsewhere.searchParams.set('redirect_uri', 'http://evil.test/callback');
      const page = await navigate(server, api, elsewhere);
      assert.equal(page.page?.status, 400);
      assert.ok((await parFlow(rp, api)).tokens.access_token);
    });

    it('the admin API registers and shows the field, false by default', async () => {
      const required = await admin.post('/idp/clients', { name: 'Bank API', redirect_uris: [REDIRECT_URI], require_pushed_authorization_requests: true });
      assert.equal(required.status, 201, JSON.stringify(required.body));
      assert.equal(required.body.data.require_pushed_authorization_requests, true);
      assert.equal((await admin.get(`/idp/clients/${required.body.data.id}`)).body.data.require_pushed_authorization_requests, true);
      const plain = await admin.post('/idp/clients', { name: 'Wiki', redirect_uris: [REDIRECT_URI], scopes: ['openid', 'email'] });
      assert.equal(plain.body.data.require_pushed_authorization_requests, false);
      const bad = await admin.post('/idp/clients', { name: 'Wiki', redirect_uris: [REDIRECT_URI], require_pushed_authorization_requests: 'yes' });
      assert.equal(bad.status, 400);

      // A client registered without it still may push its requests.
      const rp = await relyingParty(server, { id: plain.body.data.id, secret: plain.body.meta.client_secret });
      assert.ok((await parFlow(rp, (await loggedInBrowser(server)).api)).tokens.id_token);
    });
  });
}
