import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describeEachDatabase, type TestServer } from '../support/server.js';
import { PASSWORD, assertError, codeFromMail, keyFromMail, nthMail, readyClient, uniqueEmail } from '../support/accounts.js';
import { CLIENTS, resetKeyFromMail } from './helpers.js';
import { pendingSecondFactor, totpAccount, totpAt } from '../mfa/support.js';
import { bearer, jwtEnv, signUp } from '../tokens/support.js';
import { startSmsReceiver } from '../support/sms-receiver.js';
import { PHONE_ONLY, nextCode, pendingFlow, uniquePhone, webhookEnv } from '../phone/support.js';
import { startIdp } from '../support/oidc-provider.js';
import { idTokenClaims, oidcApp, providersEnv, tokenLogin } from '../support/social.js';

// Issue 22 item 9: a user deactivated while a login of theirs is half-way
// (waiting for a mailed key or code, a second factor, a reset) must not end
// up logged in by finishing it. Every path that completes a login checks.

async function deactivate(server: TestServer, email: string): Promise<void> {
  const { db } = server.app.deps;
  const address = await db.selectFrom('email_addresses').select('user_id').where('email_lower', '=', email.toLowerCase()).executeTakeFirstOrThrow();
  await db.updateTable('users').set({ is_active: 0 }).where('id', '=', address.user_id).execute();
}

async function notLoggedIn(client: Awaited<ReturnType<typeof readyClient>>): Promise<void> {
  const session = await client.get('/auth/session');
  assert.ok(session.status === 401 || session.status === 410, JSON.stringify(session.body));
  assert.notEqual(session.body.meta?.is_authenticated, true);
}

describeEachDatabase(
  'regression: verifying an address does not complete the login of a user deactivated meanwhile (issue 22 item 9)',
  { ACCOUNT_EMAIL_VERIFICATION: 'mandatory' },
  ({ server }) => {
    for (const kind of CLIENTS) {
      it(`by key (${kind})`, async () => {
        const email = uniqueEmail('inactive');
        const client = await readyClient(server(), kind);
        assert.equal((await client.post('/auth/signup', { email, password: PASSWORD })).status, 401);
        const key = keyFromMail(await nthMail(server().mail, email, 1));
        await deactivate(server(), email);
        const verified = await client.post('/auth/email/verify', { key });
        assertError(verified, 400, 'account_inactive');
        assert.equal(verified.body.meta?.access_token, undefined);
        await notLoggedIn(client);
      });
    }
  },
);

describeEachDatabase(
  'regression: a mailed code does not complete the login of a user deactivated meanwhile (issue 22 item 9)',
  jwtEnv({ ACCOUNT_EMAIL_VERIFICATION: 'mandatory', ACCOUNT_EMAIL_VERIFICATION_BY_CODE_ENABLED: 'true' }),
  ({ server }) => {
    it('email verification by code, with JWTs on: no tokens are issued', async () => {
      const email = uniqueEmail('inactive');
      const client = await readyClient(server(), 'app');
      assert.equal((await client.post('/auth/signup', { email, password: PASSWORD })).status, 401);
      const code = codeFromMail(await nthMail(server().mail, email, 1));
      await deactivate(server(), email);
      const verified = await client.post('/auth/email/verify', { key: code });
      assertError(verified, 400, 'account_inactive');
      assert.equal(verified.body.meta?.access_token, undefined);
      assert.equal(verified.body.meta?.refresh_token, undefined);
      await notLoggedIn(client);
    });
  },
);

