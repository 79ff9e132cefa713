import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createPublicKey, randomUUID } from 'node:crypto';
import { generateKeyPair } from 'jose';
import { describeEachDatabase, startTestServer, type TestServer } from '../support/server.js';
import { startIdp } from '../support/oidc-provider.js';
import { assertError, flowIds, keyFromMail, nthMail, PASSWORD, readyClient, uniqueEmail } from '../support/accounts.js';
import { idTokenClaims, oidcApp, providersEnv, tokenLogin } from '../support/social.js';
import type { ApiClient } from '../support/client.js';

// POST /auth/provider/token against a real OpenID provider's keys: who gets
// logged in (new users, verification, provider signup, linking rules), the
// token checks (forged, mismatched, expired, replayed) and connecting.

const idp = await startIdp();
const otherIdp = await startIdp();
after(async () => {
  await idp.close();
  await otherIdp.close();
});

const CLIENT = 'app-client';
const TRUSTED = 'trusted-client';
const OTHER = 'other-client';
const PROVIDERS = {
  openid_connect: {
    APPS: [
      oidcApp(idp, { id: 'idp', clientId: CLIENT, name: 'Test IdP' }),
      // The same provider trusted for email authentication (the app-level setting).
      oidcApp(idp, { id: 'trusted', clientId: TRUSTED, settings: { email_authentication: true } }),
      oidcApp(otherIdp, { id: 'other', clientId: OTHER }),
    ],
  },
};
const CLIENTS = ['browser', 'app'] as const;
const sub = () => `user-${randomUUID()}`;

