import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../support/server.js';
import { readyClient } from '../support/accounts.js';
import assert from 'node:assert/strict';
import * as oidc from 'openid-client';
import { describeEachDatabase } from '../support/server.js';
import type { ApiClient } from '../support/client.js';
import { IDP_ENV, consentForm, loggedInBrowser, navigate, registerClient, relyingParty } from './support.js';

// The device authorization grant (RFC 8628): openid-client starts it as a
// TV or CLI would, a logged-in browser enters the user code on the
// provider's page and consents, and the device's next poll gets tokens.

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

/** The fields of a form the provider rendered (its xsrf token among them). */
function formFields(html: string, id: string): { action: string; fields: Record<string, string> } {
  const form = new RegExp(`<form[^>]*id="${id.replace('.', '\\.')}"[^>]*>([\\s\\S]*?)</form>`).exec(html);
  assert.ok(form, `no form ${id} in: ${html.slice(0, 500)}`);
  const action = /action="([^"]+)"/.exec(form[0])![1]!;
  const fields: Record<string, string> = {};
  for (const input of form[1]!.matchAll(/<input[^>]*>/g)) {
    const name = /name="([^"]+)"/.exec(input[0])?.[1];
    const value = /value="([^"]*)"/.exec(input[0])?.[1] ?? '';
    if (name) fields[name] = value;
  }
  return { action, fields };
}

async function poll(server: () => { baseUrl: string }, clientId: string, deviceCode: string) {
  const response = await fetch(`${server().baseUrl}/identity/o/api/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: DEVICE_GRANT, device_code: deviceCode, client_id: clientId }),
  });
  return { status: response.status, body: await response.json() };
}

describeEachDatabase('OpenID provider: device authorization', IDP_ENV, ({ server }) => {
  async function enterCode(jar: ApiClient, userCode: string, decision: 'allow' | 'deny' = 'allow') {
    const entry = await navigate(server(), jar, '/identity/o/device');
    assert.equal(entry.page?.status, 200);
    assert.match(entry.page!.headers.get('content-security-policy') ?? '', /default-src 'none'/);
    assert.doesNotMatch(entry.page!.html, /<script|\son[a-z]+=/i, 'no script on the page');
    const input = formFields(entry.page!.html, 'op.deviceInputForm');
    const confirm = await navigate(server(), jar, input.action, { method: 'POST', form: { ...input.fields, user_code: userCode.toLowerCase() } });
    assert.equal(confirm.page?.status, 200, confirm.page?.html.slice(0, 400));
    const confirmForm = formFields(confirm.page!.html, 'op.deviceConfirmForm');
    const consent = await navigate(server(), jar, confirmForm.action, { method: 'POST', form: confirmForm.fields });
    assert.equal(consent.page?.status, 200);
    const form = consentForm(consent.page!.html);
    return navigate(server(), jar, form.action, { method: 'POST', form: { csrf: form.csrf, decision } });
  }

  it('a device gets tokens once the user enters its code and consents', async () => {
    const client = await registerClient(server(), { type: 'public', grantTypes: [DEVICE_GRANT, 'refresh_token'], redirectUris: [] });
    const rp = await relyingParty(server(), client);
    const started = await oidc.initiateDeviceAuthorization(rp, { scope: 'openid email' });
    // The reference's format: 8 of RFC 8628's 20 consonants, in two dashed groups.
    assert.match(started.user_code, /^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    assert.equal(started.verification_uri, `${server().baseUrl}/identity/o/device`);
    assert.equal(started.interval, 5);
    assert.equal(started.expires_in, 300);

    const pending = await poll(server, client.id, started.device_code);
    assert.equal(pending.status, 400);
    assert.equal(pending.body.error, 'authorization_pending');
    // Polling again before the interval is over: slow_down (RFC 8628 section 3.5), and the interval grows by 5 s.
    assert.equal((await poll(server, client.id, started.device_code)).body.error, 'slow_down');
    server().clock.advance(6_000);
    assert.equal((await poll(server, client.id, started.device_code)).body.error, 'slow_down', '6 s is within the 10 s it has now');
    server().clock.advance(16_000);
    assert.equal((await poll(server, client.id, started.device_code)).body.error, 'authorization_pending', 'after 15 s');

    const { api, email } = await loggedInBrowser(server());
    const done = await enterCode(api, started.user_code);
    assert.equal(done.page?.status, 200);
    assert.match(done.page!.html, /Device connected/);

    // The device's next poll, by openid-client (which validates the ID token); it is due now, as the user approved.
    const granted = await oidc.pollDeviceAuthorizationGrant(rp, { ...started, interval: 0 });
    assert.ok(granted.access_token && granted.id_token && granted.refresh_token);
    assert.equal(granted.claims()!.email, email);
    const info = await oidc.fetchUserInfo(rp, granted.access_token, granted.claims()!.sub);
    assert.equal(info.email, email);
    // A device code is redeemed once.
    assert.equal((await poll(server, client.id, started.device_code)).body.error, 'invalid_grant');
  });

  it('a denied request and an expired code end the device flow', async () => {
    const client = await registerClient(server(), { type: 'public', grantTypes: [DEVICE_GRANT], redirectUris: [] });
    const rp = await relyingParty(server(), client);
    const denied = await oidc.initiateDeviceAuthorization(rp, { scope: 'openid' });
    const { api } = await loggedInBrowser(server());
    await enterCode(api, denied.user_code, 'deny');
    assert.equal((await poll(server, client.id, denied.device_code)).body.error, 'access_denied');

    const expired = await oidc.initiateDeviceAuthorization(rp, { scope: 'openid' });
    server().clock.advance(301_000);
    try {
      assert.equal((await poll(server, client.id, expired.device_code)).body.error, 'invalid_grant');
    } finally {
      server().clock.advance(-301_000);
    }
  });

  it('a wrong user code is refused on the page', async () => {
    const { api } = await loggedInBrowser(server());
    const entry = await navigate(server(), api, '/identity/o/device');
    const input = formFields(entry.page!.html, 'op.deviceInputForm');
    const wrong = await navigate(server(), api, input.action, { method: 'POST', form: { ...input.fields, user_code: 'BCDF-GHJK' } });
    assert.match(wrong.page!.html, /not valid/);
  });
});

describe('OpenID provider: device user code attempts are limited per IP [sqlite]', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer('sqlite', { ...IDP_ENV, IDP_OIDC_RATE_LIMITS: '{"device_user_code": "3/m/ip"}' });
  });
  after(async () => server?.close());

  it('answers 429 past the limit', async () => {
    const jar = await readyClient(server, 'browser');
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const entry = await navigate(server, jar, '/identity/o/device');
      const input = formFields(entry.page!.html, 'op.deviceInputForm');
      statuses.push((await navigate(server, jar, input.action, { method: 'POST', form: { ...input.fields, user_code: 'BCDF-GHJK' } })).page!.status);
    }
    assert.deepEqual(statuses, [200, 200, 200, 429]);
  });
});