describeEachDatabase(
  'inactive users and login by code (issue 22 item 9)',
  { ACCOUNT_EMAIL_VERIFICATION: 'none', ACCOUNT_LOGIN_BY_CODE_ENABLED: 'true' },
  ({ server }) => {
    for (const kind of CLIENTS) {
      it(`a code requested before the deactivation does not log in (${kind})`, async () => {
        const email = uniqueEmail('inactive');
        assert.equal((await server().client('app').post('/auth/signup', { email, password: PASSWORD })).status, 200);
        const client = await readyClient(server(), kind);
        assert.equal((await client.post('/auth/code/request', { email })).status, 401);
        const code = codeFromMail(await nthMail(server().mail, email, 1));
        await deactivate(server(), email);
        assert.equal((await client.post('/auth/code/confirm', { code })).status, 409);
        await notLoggedIn(client);
        const trail = await server().app.deps.db.selectFrom('audit_events').select(['type', 'detail']).where('type', '=', 'login.failed').execute();
        assert.ok(trail.some((e) => String(e.detail).includes('inactive')), 'the refusal is in the audit trail');
      });
    }
  },
);

describeEachDatabase('inactive users and the second factor (issue 22 item 9)', { ACCOUNT_EMAIL_VERIFICATION: 'optional' }, ({ server }) => {
  for (const kind of CLIENTS) {
    it(`a right code after the deactivation does not log in (${kind})`, async () => {
      const { email, secret } = await totpAccount(server(), kind);
      const client = await pendingSecondFactor(server(), kind, email);
      await deactivate(server(), email);
      const done = await client.post('/auth/2fa/authenticate', { code: totpAt(server(), secret) });
      assert.equal(done.status, 401, JSON.stringify(done.body));
      await notLoggedIn(client);
    });
  }
});

describeEachDatabase(
  'inactive users and password reset (issue 22 item 9)',
  { ACCOUNT_EMAIL_VERIFICATION: 'none', ACCOUNT_LOGIN_ON_PASSWORD_RESET: 'true' },
  ({ server }) => {
    it('a reset key mailed before the deactivation neither resets nor logs in', async () => {
      const email = uniqueEmail('inactive');
      assert.equal((await server().client('app').post('/auth/signup', { email, password: PASSWORD })).status, 200);
      const client = await readyClient(server(), 'browser');
      assert.equal((await client.post('/auth/password/request', { email })).status, 200);
      const key = resetKeyFromMail(await nthMail(server().mail, email, 1));
      await deactivate(server(), email);
      assertError(await client.post('/auth/password/reset', { key, password: 'another long passphrase' }), 400, 'invalid_password_reset', 'key');
      await notLoggedIn(client);
    });
  },
);

// The remaining paths that complete a login (issue 22 item 9): the
// verify_phone stage, a provider login, and refreshing a JWT. The passkey
// login is in test/mfa/passkey-login.test.ts, next to its software key.

async function deactivateUser(server: TestServer, userId: number): Promise<void> {
  await server.app.deps.db.updateTable('users').set({ is_active: 0 }).where('id', '=', userId).execute();
}

async function deactivatePhone(server: TestServer, phone: string): Promise<void> {
  const number = await server.app.deps.db.selectFrom('phone_numbers').select('user_id').where('phone', '=', phone).executeTakeFirstOrThrow();
  await deactivateUser(server, number.user_id);
}

const sms = await startSmsReceiver();
const idp = await startIdp();
after(async () => {
  await sms.close();
  await idp.close();
});