describeEachDatabase('provider token flow', providersEnv(PROVIDERS, { ACCOUNT_EMAIL_VERIFICATION: 'mandatory' }), ({ server }) => {
  const token = (overrides: Record<string, unknown>, aud = CLIENT) => idp.sign(idTokenClaims(idp, server(), aud, overrides));

  /** An account with a password, its address verified, logged in on `client`. */
  async function verifiedAccount(client: ApiClient, email = uniqueEmail('owner')): Promise<{ email: string; id: number }> {
    const signup = await client.post('/auth/signup', { email, password: PASSWORD });
    assert.equal(signup.status, 401);
    const verified = await client.post('/auth/email/verify', { key: keyFromMail(await nthMail(server().mail, email, 1)) });
    assert.equal(verified.status, 200, JSON.stringify(verified.body));
    return { email, id: verified.body.data.user.id };
  }

  for (const kind of CLIENTS) {
    it(`signs up and logs in a new user whose address the provider verified [${kind}]`, async () => {
      const client = await readyClient(server(), kind);
      const uid = sub();
      const email = uniqueEmail('new');
      const first = await tokenLogin(client, 'idp', { client_id: CLIENT, id_token: await token({ sub: uid, email, email_verified: true, name: 'New User' }) });
      assert.equal(first.status, 200, JSON.stringify(first.body));
      assert.equal(first.body.data.user.email, email);
      assert.equal(first.body.data.user.has_usable_password, false);
      assert.deepEqual(first.body.data.methods.map((m: any) => [m.method, m.provider, m.uid]), [['socialaccount', 'idp', uid]]);
      if (kind === 'app') assert.ok(first.body.meta.session_token);
      else assert.equal(first.body.meta.session_token, undefined);

      const addresses = await client.get('/account/email');
      assert.deepEqual(addresses.body.data, [{ email, primary: true, verified: true }]);
      const accounts = await client.get('/account/providers');
      assert.equal(accounts.status, 200);
      assert.deepEqual(
        accounts.body.data.map((a: any) => [a.uid, a.provider.id, a.display]),
        [[uid, 'idp', email]],
        'display is the email: preferred_username is not a username-like field',
      );

      // The next login finds the same account, whatever the address says now.
      const again = await tokenLogin(await readyClient(server(), kind), 'idp', { client_id: CLIENT, id_token: await token({ sub: uid, email: uniqueEmail('changed'), email_verified: true }) });
      assert.equal(again.status, 200);
      assert.equal(again.body.data.user.id, first.body.data.user.id);
    });

    it(`holds an address the provider did not verify until it is verified here [${kind}]`, async () => {
      const client = await readyClient(server(), kind);
      const uid = sub();
      const email = uniqueEmail('unverified');
      const response = await tokenLogin(client, 'idp', { client_id: CLIENT, id_token: await token({ sub: uid, email, email_verified: false }) });
      assert.equal(response.status, 401);
      assert.deepEqual(flowIds(response.body).filter((f) => f.endsWith('!')), ['verify_email!']);
      const verified = await client.post('/auth/email/verify', { key: keyFromMail(await nthMail(server().mail, email, 1)) });
      assert.equal(verified.status, 200, JSON.stringify(verified.body));
      assert.deepEqual(verified.body.data.methods.map((m: any) => [m.method, m.uid]), [['socialaccount', uid]]);
    });

    it(`asks for an address when the provider gave none, then signs up [${kind}]`, async () => {
      const client = await readyClient(server(), kind);
      const uid = sub();
      const response = await tokenLogin(client, 'idp', { client_id: CLIENT, id_token: await token({ sub: uid, name: 'No Mail' }) });
      assert.equal(response.status, 401);
      const pending = response.body.data.flows.find((f: any) => f.id === 'provider_signup');
      assert.equal(pending?.is_pending, true);
      assert.equal(pending.provider.id, 'idp');
      assert.deepEqual(pending.provider.flows, ['provider_redirect', 'provider_token']);

      const info = await client.get('/auth/provider/signup');
      assert.equal(info.status, 200);
      assert.equal(info.body.data.account.uid, uid);
      assert.equal(info.body.data.account.provider.id, 'idp');
      assert.deepEqual(info.body.data.email, []);
      assert.equal(info.body.data.user.has_usable_password, false);

      assertError(await client.post('/auth/provider/signup', {}), 400, 'required', 'email');
      const email = uniqueEmail('chosen');
      const signup = await client.post('/auth/provider/signup', { email });
      assert.equal(signup.status, 401);
      assert.ok(flowIds(signup.body).includes('verify_email!'));
      assert.equal((await client.get('/auth/provider/signup')).status, 409, 'the provider signup is done');
      const verified = await client.post('/auth/email/verify', { key: keyFromMail(await nthMail(server().mail, email, 1)) });
      assert.equal(verified.status, 200, JSON.stringify(verified.body));
      assert.deepEqual((await client.get('/account/providers')).body.data.map((a: any) => a.uid), [uid]);
    });

    it(`never links a provider login to an account by its address alone [${kind}]`, async () => {
      const owner = await readyClient(server(), kind);
      const { email } = await verifiedAccount(owner);
      for (const [provider, clientId, verified] of [['idp', CLIENT, true], ['trusted', TRUSTED, false]] as const) {
        const stranger = await readyClient(server(), kind);
        const response = await tokenLogin(stranger, provider, { client_id: clientId, id_token: await token({ sub: sub(), email, email_verified: verified }, clientId) });
        // Enumeration prevention: it looks like a signup waiting for its verification.
        assert.equal(response.status, 401);
        assert.ok(flowIds(response.body).includes('verify_email!'));
      }
      await nthMail(server().mail, email, 2);
      assert.deepEqual((await owner.get('/account/providers')).body.data, [], 'the owner\'s account gained no social account');
    });

    it(`logs in to the account with that verified address when the app trusts the provider [${kind}]`, async () => {
      const owner = await readyClient(server(), kind);
      const { email, id } = await verifiedAccount(owner);
      const client = await readyClient(server(), kind);
      const response = await tokenLogin(client, 'trusted', { client_id: TRUSTED, id_token: await token({ sub: sub(), email, email_verified: true }, TRUSTED) });
      assert.equal(response.status, 200, JSON.stringify(response.body));
      assert.equal(response.body.data.user.id, id);
      assert.equal(response.body.data.user.has_usable_password, true, 'a verified owner keeps the password');
      assert.deepEqual((await client.get('/account/providers')).body.data, [], 'SOCIALACCOUNT_EMAIL_AUTHENTICATION_AUTO_CONNECT is off');
    });

    it(`wipes the password of an account whose address was never verified before logging in to it [${kind}]`, async () => {
      const squatter = await readyClient(server(), kind);
      const email = uniqueEmail('squatted');
      assert.equal((await squatter.post('/auth/signup', { email, password: PASSWORD })).status, 401);
      const client = await readyClient(server(), kind);
      const response = await tokenLogin(client, 'trusted', { client_id: TRUSTED, id_token: await token({ sub: sub(), email, email_verified: true }, TRUSTED) });
      // The address is still unverified here, so mandatory verification applies.
      assert.equal(response.status, 401);
      assert.ok(flowIds(response.body).includes('verify_email!'));
      assertError(await (await readyClient(server(), kind)).post('/auth/login', { email, password: PASSWORD }), 400, 'email_password_mismatch', 'password');
    });
  }

  it('answers 409 at /auth/provider/signup when no provider signup is pending', async () => {
    const client = await readyClient(server(), 'browser');
    assert.deepEqual((await client.get('/auth/provider/signup')).body, { status: 409 });
    assert.equal((await client.post('/auth/provider/signup', { email: uniqueEmail() })).status, 409);
  });

  it('does not reveal that the address typed into the provider signup has an account', async () => {
    const owner = await readyClient(server(), 'app');
    const { email } = await verifiedAccount(owner);
    const client = await readyClient(server(), 'app');
    assert.equal((await tokenLogin(client, 'idp', { client_id: CLIENT, id_token: await token({ sub: sub() }) })).status, 401);
    const signup = await client.post('/auth/provider/signup', { email });
    assert.equal(signup.status, 401);
    assert.ok(flowIds(signup.body).includes('verify_email!'));
    assert.ok(!flowIds(signup.body).some((f) => f.startsWith('provider_signup')), 'the pending signup is gone');
    assert.equal((await client.get('/auth/provider/signup')).status, 409);
    await nthMail(server().mail, email, 2);
    assert.deepEqual((await owner.get('/account/providers')).body.data, [], 'nothing was linked to the owner');
  });

  it('refuses forged, mismatched and expired ID tokens with invalid_token', async () => {
    const uid = sub();
    const base = { sub: uid, email: uniqueEmail('forged'), email_verified: true };
    const { privateKey: strangerKey } = await generateKeyPair('RS256');
    const providerJwks = (await (await fetch(`${idp.issuer}/jwks`)).json()) as { keys: Array<Record<string, unknown>> };
    const providerPublicPem = createPublicKey({ key: providerJwks.keys[0]! as any, format: 'jwk' }).export({ type: 'spki', format: 'pem' }) as string;
    const now = Math.floor(server().clock.now() / 1000);
    const unsigned = (claims: object) => `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`;
    const forged: Array<[string, string]> = [
      ['a stranger\'s key under the provider\'s kid', await idp.sign(idTokenClaims(idp, server(), CLIENT, base), { key: strangerKey })],
      ['an unknown kid', await idp.sign(idTokenClaims(idp, server(), CLIENT, base), { kid: 'no-such-key' })],
      ['another audience', await token(base, 'someone-else')],
      ['another issuer', await token({ ...base, iss: 'https://evil.example.com' })],
      ['another configured provider\'s token', await otherIdp.sign(idTokenClaims(otherIdp, server(), CLIENT, base))],
      ['an expired token', await token({ ...base, iat: now - 700, exp: now - 1 })],
      ['an issued-at in the future', await token({ ...base, iat: now + 3600, exp: now + 7200 })],
      ['azp naming another client', await token({ ...base, aud: [CLIENT, 'someone-else'], azp: 'someone-else' })],
      ['no exp', await token({ ...base, exp: undefined })],
      ['alg none', unsigned(idTokenClaims(idp, server(), CLIENT, base))],
      ['HS256 with the provider\'s public key', await idp.sign(idTokenClaims(idp, server(), CLIENT, base), { alg: 'HS256', key: new TextEncoder().encode(providerPublicPem) })],
      ['not a JWT', 'not-a-jwt'],
      ['an empty JWS', '..'],
    ];
    for (const kind of CLIENTS) {
      for (const [what, idToken] of forged) {
        const response = await tokenLogin(await readyClient(server(), kind), 'idp', { client_id: CLIENT, id_token: idToken });
        assert.equal(response.status, 400, `${what}: ${JSON.stringify(response.body)}`);
        assertError(response, 400, 'invalid_token', 'token');
      }
    }
    // The same signature is fine on a valid token: only the forgeries failed.
    assert.equal((await tokenLogin(await readyClient(server(), 'app'), 'idp', { client_id: CLIENT, id_token: await token(base) })).status, 200);
  });

  it('refuses a token once it expires by the server\'s clock', async () => {
    const idToken = await token({ sub: sub(), email: uniqueEmail('clock'), email_verified: true });
    server().clock.advance(601_000);
    try {
      assertError(await tokenLogin(await readyClient(server(), 'app'), 'idp', { client_id: CLIENT, id_token: idToken }), 400, 'invalid_token', 'token');
    } finally {
      server().clock.advance(-601_000);
    }
  });

  it('accepts a token with a jti once, on either client, and one with a nonce', async () => {
    const withJti = await token({ sub: sub(), email: uniqueEmail('jti'), email_verified: true, jti: randomUUID() });
    assert.equal((await tokenLogin(await readyClient(server(), 'app'), 'idp', { client_id: CLIENT, id_token: withJti })).status, 200);
    for (const kind of CLIENTS) {
      assertError(await tokenLogin(await readyClient(server(), kind), 'idp', { client_id: CLIENT, id_token: withJti }), 400, 'invalid_token', 'token');
    }
    const withNonce = await token({ sub: sub(), email: uniqueEmail('nonce'), email_verified: true, nonce: 'anything' });
    assert.equal((await tokenLogin(await readyClient(server(), 'browser'), 'idp', { client_id: CLIENT, id_token: withNonce })).status, 200);
  });

  it('checks its input in the reference\'s order, with its codes', async () => {
    const client = await readyClient(server(), 'app');
    const valid = await token({ sub: sub() });
    assertError(await client.post('/auth/provider/token', { process: 'login', token: { client_id: CLIENT, id_token: valid } }), 400, 'required', 'provider');
    assertError(await tokenLogin(client, 'idp', { client_id: CLIENT, id_token: valid }, 'signup' as 'login'), 400, 'invalid_choice', 'process');
    assertError(await client.post('/auth/provider/token', { provider: 'idp', process: 'login', token: 'abc' }), 400, 'invalid_token', 'token');
    assertError(await tokenLogin(client, 'idp', { id_token: valid }), 400, 'client_id_required', 'token');
    assertError(await tokenLogin(client, 'idp', { client_id: 'unknown', id_token: valid }), 400, 'invalid_token', 'token');
    assertError(await tokenLogin(client, 'nope', { client_id: CLIENT, id_token: valid }), 400, 'invalid_token', 'token');
    assertError(await tokenLogin(client, 'idp', { client_id: CLIENT }), 400, 'token_required', 'token');
    assertError(await tokenLogin(client, 'idp', { client_id: CLIENT, id_token: 42 }), 400, 'token_required', 'token');
    // OpenID Connect needs the ID token: an access token alone proves nothing about the audience.
    assertError(await tokenLogin(client, 'idp', { client_id: CLIENT, access_token: 'opaque' }), 400, 'invalid_token', 'token');
  });

  it('connects a provider account to the logged-in user, and to nobody else', async () => {
    const client = await readyClient(server(), 'app');
    const { id } = await verifiedAccount(client);
    const uid = sub();
    const connected = await tokenLogin(client, 'idp', { client_id: CLIENT, id_token: await token({ sub: uid, email: uniqueEmail('other-address'), email_verified: true }) }, 'connect');
    assert.equal(connected.status, 200, JSON.stringify(connected.body));
    assert.equal(connected.body.data.user.id, id);
    assert.deepEqual((await client.get('/account/providers')).body.data.map((a: any) => a.uid), [uid]);
    // Connecting again is a no-op.
    assert.equal((await tokenLogin(client, 'idp', { client_id: CLIENT, id_token: await token({ sub: uid }) }, 'connect')).status, 200);

    const someoneElse = await readyClient(server(), 'browser');
    await verifiedAccount(someoneElse);
    assertError(await tokenLogin(someoneElse, 'idp', { client_id: CLIENT, id_token: await token({ sub: uid }) }, 'connect'), 400, 'connected_other');
    const anonymous = await tokenLogin(await readyClient(server(), 'browser'), 'idp', { client_id: CLIENT, id_token: await token({ sub: sub() }) }, 'connect');
    assert.equal(anonymous.status, 403);
  });

  it('disconnects an account unless it is the last way to log in', async () => {
    const client = await readyClient(server(), 'browser');
    const first = sub();
    assert.equal((await tokenLogin(client, 'idp', { client_id: CLIENT, id_token: await token({ sub: first, email: uniqueEmail('dis'), email_verified: true }) })).status, 200);
    assertError(await client.delete('/account/providers', { provider: 'idp', account: first }), 400, 'no_password');
    assertError(await client.delete('/account/providers', { provider: 'idp', account: 'nobody' }), 400, 'account_not_found');
    assertError(await client.delete('/account/providers', { provider: 'idp' }), 400, 'required', 'account');

    const second = sub();
    assert.equal((await tokenLogin(client, 'trusted', { client_id: TRUSTED, id_token: await token({ sub: second }, TRUSTED) }, 'connect')).status, 200);
    const removed = await client.delete('/account/providers', { provider: 'idp', account: first });
    assert.equal(removed.status, 200);
    assert.deepEqual(removed.body.data.map((a: any) => [a.provider.id, a.uid]), [['trusted', second]]);
    assert.equal((await server().client('app').get('/account/providers')).status, 401);
  });
});

