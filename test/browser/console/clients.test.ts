import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import * as oidc from 'openid-client';
import { exportJWK, generateKeyPair } from 'jose';
import { browserSkipReason } from '../../support/browser.js';
import { describeUnlessSkipped } from '../../support/suites.js';
import { AdminClient, newKey } from '../../admin/support.js';
import { IDP_ENV } from '../../idp/support.js';
import { afterReauthentication, screenshots, startConsole, type ConsoleSuite } from './support.js';

// The OpenID provider's screens in Chromium: the clients list, registering a
// client (refusals by their fields, the secret shown once, which then gets
// tokens at the token endpoint), its page (an edit, a new secret that stops
// the old one, new keys for a private_key_jwt client, removing it), and the
// registration tokens, one of which registers a client at the registration
// endpoint while a revoked one does not.
describeUnlessSkipped('console OpenID clients in Chromium', browserSkipReason(), () => {
  let suite: ConsoleSuite;
  let api: AdminClient;
  before(async () => {
    // The console's administrator verifies their address by mail: not IDP_ENV's ACCOUNT_EMAIL_VERIFICATION=none.
    const { ACCOUNT_EMAIL_VERIFICATION: _verification, ...idp } = IDP_ENV;
    suite = await startConsole({ ...idp, IDP_OIDC_REGISTRATION: 'initial_access_token' });
    api = new AdminClient(suite.adminBase, (await newKey(suite.server, 'write')).secret);
  });
  after(async () => suite?.close());

  /** A client_credentials token request authenticated with a secret: the HTTP status. */
  async function tokenStatus(id: string, secret: string): Promise<number> {
    const response = await fetch(`${suite.server.baseUrl}/identity/o/api/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}` },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'read' }),
    });
    return response.status;
  }

  async function clientsList(): Promise<Page> {
    const page = await suite.signedInPage();
    await page.click('#nav-clients');
    await page.waitForSelector('#clients');
    return page;
  }

  /** Opens a client's page from the list. */
  async function openClient(page: Page, id: string): Promise<void> {
    await page.click(`tr[data-client="${id}"] a`);
    await page.waitForSelector(`#client-page[data-client="${id}"]`);
  }

  const confirm = async (page: Page, button: string): Promise<string> => {
    await page.click(button);
    await page.waitForSelector('#confirm');
    return (await page.textContent('#confirm-question'))!;
  };

  it('lists clients and registers one: refusals by their fields, the secret shown once gets tokens', async () => {
    const existing = await api.post('/idp/clients', { name: 'Shop', redirect_uris: ['https://shop.example.com/cb', 'https://shop.example.com/cb2'] });
    assert.equal(existing.status, 201, JSON.stringify(existing.body));
    const page = await clientsList();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.adminBase });
    const row = `tr[data-client="${existing.body.data.id}"]`;
    await page.waitForSelector(row);
    assert.match((await page.textContent(row))!, /Shop.*Secret \(Authorization header\).*https:\/\/shop\.example\.com\/cb\s*\+1 more/s);
    assert.equal(await page.$('#provider-off'), null, 'the provider is on');
    await screenshots(page, 'clients-list');

    await page.click('#new-client');
    await page.waitForSelector('#client-form');
    await page.fill('#client-name', 'Reports');
    await page.check('input[name="grant_types"][value="client_credentials"]');
    await page.uncheck('input[name="grant_types"][value="authorization_code"]');
    await page.fill('#client-scopes', 'openid read');
    await page.fill('#client-default_scopes', 'write');
    await page.click('#client-submit');
    await afterReauthentication(page, '#client-default_scopes-error');
    assert.match((await page.textContent('#client-default_scopes-error'))!, /write/);
    assert.equal(await page.getAttribute('#client-default_scopes', 'aria-invalid'), 'true');
    await screenshots(page, 'client-new-errors');

    await page.fill('#client-default_scopes', '');
    await page.fill('#client-redirect_uris', 'not a uri');
    await page.click('#client-submit');
    await page.waitForSelector('#client-redirect_uris-error');
    assert.equal(await page.$('#client-default_scopes-error'), null, 'a refusal fixed goes');

    await page.fill('#client-redirect_uris', 'https://reports.example.com/cb');
    await page.click('#client-submit');
    await page.waitForSelector('#client-created');
    const id = (await page.textContent('#created-client-id'))!;
    const secret = await page.inputValue('#created-secret');
    assert.ok(secret.length > 20);
    await page.click('#created-secret-copy');
    await page.waitForSelector('#created-secret-copied');
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), secret);
    await screenshots(page, 'client-secret-shown');

    assert.equal(await tokenStatus(id, secret), 200, 'the secret shown gets a token');
    assert.equal(await tokenStatus(id, 'not-the-secret'), 401);
    const stored = (await api.get(`/idp/clients/${id}`)).body.data;
    assert.deepEqual([stored.name, stored.type, stored.grant_types, stored.scopes, stored.redirect_uris], ['Reports', 'confidential', ['client_credentials'], ['openid', 'read'], ['https://reports.example.com/cb']]);

    await page.click('#continue-to-client');
    await page.waitForSelector(`#client-page[data-client="${id}"]`);
    assert.equal(await page.textContent('#client-id-shown'), id);
    assert.match((await page.textContent('#client-grants'))!, /Client credentials/);
    assert.equal((await page.content()).includes(secret), false, 'the page never shows the secret again');
    await screenshots(page, 'client-page');
    await page.close();
  });

  it("edits a client, gives it a new secret that stops the old one, and removes it", async () => {
    const made = await api.post('/idp/clients', { name: 'Billing', grant_types: ['client_credentials', 'authorization_code'], scopes: ['openid', 'read'], redirect_uris: ['https://billing.example.com/cb'] });
    const { id } = made.body.data;
    const secret: string = made.body.meta.client_secret;
    const page = await clientsList();
    await openClient(page, id);

    await page.click('#edit-client');
    await page.waitForSelector('#client-edit-form');
    await page.fill('#edit-name', 'Billing portal');
    await page.fill('#edit-redirect_uris', 'https://billing.example.com/cb\nhttps://billing.example.com/cb2');
    await page.check('#edit-skip_consent');
    await page.fill('#edit-backchannel_logout_uri', 'ftp://billing.example.com/logout');
    await page.click('#edit-save');
    await afterReauthentication(page, '#edit-backchannel_logout_uri-error');
    await screenshots(page, 'client-edit-errors');
    assert.equal((await api.get(`/idp/clients/${id}`)).body.data.name, 'Billing', 'a refused edit changes nothing');
    await page.fill('#edit-backchannel_logout_uri', '');
    await page.click('#edit-save');
    await page.waitForSelector('#client-notice');
    assert.equal(await page.textContent('#client-name'), 'Billing portal');
    assert.match((await page.textContent('#client-redirects'))!, /cb2/);
    const edited = (await api.get(`/idp/clients/${id}`)).body.data;
    assert.deepEqual([edited.name, edited.redirect_uris, edited.skip_consent, edited.scopes], ['Billing portal', ['https://billing.example.com/cb', 'https://billing.example.com/cb2'], true, ['openid', 'read']]);
    assert.equal(await tokenStatus(id, secret), 200, 'an edit keeps the secret');

    assert.match(await confirm(page, '#rotate-secret'), /Billing portal/);
    await screenshots(page, 'client-confirm');
    await page.click('#confirm-yes');
    await afterReauthentication(page, '#rotated-secret');
    const next = await page.inputValue('#rotated-secret');
    assert.notEqual(next, secret);
    assert.equal(await tokenStatus(id, secret), 401, 'the old secret stops working');
    assert.equal(await tokenStatus(id, next), 200);

    // No: nothing goes.
    await confirm(page, '#delete-client');
    await page.click('#confirm-no');
    await page.waitForSelector('#confirm', { state: 'detached' });
    assert.equal((await api.get(`/idp/clients/${id}`)).status, 200);
    const question = await confirm(page, '#delete-client');
    assert.ok(question.includes('Billing portal') && question.includes(id), question);
    await page.click('#confirm-yes');
    await afterReauthentication(page, '#clients-table');
    await page.waitForFunction(() => location.hash === '#/clients');
    assert.equal(await page.$(`tr[data-client="${id}"]`), null);
    assert.equal((await api.get(`/idp/clients/${id}`)).status, 404);
    assert.equal(await tokenStatus(id, next), 401);
    await page.close();
  });

  it('registers a private_key_jwt client with its keys (no secret) and replaces them; a public client has no secret', async () => {
    const keyPair = async () => {
      const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
      return { privateKey, jwk: { ...(await exportJWK(publicKey)), kid: `k${Math.random().toString(36).slice(2)}`, alg: 'ES256' } };
    };
    const first = await keyPair();
    const second = await keyPair();
    const tokenWith = async (id: string, key: Awaited<ReturnType<typeof keyPair>>) => {
      const rp = await oidc.discovery(new URL(suite.server.baseUrl), id, undefined, oidc.PrivateKeyJwt({ key: key.privateKey, kid: key.jwk.kid }), { execute: [oidc.allowInsecureRequests] });
      return oidc.clientCredentialsGrant(rp, { scope: 'read' });
    };

    const page = await clientsList();
    await page.click('#new-client');
    await page.waitForSelector('#client-form');
    await page.fill('#client-name', 'Batch jobs');
    await page.fill('#client-id', 'batch-jobs');
    await page.check('#client-method-private_key_jwt');
    await page.check('input[name="grant_types"][value="client_credentials"]');
    await page.uncheck('input[name="grant_types"][value="authorization_code"]');
    await page.fill('#client-scopes', 'read');
    await page.fill('#client-jwks', '{"keys": [');
    await page.click('#client-submit');
    await page.waitForSelector('#client-jwks-error');
    await page.fill('#client-jwks', JSON.stringify({ keys: [first.jwk] }));
    await page.click('#client-submit');
    await afterReauthentication(page, '#client-page[data-client="batch-jobs"]');
    assert.equal(await page.$('#rotate-secret'), null, 'no secret to rotate');
    assert.match((await page.textContent('#client-keys-shown'))!, new RegExp(first.jwk.kid));
    assert.equal((await tokenWith('batch-jobs', first)).scope, 'read');

    await page.fill('#keys-jwks', JSON.stringify({ keys: [second.jwk] }));
    assert.match(await confirm(page, '#replace-keys'), /Batch jobs/);
    await page.click('#confirm-yes');
    await afterReauthentication(page, '#keys-notice');
    assert.match((await page.textContent('#client-keys-shown'))!, new RegExp(second.jwk.kid));
    await screenshots(page, 'client-page-keys');
    await assert.rejects(tokenWith('batch-jobs', first), 'the replaced key is refused');
    assert.equal((await tokenWith('batch-jobs', second)).scope, 'read');

    await page.click('#client-back');
    await page.click('#new-client');
    await page.waitForSelector('#client-form');
    await page.fill('#client-name', 'Mobile app');
    await page.check('#client-method-none');
    await page.fill('#client-redirect_uris', 'https://mobile.example.com/cb');
    await page.click('#client-submit');
    await page.waitForSelector('#client-no-secret');
    const id = await page.getAttribute('#client-page', 'data-client');
    const stored = (await api.get(`/idp/clients/${id}`)).body.data;
    assert.deepEqual([stored.type, stored.token_endpoint_auth_method], ['public', 'none']);
    await page.close();
  });

  it('makes a registration token shown once that registers a client; a revoked one does not', async () => {
    const register = async (token: string) =>
      (await fetch(`${suite.server.baseUrl}/identity/o/api/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ client_name: 'Self-registered', redirect_uris: ['https://self.example.com/cb'] }),
      })).status;
    const page = await clientsList();
    await page.click('#registration-tokens');
    await page.waitForSelector('#make-token');
    assert.equal(await page.$('#registration-mode'), null, 'registration uses these tokens');

    await page.fill('#token-expires_in', '0');
    await page.click('#token-submit');
    await afterReauthentication(page, '#token-expires_in-error');
    await page.fill('#token-expires_in', '1');
    await page.selectOption('#token-unit', 'days');
    await page.fill('#token-uses', '1');
    await page.click('#token-submit');
    await page.waitForSelector('#made-token');
    const token = await page.inputValue('#made-token');
    await screenshots(page, 'clients-registration-token-made');
    await page.waitForSelector('#tokens-table tbody tr');
    const [listed] = (await api.get('/idp/initial-access-tokens')).body.data;
    assert.equal(listed.uses_left, 1);
    assert.equal(await page.textContent(`tr[data-token="${listed.id}"] td:nth-child(4)`), '1', 'one registration left');
    assert.equal(await register(token), 201, 'the token registers a client');
    assert.equal(await register(token), 401, 'its one use is spent');

    // A second token, any number of uses, no expiry: revoked, it registers nothing.
    await page.fill('#token-expires_in', '');
    await page.fill('#token-uses', '');
    await page.click('#token-submit');
    await page.waitForFunction((before) => (document.querySelector('#made-token') as HTMLInputElement | null)?.value !== before, token);
    const revocable = await page.inputValue('#made-token');
    const tokens = (await api.get('/idp/initial-access-tokens')).body.data;
    const newest = tokens.at(-1);
    assert.deepEqual([newest.expires_at, newest.uses_left], [null, null]);
    await page.reload();
    await page.waitForSelector(`tr[data-token="${newest.id}"]`);
    assert.deepEqual(await page.$$eval(`tr[data-token="${newest.id}"] td`, (cells) => cells.slice(2, 4).map((c) => c.textContent)), ['never', 'unlimited']);
    await screenshots(page, 'clients-registration-tokens');
    assert.match(await confirm(page, `#revoke-token-${newest.id}`), new RegExp(`#${newest.id}`));
    await page.click('#confirm-yes');
    await afterReauthentication(page, '#tokens-notice');
    await page.waitForSelector(`tr[data-token="${newest.id}"]`, { state: 'detached' });
    assert.equal(await register(revocable), 401, 'a revoked token registers nothing');
    await page.close();
  });
});
