import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describeEachDatabase } from '../support/server.js';
import { startIdp } from '../support/oidc-provider.js';
import { readyClient, uniqueEmail } from '../support/accounts.js';
import { idTokenClaims, oidcApp, oidcCallback, providersEnv, redirectLogin, tokenLogin } from '../support/social.js';
import { sample, scrape } from '../support/metrics.js';
import { enableTotp, pendingFlow, totpAt, nextPeriod, type ClientKind } from './support.js';

// A second factor guards every way in, social login included: a user who
// turned TOTP on after signing up at a provider is asked for a code after
// the provider vouched for them, in the token flow and in the redirect flow.
// The metrics count each step under its own method.

const idp = await startIdp();
after(() => idp.close());

const CLIENT = 'mfa-client';
const FRONTEND = 'http://localhost:3000';
const CALLBACK_URL = `${FRONTEND}/account/provider/callback`;
const PROVIDERS = { openid_connect: { APPS: [oidcApp(idp, { id: 'idp', clientId: CLIENT })] } };

describeEachDatabase(
  'a second factor after social login',
  providersEnv(PROVIDERS, { ACCOUNT_EMAIL_VERIFICATION: 'mandatory', FRONTEND_URL: FRONTEND }),
  ({ server }) => {
    before(() => idp.addClient({ client_id: CLIENT, client_secret: `${CLIENT}-secret`, redirect_uris: [oidcCallback(server(), 'idp')] }));

    const idToken = (sub: string, email: string) => idp.sign(idTokenClaims(idp, server(), CLIENT, { sub, email, email_verified: true }));

    /** A user made by a provider login (a verified address, no password) with TOTP turned on. */
    async function socialUserWithTotp(kind: ClientKind): Promise<{ sub: string; email: string; secret: string }> {
      const sub = `user-${randomUUID()}`;
      const email = uniqueEmail('social-mfa');
      idp.addAccount(sub, { email, email_verified: true });
      const client = await readyClient(server(), kind);
      const signup = await tokenLogin(client, 'idp', { client_id: CLIENT, id_token: await idToken(sub, email) });
      assert.equal(signup.status, 200, JSON.stringify(signup.body));
      // The provider login just now is a recent authentication: no password to confirm.
      const secret = await enableTotp(server(), client);
      return { sub, email, secret };
    }

    /** How far `auth_logins_total` moved, per method and outcome, while `action` ran. */
    async function loginsCounted(action: () => Promise<void>): Promise<(method: string, outcome: string) => number> {
      const before = await scrape(server().baseUrl);
      await action();
      const after = await scrape(server().baseUrl);
      return (method, outcome) => sample(after, 'auth_logins_total', { method, outcome }) - sample(before, 'auth_logins_total', { method, outcome });
    }

    for (const kind of ['app', 'browser'] as const) {
      it(`token flow: the provider's ID token stops at mfa_authenticate until a code is given [${kind}]`, async () => {
        const user = await socialUserWithTotp(kind);
        nextPeriod(server());
        const counted = await loginsCounted(async () => {
          const client = await readyClient(server(), kind);
          const login = await tokenLogin(client, 'idp', { client_id: CLIENT, id_token: await idToken(user.sub, user.email) });
          assert.equal(login.status, 401, JSON.stringify(login.body));
          assert.equal(pendingFlow(login.body)?.id, 'mfa_authenticate');
          assert.deepEqual(pendingFlow(login.body)?.types, ['recovery_codes', 'totp']);
          assert.equal((await client.get('/account/providers')).status, 401, 'nothing of the account is reachable before the code');

          const code = totpAt(server(), user.secret);
          assert.equal((await client.post('/auth/2fa/authenticate', { code: code === '000000' ? '111111' : '000000' })).status, 400);
          const done = await client.post('/auth/2fa/authenticate', { code });
          assert.equal(done.status, 200, JSON.stringify(done.body));
          assert.equal(done.body.data.user.email, user.email);
          assert.deepEqual(done.body.data.methods.map((m: any) => m.method), ['socialaccount', 'mfa']);
        });
        assert.equal(counted('social', 'pending'), 1);
        assert.equal(counted('mfa', 'failure'), 1);
        assert.equal(counted('mfa', 'success'), 1);
      });
    }

    it('redirect flow: the browser lands on callback_url with the second factor pending', async () => {
      const user = await socialUserWithTotp('browser');
      nextPeriod(server());
      const counted = await loginsCounted(async () => {
        const browser = await readyClient(server(), 'browser');
        const landing = await redirectLogin(server(), idp, browser, { provider: 'idp', callback_url: CALLBACK_URL }, { sub: user.sub });
        assert.equal(landing.href, CALLBACK_URL);

        const session = await browser.get('/auth/session');
        assert.equal(session.status, 401, JSON.stringify(session.body));
        assert.equal(pendingFlow(session.body)?.id, 'mfa_authenticate');
        const done = await browser.post('/auth/2fa/authenticate', { code: totpAt(server(), user.secret) });
        assert.equal(done.status, 200, JSON.stringify(done.body));
        assert.equal(done.body.data.user.email, user.email);
      });
      assert.equal(counted('social', 'pending'), 1);
      assert.equal(counted('mfa', 'success'), 1);
    });
  },
);
