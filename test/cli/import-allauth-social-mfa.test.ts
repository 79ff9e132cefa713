import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../support/server.js';
import { allauthCopy, cliJson, sqlTime, type AllauthCopy } from './support.js';

// Social accounts and authenticators the import cannot simply carry over:
// a provider id to rename, one nothing explains, tokens while this server
// keeps none, secrets the source's MFA adapter encrypted, and
// django-allauth-2fa's migrated recovery codes.

describeEachDatabase('import from django-allauth: providers and second factors', {}, ({ server, kind }) => {
  let source: AllauthCopy;
  let target: string;
  const importArgs = (...more: string[]) => ['import', 'allauth', source.url, ...more];
  const accountsOf = async (uid: string) =>
    server().app.deps.db.selectFrom('social_accounts as a').innerJoin('users as u', 'u.id', 'a.user_id').select(['a.provider', 'u.username']).where('a.uid', '=', uid).execute();

  before(async () => {
    source = await allauthCopy(kind);
    target = server().app.deps.config.databaseUrl;
    const at = sqlTime(kind, Date.UTC(2026, 10, 23, 21));
    await source.exec(`
      INSERT INTO socialaccount_socialaccount (id, provider, uid, last_login, date_joined, user_id, extra_data) VALUES (10, 'corp-sso', 'alice-at-corp', ${at}, ${at}, 1, '{"sub": "alice-at-corp"}');
      INSERT INTO mfa_authenticator (id, type, data, user_id, created_at, last_used_at) VALUES (10, 'totp', '{"secret": "gAAAAABnR2VuY3J5cHRlZC1ieS1hLWN1c3RvbS1hZGFwdGVy"}', 1, ${at}, NULL);
      INSERT INTO mfa_authenticator (id, type, data, user_id, created_at, last_used_at) VALUES (11, 'recovery_codes', '{"migrated_codes": ["12345678", "87654321"]}', 2, ${at}, NULL);
    `);
  });
  after(() => source?.drop());

  it('renames a provider id, skips one nothing explains and tokens this server does not keep; says why', async () => {
    const summary = await cliJson(target, importArgs('--provider-map', 'testidp=corp-oidc'));
    assert.deepEqual(summary.rows.social_accounts, { imported: 2, already_imported: 0, skipped: { unknown_provider: 1 } });
    assert.deepEqual(summary.rows.social_tokens, { imported: 0, already_imported: 0, skipped: { tokens_not_stored: 1 } });
    assert.deepEqual(summary.rows.mfa_authenticators, { imported: 2, already_imported: 0, skipped: { encrypted_secret: 1, migrated_codes: 1 } });
    assert.deepEqual(
      summary.social_providers.map((p: any) => [p.source, p.provider_id, p.type, p.mapped, p.skipped ?? null]),
      [
        ['corp-sso', null, null, false, 'unknown_provider'],
        ['github', 'github', 'github', false, null],
        ['testidp', 'corp-oidc', 'openid_connect', true, null],
      ],
    );
    assert.deepEqual(await accountsOf('idp-user-8f14e45f'), [{ provider: 'corp-oidc', username: 'frank' }]);
    // Nothing is configured here: the settings to add, under the new id, without the secrets.
    const oidc = summary.provider_settings.openid_connect.APPS[0];
    assert.deepEqual([oidc.provider_id, oidc.client_id, oidc.settings], ['corp-oidc', 'fixture-oidc-client', { server_url: 'http://127.0.0.1:9401' }]);
    assert.equal(summary.provider_settings.github.APPS[0].client_id, 'Iv1.fixture0github');
    assert.ok(!JSON.stringify(summary).includes('fixture-oidc-secret') && !JSON.stringify(summary).includes('fixture-github-secret'));
  });

  it('a later run brings what it can now: the account named by --provider-map, the token once tokens are kept', async () => {
    const summary = await cliJson(target, importArgs('--provider-map', 'testidp=corp-oidc', '--provider-map', 'corp-sso=corp', '--show-app-secrets'), {
      env: { SOCIALACCOUNT_STORE_TOKENS: 'true' },
    });
    assert.deepEqual(summary.rows.social_accounts, { imported: 1, already_imported: 2, skipped: {} });
    assert.deepEqual(summary.rows.social_tokens, { imported: 1, already_imported: 0, skipped: {} });
    assert.deepEqual(summary.rows.mfa_authenticators, { imported: 0, already_imported: 2, skipped: { encrypted_secret: 1, migrated_codes: 1 } });
    assert.deepEqual(await accountsOf('alice-at-corp'), [{ provider: 'corp', username: 'alice' }]);
    // Asked for, the secrets are printed.
    assert.equal(summary.provider_settings.openid_connect.APPS[0].secret, 'fixture-oidc-secret');

    const again = await cliJson(target, importArgs('--provider-map', 'testidp=corp-oidc', '--provider-map', 'corp-sso=corp'), { env: { SOCIALACCOUNT_STORE_TOKENS: 'true' } });
    assert.deepEqual(again.rows.social_accounts, { imported: 0, already_imported: 3, skipped: {} });
    assert.deepEqual(again.rows.social_tokens, { imported: 0, already_imported: 1, skipped: {} });
    // Accounts imported before still count under their provider.
    assert.deepEqual(again.social_providers.map((p: any) => [p.source, p.accounts, p.provider_id]), [['corp-sso', 1, 'corp'], ['github', 1, 'github'], ['testidp', 1, 'corp-oidc']]);
  });

  it('a provider account connected to someone here already stays where it is', async () => {
    // Another deployment with the same people under other names and addresses.
    const second = await allauthCopy(kind);
    try {
      await second.exec(`
        UPDATE auth_user SET username = username || '-2', email = CASE WHEN email = '' THEN '' ELSE 'two.' || email END;
        UPDATE account_emailaddress SET email = 'two.' || email;
      `);
      const summary = await cliJson(target, ['import', 'allauth', second.url, '--source-name', 'second-site', '--provider-map', 'testidp=corp-oidc']);
      assert.deepEqual(summary.rows.users, { imported: 13, already_imported: 0, skipped: {} });
      assert.deepEqual(summary.rows.social_accounts, { imported: 0, already_imported: 0, skipped: { connected_here: 2 } });
      assert.deepEqual(await accountsOf('7340512'), [{ provider: 'github', username: 'grace' }]);
      assert.deepEqual(await accountsOf('idp-user-8f14e45f'), [{ provider: 'corp-oidc', username: 'frank' }]);
    } finally {
      await second.drop();
    }
  });
});
