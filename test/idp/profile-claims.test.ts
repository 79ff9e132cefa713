import { it } from 'node:test';
import assert from 'node:assert/strict';
import * as oidc from 'openid-client';
import { describeEachDatabase, type TestServer } from '../support/server.js';
import { PASSWORD, readyClient, uniqueEmail } from '../support/accounts.js';
import { IDP_ENV, codeFlow, registerClient, relyingParty } from './support.js';

// Names and profile fields reach relying parties: with the profile scope,
// name, given_name and family_name (each only when not blank, as the
// reference's allauth.idp gives them), and the custom fields that
// IDP_OIDC_PROFILE_CLAIMS maps, under the scope it names. No
// HEADLESS_USER_FIELDS here: the wire's user object stays the reference's.

const ENV = {
  ...IDP_ENV,
  ACCOUNT_SIGNUP_FIELDS: 'email*,password1*,first_name,last_name',
  ACCOUNT_PROFILE_SCHEMA: JSON.stringify({ properties: { department: { type: 'string' }, level: { type: 'integer' }, contractor: { type: 'boolean' } } }),
  IDP_OIDC_PROFILE_CLAIMS: JSON.stringify({ department: 'department', level: { claim: 'org_level', scope: 'org' } }),
};

/** A browser signed up with `fields`, logged out and in again (a signup proves no method). */
async function userWith(server: TestServer, fields: Record<string, unknown>) {
  const api = await readyClient(server, 'browser');
  const email = uniqueEmail('rp');
  const signup = await api.post('/auth/signup', { email, password: PASSWORD, ...fields });
  assert.equal(signup.status, 200, JSON.stringify(signup.body));
  assert.equal((await api.delete('/auth/session')).status, 401);
  const login = await api.post('/auth/login', { email, password: PASSWORD });
  assert.equal(login.status, 200);
  return { api, email, user: login.body.data.user };
}

describeEachDatabase('OpenID provider: names and profile claims', ENV, ({ server }) => {
  it('discovery lists the name claims, the mapped fields and their own scope', async () => {
    const doc = await (await fetch(`${server().baseUrl}/.well-known/openid-configuration`)).json();
    for (const claim of ['name', 'given_name', 'family_name', 'preferred_username', 'department', 'org_level']) assert.ok(doc.claims_supported.includes(claim), claim);
    assert.ok(!doc.claims_supported.includes('contractor'), 'a field no setting maps is not a claim');
    assert.ok(doc.scopes_supported.includes('org'));
  });

  it('without HEADLESS_USER_FIELDS the user object has no names, and display is not one', async () => {
    const { email, user } = await userWith(server(), { first_name: 'Grace', last_name: 'Hopper', department: 'Navy' });
    assert.deepEqual(Object.keys(user).sort(), ['display', 'email', 'has_usable_password', 'id']);
    assert.equal(user.display, email);
  });

  it('the ID token and userinfo carry the names and mapped fields of the granted scopes', async () => {
    const client = await registerClient(server(), { scopes: ['openid', 'profile', 'email', 'org'] });
    const rp = await relyingParty(server(), client);
    const { api } = await userWith(server(), { first_name: 'Ada', last_name: 'Lovelace', department: 'Engines', level: 3, contractor: true });

    const { tokens } = await codeFlow(server(), rp, api, { scope: 'openid profile' });
    const claims = tokens.claims()!;
    assert.equal(claims.name, 'Ada Lovelace');
    assert.equal(claims.given_name, 'Ada');
    assert.equal(claims.family_name, 'Lovelace');
    assert.equal(claims.department, 'Engines');
    assert.equal(claims.org_level, undefined, 'org was not asked for');
    assert.equal(claims.contractor, undefined);
    const info = await oidc.fetchUserInfo(rp, tokens.access_token, claims.sub);
    assert.deepEqual([info.name, info.given_name, info.family_name, info.department, info.org_level], ['Ada Lovelace', 'Ada', 'Lovelace', 'Engines', undefined]);

    const org = await codeFlow(server(), rp, api, { scope: 'openid org' });
    const orgClaims = org.tokens.claims()!;
    assert.equal(orgClaims.org_level, 3);
    assert.equal(orgClaims.name, undefined, 'profile was not asked for');
    const orgInfo = await oidc.fetchUserInfo(rp, org.tokens.access_token, orgClaims.sub);
    assert.equal(orgInfo.org_level, 3);
    assert.equal(orgInfo.department, undefined);
  });

  it('a blank name gives no claim: a first name alone is the whole name', async () => {
    const client = await registerClient(server());
    const rp = await relyingParty(server(), client);
    const { api } = await userWith(server(), { first_name: 'Cher' });
    const claims = (await codeFlow(server(), rp, api, { scope: 'openid profile' })).tokens.claims()!;
    assert.equal(claims.name, 'Cher');
    assert.equal(claims.given_name, 'Cher');
    assert.ok(!('family_name' in claims));
    assert.ok(!('department' in claims));
  });
});