describeEachDatabase(
  'regression: a texted code does not complete the login of a user deactivated meanwhile (issue 22 item 9)',
  { ...PHONE_ONLY, ...webhookEnv(sms) },
  ({ server }) => {
    before(() => sms.clear());

    for (const kind of CLIENTS) {
      it(`a signup held at verify_phone (${kind})`, async () => {
        const phone = uniquePhone();
        const client = await readyClient(server(), kind);
        const signup = await client.post('/auth/signup', { phone, password: PASSWORD });
        assert.equal(signup.status, 401, JSON.stringify(signup.body));
        assert.equal(pendingFlow(signup.body), 'verify_phone');
        const code = await nextCode(sms, phone);
        await deactivatePhone(server(), phone);
        const verified = await client.post('/auth/phone/verify', { code });
        assert.equal(verified.status, 409, JSON.stringify(verified.body));
        assert.equal(verified.body.meta?.is_authenticated, undefined);
        await notLoggedIn(client);
        // The flow is gone: the same code does not get a second chance.
        assert.equal((await client.post('/auth/phone/verify', { code })).status, 409);
        await notLoggedIn(client);
      });

      it(`a password login held at verify_phone (${kind})`, async () => {
        const phone = uniquePhone();
        // Signed up, the number left unverified: the next login waits for a code.
        assert.equal((await server().client('app').post('/auth/signup', { phone, password: PASSWORD })).status, 401);
        await nextCode(sms, phone);
        const client = await readyClient(server(), kind);
        const login = await client.post('/auth/login', { phone, password: PASSWORD });
        assert.equal(login.status, 401, JSON.stringify(login.body));
        assert.equal(pendingFlow(login.body), 'verify_phone');
        const code = await nextCode(sms, phone);
        await deactivatePhone(server(), phone);
        const verified = await client.post('/auth/phone/verify', { code });
        assert.equal(verified.status, 409, JSON.stringify(verified.body));
        await notLoggedIn(client);
      });
    }
  },
);

const OIDC_CLIENT = 'inactive-client';

describeEachDatabase(
  'regression: a provider login does not log in a user deactivated since signing up through it (issue 22 item 9)',
  providersEnv({ openid_connect: { APPS: [oidcApp(idp, { id: 'idp', clientId: OIDC_CLIENT })] } }, { ACCOUNT_EMAIL_VERIFICATION: 'mandatory' }),
  ({ server }) => {
    const token = (claims: Record<string, unknown>) => idp.sign(idTokenClaims(idp, server(), OIDC_CLIENT, { jti: randomUUID(), ...claims }));

    for (const kind of CLIENTS) {
      it(`the token flow answers account_inactive (${kind})`, async () => {
        const uid = `user-${randomUUID()}`;
        const email = uniqueEmail('inactive');
        const first = await tokenLogin(await readyClient(server(), kind), 'idp', { client_id: OIDC_CLIENT, id_token: await token({ sub: uid, email, email_verified: true }) });
        assert.equal(first.status, 200, JSON.stringify(first.body));
        await deactivate(server(), email);

        const client = await readyClient(server(), kind);
        const again = await tokenLogin(client, 'idp', { client_id: OIDC_CLIENT, id_token: await token({ sub: uid, email, email_verified: true }) });
        assertError(again, 400, 'account_inactive');
        assert.equal(again.body.meta?.is_authenticated, undefined);
        await notLoggedIn(client);
      });
    }
  },
);

describeEachDatabase('regression: a deactivated user\'s refresh token is refused (issue 22 item 9)', jwtEnv(), ({ server }) => {
  it('POST /tokens/refresh and POST /auth/session {refresh_token} answer invalid_token; neither token logs in', async () => {
    const account = await signUp(server(), 'inactive');
    await deactivateUser(server(), account.userId);
    const app = server().client('app');
    const refreshed = await app.post('/tokens/refresh', { refresh_token: account.refreshToken });
    assertError(refreshed, 400, 'invalid_token', 'refresh_token');
    assert.equal(refreshed.body.data?.access_token, undefined);
    const session = await app.post('/auth/session', { refresh_token: account.refreshToken });
    assertError(session, 400, 'invalid_token', 'refresh_token');
    assert.equal(session.body.meta?.access_token, undefined);
    // Neither the session token nor the access token issued before stands for the user now.
    await notLoggedIn(account.client);
    const byAccess = await app.get('/auth/session', bearer(account.accessToken));
    assert.ok(byAccess.status === 401 || byAccess.status === 410, JSON.stringify(byAccess.body));
    assert.notEqual(byAccess.body.meta?.is_authenticated, true);
  });
});
