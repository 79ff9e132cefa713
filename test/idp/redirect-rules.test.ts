import { it } from 'node:test';
import assert from 'node:assert/strict';
import * as oidc from 'openid-client';
import { describeEachDatabase, type TestServer } from '../support/server.js';
import type { ApiClient } from '../support/client.js';
import { findIdpClient, upsertIdpClient } from '../../src/store/idp-clients.js';
import { IDP_ENV, authorize, loggedInBrowser, navigate, registerClient, relyingParty } from './support.js';

// Issue 33's redirect URI findings through real authorization (and CORS) requests: a
// wildcard stands for the leftmost label only (4), a redirect_uri with
// userinfo never matches (8a), and a web client with a loopback URI for
// development stays a web client (8b). What registration refuses is in
// test/admin/idp-clients.test.ts.

describeEachDatabase('OpenID provider: redirect URI rules', IDP_ENV, ({ server }) => {
  async function rpOf(input: Parameters<typeof registerClient>[1]) {
    return relyingParty(server(), await registerClient(server(), input));
  }
  const urlFor = (rp: oidc.Configuration, redirectUri: string, params: Record<string, string> = {}) => oidc.buildAuthorizationUrl(rp, { redirect_uri: redirectUri, scope: 'openid', state: 'st', ...params });

  /** An unregistered redirect URI gets the provider's error page, never a redirect to it. */
  async function assertRefused(api: ApiClient, url: URL) {
    const response = await fetch(url, { redirect: 'manual', headers: { cookie: api.cookieHeader } });
    assert.equal(response.status, 400, `${url.searchParams.get('redirect_uri')} was accepted`);
    assert.equal(response.headers.get('location'), null);
    assert.match(await response.text(), /redirect_uri/);
  }

  /** Where an authorization with consent lands: the redirect URI with a code. */
  async function assertLandsWithCode(s: TestServer, api: ApiClient, url: URL, decision: 'allow' | 'none' = 'allow') {
    const landed = await authorize(s, api, url, decision);
    const expected = new URL(url.searchParams.get('redirect_uri')!);
    assert.equal(landed.origin + landed.pathname, expected.origin + expected.pathname);
    assert.ok(landed.searchParams.get('code'), landed.href);
  }

  it('a wildcard stands for the leftmost label; a stored *example.com (imported, or from before the rule) matches nothing', async () => {
    const { api } = await loggedInBrowser(server());
    const rp = await rpOf({ redirectUris: ['https://*.example.com/cb'], allowUriWildcards: true });
    await assertLandsWithCode(server(), api, urlFor(rp, 'https://tenant.example.com/cb'));
    await assertRefused(api, urlFor(rp, 'https://a.b.example.com/cb'));
    await assertRefused(api, urlFor(rp, 'https://example.com/cb'));

    const loose = await registerClient(server());
    const record = (await findIdpClient(server().app.deps.db, loose.id))!;
    await upsertIdpClient(server().app.deps.db, { ...record, redirectUris: ['https://*example.com/cb', 'https://*.com/cb'], allowUriWildcards: true });
    const looseRp = await relyingParty(server(), loose);
    await assertRefused(api, urlFor(looseRp, 'https://evilexample.com/cb'));
    await assertRefused(api, urlFor(looseRp, 'https://evil.com/cb'));
  });

  it('a redirect_uri with userinfo never matches', async () => {
    const { api } = await loggedInBrowser(server());
    const rp = await rpOf({ redirectUris: ['https://wiki.example.com/cb', 'https://*.example.org/cb'], allowUriWildcards: true });
    await assertRefused(api, urlFor(rp, 'https://evil@wiki.example.com/cb'));
    await assertRefused(api, urlFor(rp, 'https://user:pw@wiki.example.com/cb'));
    await assertRefused(api, urlFor(rp, 'https://evil@tenant.example.org/cb'));
    await assertLandsWithCode(server(), api, urlFor(rp, 'https://wiki.example.com/cb'));
  });

  it('CORS: an origin with userinfo, or under a stored *example.com, is not answered', async () => {
    const client = await registerClient(server(), { type: 'public', grantTypes: ['authorization_code'], corsOrigins: ['https://spa.example.com'] });
    const record = (await findIdpClient(server().app.deps.db, client.id))!;
    await upsertIdpClient(server().app.deps.db, { ...record, corsOrigins: [...record.corsOrigins, 'https://*example.net'], allowUriWildcards: true });
    const allowOrigin = async (origin: string) => {
      const response = await fetch(`${server().baseUrl}/identity/o/api/token`, {
        method: 'POST',
        headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'authorization_code', code: 'x', client_id: client.id, redirect_uri: 'http://rp.test/callback', code_verifier: 'v'.repeat(43) }),
      });
      await response.arrayBuffer();
      return response.headers.get('access-control-allow-origin');
    };
    assert.equal(await allowOrigin('https://spa.example.com'), 'https://spa.example.com');
    assert.equal(await allowOrigin('https://evil@spa.example.com'), null);
    assert.equal(await allowOrigin('https://evilexample.net'), null);
  });

  it('a web client with a loopback URI for development keeps remembered consent and prompt=none on its own URIs', async () => {
    const { api } = await loggedInBrowser(server());
    const rp = await rpOf({ redirectUris: ['https://rp.example.com/cb', 'http://127.0.0.1/cb'] });
    await assertLandsWithCode(server(), api, urlFor(rp, 'https://rp.example.com/cb'));
    // Asked once: the second authorization and prompt=none get a code with no consent page.
    await assertLandsWithCode(server(), api, urlFor(rp, 'https://rp.example.com/cb'), 'none');
    await assertLandsWithCode(server(), api, urlFor(rp, 'https://rp.example.com/cb', { prompt: 'none' }), 'none');
    // The loopback URI still takes any port, and, as any app on the device may listen there, asks every time.
    await assertLandsWithCode(server(), api, urlFor(rp, 'http://127.0.0.1:53117/cb'));
    const again = await navigate(server(), api, urlFor(rp, 'http://127.0.0.1:53117/cb'));
    assert.equal(again.page?.status, 200, 'the consent page again');
    const none = await authorize(server(), api, urlFor(rp, 'http://127.0.0.1:53117/cb', { prompt: 'none' }), 'none');
    assert.equal(none.searchParams.get('code'), null);
  });

  it('a client whose redirect URIs are all loopback or custom-scheme is native: asked every time, prompt=none refused', async () => {
    const { api } = await loggedInBrowser(server());
    const rp = await rpOf({ redirectUris: ['http://127.0.0.1/cb', 'com.example.app:/cb'] });
    await assertLandsWithCode(server(), api, urlFor(rp, 'http://127.0.0.1:53117/cb'));
    const again = await navigate(server(), api, urlFor(rp, 'http://127.0.0.1:53117/cb'));
    assert.equal(again.page?.status, 200, 'the consent page again');
    const none = await authorize(server(), api, urlFor(rp, 'http://127.0.0.1:53117/cb', { prompt: 'none' }), 'none');
    assert.equal(none.searchParams.get('code'), null);
    assert.ok(none.searchParams.get('error'), none.href);
  });
});