describeEachDatabase(
  'provider token flow with auto-connect and without auto signup',
  providersEnv(PROVIDERS, {
    ACCOUNT_EMAIL_VERIFICATION: 'none',
    SOCIALACCOUNT_EMAIL_AUTHENTICATION: 'true',
    SOCIALACCOUNT_EMAIL_AUTHENTICATION_AUTO_CONNECT: 'true',
    SOCIALACCOUNT_AUTO_SIGNUP: 'false',
  }),
  ({ server }) => {
    const token = (overrides: Record<string, unknown>) => idp.sign(idTokenClaims(idp, server(), CLIENT, overrides));

    it('connects the provider account to the account it logged in to by address', async () => {
      const owner = await readyClient(server(), 'app');
      const email = uniqueEmail('auto');
      const signup = await owner.post('/auth/signup', { email, password: PASSWORD });
      assert.equal(signup.status, 200);
      const uid = sub();
      const client = await readyClient(server(), 'browser');
      const response = await tokenLogin(client, 'idp', { client_id: CLIENT, id_token: await token({ sub: uid, email, email_verified: true }) });
      assert.equal(response.status, 200);
      assert.equal(response.body.data.user.id, signup.body.data.user.id);
      assert.equal(response.body.data.user.has_usable_password, false, 'the address was never verified: the password is gone');
      assert.deepEqual((await client.get('/account/providers')).body.data.map((a: any) => a.uid), [uid]);
      assert.equal((await owner.get('/auth/session')).status, 410, 'and so are the account\'s other sessions');
    });

    it('sends every new user through the signup form', async () => {
      const client = await readyClient(server(), 'app');
      const email = uniqueEmail('form');
      const response = await tokenLogin(client, 'idp', { client_id: CLIENT, id_token: await token({ sub: sub(), email, email_verified: true, preferred_username: 'formuser' }) });
      assert.equal(response.status, 401);
      assert.ok(flowIds(response.body).includes('provider_signup!'));
      const info = await client.get('/auth/provider/signup');
      assert.deepEqual(info.body.data.email, [{ email, primary: true, verified: true }]);
      const signup = await client.post('/auth/provider/signup', { email });
      assert.equal(signup.status, 200, JSON.stringify(signup.body));
      assert.deepEqual((await client.get('/account/email')).body.data, [{ email, primary: true, verified: true }], 'the provider vouched for it');
    });
  },
);

describe('provider token flow with signup closed', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer('sqlite', providersEnv(PROVIDERS, { ACCOUNT_SIGNUP_OPEN: 'false' }));
  });
  after(async () => {
    await server?.close();
  });

  it('answers 403 for a new user', async () => {
    const response = await tokenLogin(await readyClient(server, 'app'), 'idp', { client_id: CLIENT, id_token: await idp.sign(idTokenClaims(idp, server, CLIENT, { sub: sub(), email: uniqueEmail(), email_verified: true })) });
    assert.equal(response.status, 403);
    assert.deepEqual(response.body, { status: 403 });
  });
});
