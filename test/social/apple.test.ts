import { after, it } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { describeEachDatabase } from '../support/server.js';
import { postedForm, startApple, type AppleAccount } from '../support/apple-standin.js';
import { readyClient, uniqueEmail } from '../support/accounts.js';
import { navigate, providersEnv, startRedirect, tokenLogin } from '../support/social.js';
import type { ApiClient } from '../support/client.js';

// Sign in with Apple through a stand-in on loopback (server_url): the
// cross-site form_post callback (no cookies on the first leg), the client
// secret as an ES256 JWT the stand-in verifies, the name sent on the first
// login only, several client ids, and provider tokens sealed at rest.

const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
const TEAM = 'TEAM123456';
const KEY_ID = 'KEY1234567';
const WEB = 'com.example.web';
const BUNDLE = 'com.example.app';
const apple = await startApple({ teamId: TEAM, keyId: KEY_ID, clientIds: [WEB, BUNDLE], publicKey });
after(() => apple.close());

const CALLBACK_URL = 'http://localhost:3000/account/provider/callback';
const PROVIDERS = {
  apple: {
    APP: {
      client_id: `${WEB}, ${BUNDLE}`,
      secret: KEY_ID,
      key: TEAM,
      settings: { certificate_key: privateKey.export({ type: 'pkcs8', format: 'pem' }), server_url: apple.url },
    },
  },
};

function appleAccount(email = `${randomUUID().slice(0, 8)}@privaterelay.appleid.com`): AppleAccount {
  const account = { sub: `000123.${randomUUID()}`, email, emailVerified: 'true' as const, firstName: 'Ada', lastName: 'Lovelace' };
  apple.addAccount(account);
  return account;
}

describeEachDatabase('Sign in with Apple', providersEnv(PROVIDERS, { ACCOUNT_EMAIL_VERIFICATION: 'mandatory', SOCIALACCOUNT_STORE_TOKENS: 'true' }), ({ server }) => {
  /** The browser's trip: our redirect, Apple's page, its cross-site post (no cookies), then the same-site second leg. */
  async function signIn(browser: ApiClient, sub: string | 'deny'): Promise<string | null> {
    const start = await startRedirect(server(), browser, { provider: 'apple', callback_url: CALLBACK_URL });
    const authorization = new URL(start.location!);
    assert.equal(authorization.searchParams.get('response_mode'), 'form_post');
    assert.equal(authorization.searchParams.get('client_id'), WEB, 'the first client id serves the redirect flow');
    assert.equal(authorization.searchParams.get('scope'), 'name email');
    // No `openid` scope, yet Apple answers with an ID token, which must carry the nonce back.
    assert.ok(authorization.searchParams.get('nonce'));
    apple.decide(authorization.searchParams.get('state')!, sub);
    const page = await fetch(authorization);
    const form = postedForm(await page.text());
    assert.equal(form.action, `${server().baseUrl}/accounts/apple/login/callback/`);
    const posted = await navigate(null, form.action, { form: form.fields });
    assert.equal(posted.status, 302);
    assert.ok(posted.location!.startsWith(`${server().baseUrl}/accounts/apple/login/callback/finish/?`));
    return (await navigate(browser, posted.location!)).location;
  }

  it('logs in through the form_post callback and keeps the name Apple sends only once', async () => {
    const account = appleAccount();
    const browser = await readyClient(server(), 'browser');
    assert.equal(await signIn(browser, account.sub), CALLBACK_URL);
    const session = await browser.get('/auth/session');
    assert.equal(session.status, 200, JSON.stringify(session.body));
    assert.equal(session.body.data.user.email, account.email);
    const display = () => browser.get('/account/providers').then((r) => r.body.data.map((a: any) => a.display));
    assert.deepEqual(await display(), ['Ada Lovelace'], 'a private relay address is not shown; the name is');

    const again = await readyClient(server(), 'browser');
    assert.equal(await signIn(again, account.sub), CALLBACK_URL);
    assert.equal((await again.get('/auth/session')).body.data.user.id, session.body.data.user.id);
    assert.deepEqual(await display(), ['Ada Lovelace'], 'the second login brought no name, the first one\'s stays');
  });

  it('keeps Apple\'s tokens sealed at rest', async () => {
    const account = appleAccount(uniqueEmail('apple'));
    const browser = await readyClient(server(), 'browser');
    assert.equal(await signIn(browser, account.sub), CALLBACK_URL);
    const { db, atRest } = server().app.deps;
    const row = await db
      .selectFrom('social_tokens')
      .innerJoin('social_accounts', 'social_accounts.id', 'social_tokens.social_account_id')
      .select(['social_accounts.id', 'social_tokens.token', 'social_tokens.token_secret'])
      .where('social_accounts.uid', '=', account.sub)
      .executeTakeFirstOrThrow();
    assert.ok(!row.token.includes('apple-access') && !row.token_secret!.includes('apple-refresh'), 'no token in clear');
    assert.equal(atRest.open(row.token, `socialtoken:${row.id}:token`), 'apple-access');
    assert.equal(atRest.open(row.token_secret!, `socialtoken:${row.id}:token_secret`), 'apple-refresh');
  });

  it('lands with an error when the user cancels at Apple', async () => {
    assert.equal(await signIn(await readyClient(server(), 'browser'), 'deny'), `${CALLBACK_URL}?error=unknown&error_process=login`);
  });

  it('takes ID tokens for any of the app\'s client ids in the token flow', async () => {
    const account = appleAccount(uniqueEmail('apple-app'));
    const client = await readyClient(server(), 'app');
    const response = await tokenLogin(client, 'apple', { client_id: BUNDLE, id_token: await apple.idToken(account.sub, BUNDLE) });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    assert.equal(response.body.data.user.email, account.email, 'email_verified "true" (a string) counts');
    const foreign = await tokenLogin(client, 'apple', { client_id: BUNDLE, id_token: await apple.idToken(account.sub, 'com.someone.else') });
    assert.equal(foreign.status, 400);
  });
});
