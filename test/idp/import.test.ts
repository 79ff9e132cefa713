import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, pbkdf2Sync } from 'node:crypto';
import * as oidc from 'openid-client';
import { createTestDatabase, type TestDatabase } from '../support/databases.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { allauthCopy, cliJson, type AllauthCopy } from '../cli/support.js';
import { IDP_ENV, relyingParty } from './support.js';

// `headless-auth import allauth` carries allauth.idp.oidc over: a client
// keeps its id and secret (a Django hash), and a refresh token the
// reference issued keeps working here, rotated on its first use.

const SECRET = 'legacy-client-secret';
const REFRESH = 'legacy-refresh-token-value';

function djangoHash(password: string): string {
  const salt = 'fixturesalt0123';
  const iterations = 1000;
  return `pbkdf2_sha256$${iterations}$${salt}$${pbkdf2Sync(password, salt, iterations, 32, 'sha256').toString('base64')}`;
}

// The reference's tables (allauth/idp/oidc/migrations 0001 to 0003), as Django makes them on SQLite.
const TABLES = `
CREATE TABLE allauth_idp_oidc_client (id varchar(100) PRIMARY KEY, name varchar(100) NOT NULL, secret varchar(200) NOT NULL, scopes text NOT NULL, type varchar(20) NOT NULL,
  grant_types text NOT NULL, redirect_uris text NOT NULL, cors_origins text NOT NULL, response_types text NOT NULL, skip_consent bool NOT NULL, created_at datetime NOT NULL,
  data text NULL, owner_id integer NULL, default_scopes text NOT NULL, allow_uri_wildcards bool NOT NULL);
CREATE TABLE allauth_idp_oidc_token (id integer PRIMARY KEY AUTOINCREMENT, type varchar(2) NOT NULL, hash varchar(255) NOT NULL, data text NULL, created_at datetime NOT NULL,
  expires_at datetime NULL, scopes text NOT NULL, client_id varchar(100) NULL, user_id integer NULL);
INSERT INTO allauth_idp_oidc_client VALUES ('legacy-client', 'Legacy wiki', '${djangoHash(SECRET)}', 'openid
email', 'confidential', 'authorization_code
refresh_token', 'http://rp.test/callback', '', 'code', 0, '2026-01-02 03:04:05.000000', NULL, NULL, '', 0);
INSERT INTO allauth_idp_oidc_client VALUES ('legacy-spa', 'Legacy SPA', '!unusable', 'openid', 'public', 'authorization_code', 'https://*.example.com/cb', 'https://*.example.com', 'code', 1, '2026-01-02 03:04:05.000000', NULL, NULL, 'openid', 1);
INSERT INTO allauth_idp_oidc_token (type, hash, created_at, expires_at, scopes, client_id, user_id) VALUES
  ('rt', '${createHash('sha256').update(REFRESH).digest('hex')}', '2026-01-02 03:04:05.000000', NULL, 'openid
email', 'legacy-client', 1),
  ('at', 'ffff', '2026-01-02 03:04:05.000000', '2026-01-02 04:04:05.000000', 'openid', 'legacy-client', 1);
`;

describe('import allauth: the OpenID provider [sqlite]', () => {
  let source: AllauthCopy;
  let target: TestDatabase;
  let server: TestServer | undefined;
  before(async () => {
    source = await allauthCopy('sqlite');
    await source.exec(TABLES);
    target = await createTestDatabase('sqlite');
    await cliJson(target.url, ['migrate']);
  });
  after(async () => {
    await server?.close();
    await source?.drop();
    await target?.drop();
  });

  it('imports clients with their secrets and refresh tokens that keep working', async () => {
    const summary = await cliJson(target.url, ['import', 'allauth', source.url]);
    assert.deepEqual(summary.rows.idp_clients, { imported: 2, already_imported: 0, skipped: {} });
    assert.deepEqual(summary.rows.idp_grants, { imported: 1, already_imported: 0, skipped: {} });

    server = await startTestServer('sqlite', IDP_ENV, { database: target });
    const rp = await relyingParty(server, { id: 'legacy-client', secret: SECRET });
    const tokens = await oidc.refreshTokenGrant(rp, REFRESH);
    const claims = tokens.claims()!;
    assert.equal(claims.email, 'alice@example.com');
    assert.ok(tokens.refresh_token && tokens.refresh_token !== REFRESH, 'rotated');
    await assert.rejects(oidc.refreshTokenGrant(rp, REFRESH), (e: any) => e.error === 'invalid_grant');

    const wrong = await relyingParty(server, { id: 'legacy-client', secret: 'not-it' });
    await assert.rejects(oidc.clientCredentialsGrant(wrong), (e: any) => e.status === 401);

    const again = await cliJson(target.url, ['import', 'allauth', source.url]);
    assert.deepEqual(again.rows.idp_clients, { imported: 0, already_imported: 2, skipped: {} });
    assert.deepEqual(again.rows.idp_grants, { imported: 0, already_imported: 1, skipped: {} });
  });
});
