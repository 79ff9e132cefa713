import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import * as oidc from 'openid-client';
import { describeEachDatabase } from '../support/server.js';
import { PASSWORD, nthMail } from '../support/accounts.js';
import { resetKeyFromMail } from '../account/helpers.js';
import { eventsOf } from '../audit/support.js';
import { AdminClient, adminUrl, newKey } from '../admin/support.js';
import { setUserActive } from '../../src/store/users.js';
import { IDP_ENV, codeFlow, loggedInBrowser, registerClient, relyingParty } from './support.js';

// A user's tokens at the OpenID provider's clients die with the trust in
// the account (issue 33): disabling or deleting it, a password reset or
// change, or all its sessions ended revoke every grant and token of the
// user, and stay revoked when the account is enabled again. Introspection
// answers `active: false` for a token whose user is gone or disabled, as
// userinfo and the refresh_token grant refuse it.

describeEachDatabase('OpenID provider: revoking a user\'s grants', { ...IDP_ENV, ADMIN_PORT: '0' }, ({ server }) => {
  let admin: AdminClient;
  before(async () => {
    admin = new AdminClient(await adminUrl(server()), (await newKey(server(), 'write')).secret);
  });

  /** A user signed in at a client by the code flow: an access and a refresh token. */
  async function signedInAtClient() {
    const client = await registerClient(server());
    const rp = await relyingParty(server(), client);
    const { api, email } = await loggedInBrowser(server());
    const { tokens } = await codeFlow(server(), rp, api);
    const userId = Number(tokens.claims()!.sub);
    await assertLive(rp, tokens);
    return { rp, tokens, api, email, userId };
  }

  const userinfoStatus = async (accessToken: string) =>
    (await fetch(`${server().baseUrl}/identity/o/api/userinfo`, { headers: { authorization: `Bearer ${accessToken}` } })).status;

  async function assertLive(rp: oidc.Configuration, tokens: oidc.TokenEndpointResponse) {
    assert.equal((await oidc.tokenIntrospection(rp, tokens.access_token)).active, true);
    assert.equal((await oidc.tokenIntrospection(rp, tokens.refresh_token!)).active, true);
    assert.equal(await userinfoStatus(tokens.access_token), 200);
  }

  /** Neither token works anywhere; the refresh token is left for last (a rotated-away refresh would mask the check). */
  async function assertDead(rp: oidc.Configuration, tokens: oidc.TokenEndpointResponse) {
    assert.equal((await oidc.tokenIntrospection(rp, tokens.access_token)).active, false);
    assert.equal((await oidc.tokenIntrospection(rp, tokens.refresh_token!)).active, false);
    assert.equal(await userinfoStatus(tokens.access_token), 401);
    await assert.rejects(oidc.refreshTokenGrant(rp, tokens.refresh_token!), (e: any) => e.error === 'invalid_grant');
  }

  /** The provider's rows of the user: bound to the account, or to one of its grants. */
  async function providerRows(userId: number) {
    return server().app.deps.db.selectFrom('idp_payloads').select(['model', 'grant_id']).where('account_id', '=', String(userId)).execute();
  }

  async function grantsRevokedEvents(userId: number) {
    return (await eventsOf(server(), 'idp.grants_revoked', userId)).map((e) => e.detail as { grants?: number; actor?: string });
  }

  it('disabling the user revokes their tokens, and enabling them again revives none', async () => {
    const { rp, tokens, userId } = await signedInAtClient();
    assert.ok((await providerRows(userId)).some((r) => r.model === 'RefreshToken'));

    const disabled = await admin.patch(`/users/${userId}`, { is_active: false });
    assert.equal(disabled.status, 200, JSON.stringify(disabled.body));
    await assertDead(rp, tokens);
    assert.deepEqual(await providerRows(userId), []);
    const [detail] = await grantsRevokedEvents(userId);
    assert.equal(detail?.grants, 1);
    assert.equal(detail?.actor, 'admin_api');

    assert.equal((await admin.patch(`/users/${userId}`, { is_active: true })).status, 200);
    await assertDead(rp, tokens);
  });

  it('introspection refuses a token whose user is disabled, even while the token is stored', async () => {
    const { rp, tokens, userId } = await signedInAtClient();
    // Disabled behind the flows' back: nothing revoked, only the account's state says no.
    await setUserActive(server().app.deps.db, userId, false);
    assert.ok((await providerRows(userId)).length > 0);
    await assertDead(rp, tokens);
  });

  it('deleting the user (admin API, or the user themselves) deletes every row the provider keeps of them', async () => {
    const byAdmin = await signedInAtClient();
    const grantIds = (await providerRows(byAdmin.userId)).map((r) => r.grant_id).filter((id) => id !== null);
    assert.ok(grantIds.length > 0);
    assert.equal((await admin.delete(`/users/${byAdmin.userId}`)).status, 200);
    assert.deepEqual(await providerRows(byAdmin.userId), []);
    const left = await server().app.deps.db.selectFrom('idp_payloads').select('model').where('grant_id', 'in', grantIds).execute();
    assert.deepEqual(left, []);
    await assertDead(byAdmin.rp, byAdmin.tokens);

    const own = await signedInAtClient();
    assert.equal((await own.api.delete('/account')).status, 401);
    assert.deepEqual(await providerRows(own.userId), []);
    await assertDead(own.rp, own.tokens);
  });

  it('a password reset revokes them', async () => {
    const { rp, tokens, email, userId } = await signedInAtClient();
    const app = server().client('app');
    assert.equal((await app.post('/auth/password/request', { email })).status, 200);
    const key = resetKeyFromMail(await nthMail(server().mail, email, 1));
    assert.equal((await app.post('/auth/password/reset', { key, password: 'a brand new secret phrase' })).status, 401);
    await assertDead(rp, tokens);
    assert.equal((await grantsRevokedEvents(userId)).length, 1);
  });

  it('a password change by the user revokes them, and so does one set by an administrator', async () => {
    const own = await signedInAtClient();
    const change = await own.api.post('/account/password/change', { current_password: PASSWORD, new_password: 'a brand new secret phrase' });
    assert.equal(change.status, 200, JSON.stringify(change.body));
    await assertDead(own.rp, own.tokens);

    const set = await signedInAtClient();
    assert.equal((await admin.post(`/users/${set.userId}/password`, { password: 'another new secret phrase' })).status, 200);
    await assertDead(set.rp, set.tokens);
  });

  it('ending all sessions revokes them; ending one session does not', async () => {
    const { rp, tokens, userId } = await signedInAtClient();
    const listed = await admin.get(`/users/${userId}/sessions`);
    const [session] = listed.body.data as Array<{ id: number }>;
    assert.ok(session);
    assert.equal((await admin.delete(`/users/${userId}/sessions/${session.id}`)).status, 200);
    await assertLive(rp, tokens);

    assert.equal((await admin.delete(`/users/${userId}/sessions`)).status, 200);
    await assertDead(rp, tokens);
  });

  it('a password set by an administrator keeping the sessions keeps the tokens too', async () => {
    const { rp, tokens, userId } = await signedInAtClient();
    assert.equal((await admin.post(`/users/${userId}/password`, { password: 'another new secret phrase', keep_sessions: true })).status, 200);
    await assertLive(rp, tokens);
    assert.deepEqual(await grantsRevokedEvents(userId), []);
  });
});
