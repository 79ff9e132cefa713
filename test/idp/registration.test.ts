import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as oidc from 'openid-client';
import { describeEachDatabase, type TestServer } from '../support/server.js';
import { eventsOf as allEventsOf } from '../audit/support.js';
import { IDP_ENV, codeFlow, loggedInBrowser, navigate } from './support.js';
import { createInitialAccessToken } from '../../src/flows/admin/idp-initial-access-tokens.js';
import { cliSource } from '../../src/audit/recorder.js';
import { AdminClient, adminUrl, newKey } from '../admin/support.js';
import { cliError, cliJson } from '../cli/support.js';

// Dynamic client registration (RFC 7591) and its management (RFC 7592):
// off by default; with initial access tokens, openid-client registers a
// client and logs a user in with it; the tokens' limits, the metadata a
// client may not register, and read, update and delete of a registration.

/** Audit events of a type, their detail read as the JSON it is. */
const eventsOf = async (server: TestServer, type: string) => (await allEventsOf(server, type)).map((e) => ({ ...e, detail: e.detail as Record<string, unknown> }));

const REDIRECT = 'https://app.test/callback';
const REGISTER = '/identity/o/api/register';

async function initialAccessToken(server: TestServer, input: { expiresIn?: number; uses?: number } = {}): Promise<string> {
  const result = await createInitialAccessToken(server.app.deps, cliSource(server.clock.now()), input);
  assert.ok(result.ok);
  return result.token;
}

async function register(server: TestServer, body: unknown, token?: string | null, raw = false) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(`${server.baseUrl}${REGISTER}`, { method: 'POST', headers, body: raw ? (body as string) : JSON.stringify(body) });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, any> };
}

async function manage(url: string, method: 'GET' | 'PUT' | 'DELETE', token: string, body?: unknown) {
  const response = await fetch(url, { method, headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, any>) : null };
}

/** The OAuth error of a failed openid-client call: from the body, or from the WWW-Authenticate challenge of a 401. */
const oauthError = (e: any): string | undefined => e.error ?? e.cause?.[0]?.parameters?.error;

const discovery = async (server: TestServer) => (await fetch(`${server.baseUrl}/.well-known/openid-configuration`)).json() as Promise<Record<string, unknown>>;

describeEachDatabase('OpenID provider: dynamic client registration off', IDP_ENV, ({ server }) => {
  it('is not announced and not answered', async () => {
    assert.equal((await discovery(server())).registration_endpoint, undefined);
    const answer = await fetch(`${server().baseUrl}${REGISTER}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: [REDIRECT] }) });
    assert.equal(answer.status, 404);
    assert.equal((await server().app.deps.db.selectFrom('idp_clients').select('id').execute()).length, 0);
  });
});

describeEachDatabase('OpenID provider: dynamic client registration with initial access tokens', { ...IDP_ENV, IDP_OIDC_REGISTRATION: 'initial_access_token' }, ({ server }) => {
  it('registers a client through openid-client and logs a user in with it', async () => {
    assert.equal((await discovery(server())).registration_endpoint, `${server().baseUrl}${REGISTER}`);
    const token = await initialAccessToken(server(), { uses: 1 });
    const rp = await oidc.dynamicClientRegistration(
      new URL(server().baseUrl),
      { client_name: 'Registered app', redirect_uris: [REDIRECT], grant_types: ['authorization_code', 'refresh_token'], scope: 'openid email profile' },
      undefined,
      { initialAccessToken: token, execute: [oidc.allowInsecureRequests] },
    );
    const metadata = rp.clientMetadata();
    assert.ok(metadata.client_secret, 'a confidential client gets its secret once');
    assert.equal(metadata.client_secret_expires_at, 0);
    assert.deepEqual(metadata.redirect_uris, [REDIRECT]);

    const stored = await server().app.deps.db.selectFrom('idp_clients').selectAll().where('id', '=', metadata.client_id).executeTakeFirstOrThrow();
    assert.notEqual(stored.secret_hash, metadata.client_secret, 'only a hash is kept');
    assert.equal(stored.skip_consent, 0);

    const { api, email } = await loggedInBrowser(server());
    const { tokens } = await codeFlow(server(), rp, api, { redirect_uri: REDIRECT });
    assert.equal(tokens.claims()!.email, email);
    assert.equal(tokens.claims()!.aud, metadata.client_id);
    assert.ok(tokens.refresh_token);

    const [created] = (await eventsOf(server(), 'idp_client.created')).filter((e) => e.detail.client_id === metadata.client_id);
    assert.equal(created?.detail.actor, 'registration');
    assert.equal(typeof created?.detail.initial_access_token_id, 'number');

    // Its one use is spent.
    const again = await register(server(), { redirect_uris: [REDIRECT] }, token);
    assert.equal(again.status, 401);
    assert.equal(again.body.error, 'invalid_token');
  });

  it('refuses a registration without a token, with an unknown one, and with an expired one', async () => {
    const none = await register(server(), { redirect_uris: [REDIRECT] });
    assert.equal(none.status, 401);
    assert.equal(none.body.error, 'invalid_token');
    assert.match(none.headers.get('www-authenticate') ?? '', /^Bearer error="invalid_token"/);
    assert.equal((await register(server(), { redirect_uris: [REDIRECT] }, 'not-a-token')).status, 401);

    const expiring = await initialAccessToken(server(), { expiresIn: 60 });
    assert.equal((await register(server(), { redirect_uris: [REDIRECT] }, expiring)).status, 201);
    server().clock.advance(61_000);
    const expired = await register(server(), { redirect_uris: [REDIRECT] }, expiring);
    assert.equal(expired.status, 401);
    assert.equal(expired.body.error, 'invalid_token');

    // The sweeper removes the tokens that can register nothing more.
    const spent = () => server().app.deps.db.selectFrom('idp_initial_access_tokens').select('id').where('expires_at', '<=', server().clock.now()).execute();
    assert.ok((await spent()).length > 0);
    await server().app.sweep();
    assert.equal((await spent()).length, 0);
  });

  it('refuses metadata a client may not register, without spending a use', async () => {
    const token = await initialAccessToken(server(), { uses: 1 });
    const refusals: [unknown, string][] = [
      [{ redirect_uris: ['https://*.app.test/cb'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: ['http://app.test/cb'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: ['javascript:alert(1)'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: ['https://app.test/cb#x'] }, 'invalid_redirect_uri'],
      [{ grant_types: ['authorization_code'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: [REDIRECT], grant_types: ['client_credentials'] }, 'invalid_client_metadata'],
      [{ redirect_uris: [REDIRECT], response_types: ['code id_token'] }, 'invalid_client_metadata'],
      [{ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'private_key_jwt' }, 'invalid_client_metadata'],
      [{ redirect_uris: [REDIRECT], scope: 'openid admin' }, 'invalid_client_metadata'],
      [{ redirect_uris: [REDIRECT], logo_uri: 'http://app.test/logo.png' }, 'invalid_client_metadata'],
      [['not', 'an', 'object'], 'invalid_client_metadata'],
    ];
    for (const [body, error] of refusals) {
      const answer = await register(server(), body, token);
      assert.equal(answer.status, 400, JSON.stringify(body));
      assert.equal(answer.body.error, error, JSON.stringify(body));
      assert.equal(typeof answer.body.error_description, 'string');
    }
    const unparsable = await register(server(), '{"redirect_uris": [', token, true);
    assert.equal(unparsable.status, 400);
    assert.equal(unparsable.body.error, 'invalid_client_metadata');
    const huge = await register(server(), { redirect_uris: [REDIRECT], client_name: 'x'.repeat(100_000) }, token);
    assert.equal(huge.status, 413);
    assert.equal(huge.body.error, 'invalid_request');
    // The one use is still there.
    assert.equal((await register(server(), { redirect_uris: [REDIRECT] }, token)).status, 201);
  });

  it('ignores the fields that would make a client trusted: it is asked for consent like any', async () => {
    const answer = await register(server(), { redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', skip_consent: true, x_skip_consent: true, allow_uri_wildcards: true, cors_origins: ['https://evil.test'] }, await initialAccessToken(server()));
    assert.equal(answer.status, 201);
    assert.equal(answer.body.client_secret, undefined, 'a public client has no secret');
    assert.equal(answer.body.skip_consent, undefined);
    const stored = await server().app.deps.db.selectFrom('idp_clients').selectAll().where('id', '=', answer.body.client_id).executeTakeFirstOrThrow();
    assert.deepEqual([stored.type, stored.skip_consent, stored.allow_uri_wildcards, stored.cors_origins], ['public', 0, 0, '[]']);

    const rp = new oidc.Configuration((await oidc.discovery(new URL(server().baseUrl), answer.body.client_id, undefined, oidc.None(), { execute: [oidc.allowInsecureRequests] })).serverMetadata(), answer.body.client_id, undefined, oidc.None());
    oidc.allowInsecureRequests(rp);
    const { api } = await loggedInBrowser(server());
    const url = oidc.buildAuthorizationUrl(rp, { redirect_uri: REDIRECT, scope: 'openid', code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()), code_challenge_method: 'S256' });
    const first = await navigate(server(), api, url);
    assert.equal(first.page?.status, 200);
    assert.match(first.page!.html, /name="csrf"/, 'the consent page is shown');
  });

  it('reads, updates and deletes a registration with its registration access token (RFC 7592)', async () => {
    const created = await register(server(), { client_name: 'Before', redirect_uris: [REDIRECT], contacts: ['ops@app.test'], client_uri: 'https://app.test' }, await initialAccessToken(server()));
    assert.equal(created.status, 201);
    const { client_id: id, client_secret: secret, registration_access_token: token, registration_client_uri: uri } = created.body;
    assert.equal(uri, `${server().baseUrl}${REGISTER}/${id}`);
    const stored = await server().app.deps.db.selectFrom('idp_client_registrations').selectAll().where('client_id', '=', id).executeTakeFirstOrThrow();
    assert.notEqual(stored.access_token_hash, token, 'only a hash is kept');

    const read = await manage(uri, 'GET', token);
    assert.equal(read.status, 200);
    assert.equal(read.body!.client_name, 'Before');
    assert.deepEqual(read.body!.contacts, ['ops@app.test']);
    assert.equal(read.body!.client_uri, 'https://app.test');
    assert.equal(read.body!.client_secret, undefined, 'the secret is never shown again');
    assert.equal((await manage(uri, 'GET', 'wrong')).status, 401);

    // Another client's token does not reach this one.
    const other = await register(server(), { redirect_uris: [REDIRECT] }, await initialAccessToken(server()));
    assert.equal((await manage(uri, 'GET', other.body.registration_access_token)).status, 401);

    const mismatch = await manage(uri, 'PUT', token, { client_id: other.body.client_id, redirect_uris: [REDIRECT] });
    assert.equal(mismatch.status, 400);
    assert.equal(mismatch.body!.error, 'invalid_client_metadata');
    assert.equal((await manage(uri, 'PUT', token, { client_id: id, client_secret: 'wrong', redirect_uris: [REDIRECT] })).status, 400);
    const badUri = await manage(uri, 'PUT', token, { client_id: id, redirect_uris: ['https://*.app.test/cb'] });
    assert.equal(badUri.body!.error, 'invalid_redirect_uri');

    const updated = await manage(uri, 'PUT', token, { client_id: id, client_secret: secret, client_name: 'After', redirect_uris: ['https://app.test/other'], grant_types: ['authorization_code', 'refresh_token'] });
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    assert.equal(updated.body!.client_name, 'After');
    assert.equal(updated.body!.client_secret, undefined, 'a confidential client keeps its secret');
    assert.equal(updated.body!.contacts, undefined, 'what the replacement leaves out is gone');
    assert.deepEqual((await manage(uri, 'GET', token)).body!.redirect_uris, ['https://app.test/other']);
    assert.ok((await eventsOf(server(), 'idp_client.updated')).some((e) => e.detail.client_id === id && e.detail.actor === 'registration'));

    // Its secret still works at the token endpoint until the client is deleted.
    const rp = await oidc.discovery(new URL(server().baseUrl), id, undefined, oidc.ClientSecretBasic(secret), { execute: [oidc.allowInsecureRequests] });
    await assert.rejects(oidc.refreshTokenGrant(rp, 'no-such-token'), (e: any) => oauthError(e) === 'invalid_grant');

    assert.equal((await manage(uri, 'DELETE', token)).status, 204);
    assert.equal((await manage(uri, 'GET', token)).status, 401);
    await assert.rejects(oidc.refreshTokenGrant(rp, 'no-such-token'), (e: any) => oauthError(e) === 'invalid_client');
    assert.ok((await eventsOf(server(), 'idp_client.deleted')).some((e) => e.detail.client_id === id && e.detail.actor === 'registration'));
  });
});

describeEachDatabase('OpenID provider: initial access tokens from the admin API and the CLI', { ...IDP_ENV, IDP_OIDC_REGISTRATION: 'initial_access_token', ADMIN_PORT: '0' }, ({ server }) => {
  it('makes, lists and revokes tokens through the admin API, the token shown once and stored hashed', async () => {
    const key = await newKey(server(), 'write');
    const admin = new AdminClient(await adminUrl(server()), key.secret);
    const made = await admin.post('/idp/initial-access-tokens', { expires_in: 3600, uses: 2 });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const token: string = made.body.meta.token;
    assert.equal(made.body.data.uses_left, 2);
    const row = await server().app.deps.db.selectFrom('idp_initial_access_tokens').selectAll().where('id', '=', made.body.data.id).executeTakeFirstOrThrow();
    assert.notEqual(row.token_hash, token);
    assert.equal(JSON.stringify((await admin.get('/idp/initial-access-tokens')).body).includes(token), false, 'a listing never shows a token');

    assert.equal((await register(server(), { redirect_uris: [REDIRECT] }, token)).status, 201);
    const listed = (await admin.get('/idp/initial-access-tokens')).body.data.find((t: { id: number }) => t.id === made.body.data.id);
    assert.equal(listed.uses_left, 1);

    assert.equal((await admin.post('/idp/initial-access-tokens', { expires_in: 5 })).status, 400);
    assert.equal((await admin.delete(`/idp/initial-access-tokens/${made.body.data.id}`)).status, 200);
    assert.equal((await register(server(), { redirect_uris: [REDIRECT] }, token)).status, 401, 'a revoked token registers nothing');
    assert.equal((await admin.delete(`/idp/initial-access-tokens/${made.body.data.id}`)).status, 404);
    const events = await eventsOf(server(), 'idp_initial_access_token.created');
    assert.ok(events.some((e) => e.detail.initial_access_token_id === made.body.data.id && e.detail.actor === 'admin_api'));
  });

  it('makes a token with `headless-auth idp initial-access-tokens create`, printed once', async () => {
    const db = server().app.deps.config.databaseUrl;
    const out = await cliJson(db, ['idp', 'initial-access-tokens', 'create', '--uses', '1', '--expires-in', '600']);
    assert.equal(out.initial_access_token.uses_left, 1);
    assert.equal((await register(server(), { redirect_uris: [REDIRECT] }, out.token)).status, 201);
    assert.equal((await register(server(), { redirect_uris: [REDIRECT] }, out.token)).status, 401);
    const listed = await cliJson(db, ['idp', 'initial-access-tokens', 'list']);
    assert.equal(listed.initial_access_tokens.some((t: { id: number }) => t.id === out.initial_access_token.id), false, 'a used-up token is not listed');
    await cliError(db, ['idp', 'initial-access-tokens', 'create', '--expires-in', '10'], 'invalid');
    await cliError(db, ['idp', 'initial-access-tokens', 'revoke', '999999'], 'not_found');
  });
});

describeEachDatabase('OpenID provider: open dynamic client registration', { ...IDP_ENV, IDP_OIDC_REGISTRATION: 'open' }, ({ server }) => {
  it('registers a client without a token, but not with a bad one', async () => {
    const answer = await register(server(), { redirect_uris: [REDIRECT] });
    assert.equal(answer.status, 201);
    assert.equal((await eventsOf(server(), 'idp_client.created')).find((e) => e.detail.client_id === answer.body.client_id)?.detail.initial_access_token_id, undefined);
    assert.equal((await register(server(), { redirect_uris: [REDIRECT] }, 'made-up')).status, 401);
  });
});

describe('dynamic client registration settings', () => {
  it('refuses an unknown mode', async () => {
    const { loadConfig } = await import('../../src/config/config.js');
    assert.throws(() => loadConfig({ ...IDP_ENV, IDP_OIDC_REGISTRATION: 'sometimes' } as any), /IDP_OIDC_REGISTRATION/);
  });
});
