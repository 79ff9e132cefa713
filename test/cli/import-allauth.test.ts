import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase, type TestServer } from '../support/server.js';
import { startIdp } from '../support/oidc-provider.js';
import { idTokenClaims, oidcApp, tokenLogin } from '../support/social.js';
import { readyClient } from '../support/accounts.js';
import { pendingFlow, totpAt } from '../mfa/support.js';
import { tokenSealContext } from '../../src/flows/social/provider-tokens.js';
import { allauthCopy, cliJson, runCli, secretKeyFile, type AllauthCopy } from './support.js';

// The django-allauth 65 fixture imported over the CLI, then used over HTTP:
// every user logs in with the password the fixture's README gives, whatever
// Django hasher made it, live sessions keep working, heidi's second factors
// still pass, frank's OpenID Connect login finds him and grace's GitHub
// token is kept. The SQLite file goes into a SQLite database, the PostgreSQL
// dump into PostgreSQL.

// A real OpenID provider stands in for the fixture's (gone) IdP: the app keeps its provider_id and client id.
const idp = await startIdp();
after(() => idp.close());
const PROVIDERS = JSON.stringify({
  openid_connect: { APPS: [oidcApp(idp, { id: 'testidp', clientId: 'fixture-oidc-client', name: 'Test IdP' })] },
  github: { APP: { client_id: 'Iv1.fixture0github', secret: 'not-the-fixture-secret' } },
});
// The server and the CLI read the same settings.
const SOCIAL = { SOCIALACCOUNT_PROVIDERS: PROVIDERS, SOCIALACCOUNT_STORE_TOKENS: 'true' };
const ENV = { ACCOUNT_LOGIN_METHODS: 'email,username', ACCOUNT_SIGNUP_FIELDS: 'email*,username*,password1*', ACCOUNT_EMAIL_VERIFICATION: 'optional', ...SOCIAL };

// From the fixture's README.
const HEIDI_TOTP_SECRET = '2QJZCRFLGLHEY7ITB5WYZGGAWSI2MSV2';
const HEIDI_USED_CODE = '93811118';
const HEIDI_UNUSED_CODES = ['22091738', '77132507'];
const FRANK_SUB = 'idp-user-8f14e45f';
const GRACE_TOKEN = 'gho_fixtureAccessToken0000000000000000';

type Address = [email: string, verified: boolean, primary: boolean];
interface Expected {
  password: string | null;
  /** The hasher of the imported hash, as passwordScheme names it. */
  scheme: string;
  active: boolean;
  joined: string;
  lastLogin: string;
  addresses: Address[];
}

// From the fixture's README and rows: times lose their microseconds.
const USERS: Record<string, Expected> = {
  alice: { password: 'Alice-pass-1!', scheme: 'pbkdf2_sha256', active: true, joined: '2026-11-23T20:28:11.914Z', lastLogin: '2026-11-23T20:28:40.471Z', addresses: [['alice@example.com', true, true]] },
  bob: {
    password: 'Bob-pass-2!', scheme: 'pbkdf2_sha256', active: true, joined: '2026-11-23T20:28:12.579Z', lastLogin: '2026-11-23T20:28:12.955Z',
    addresses: [['bob.builder@example.com', true, true], ['bob.alt@example.org', false, false]],
  },
  carol: { password: 'Carol-pass-3!', scheme: 'pbkdf2_sha256', active: true, joined: '2026-11-23T20:28:13.453Z', lastLogin: '2026-11-23T20:28:13.833Z', addresses: [['carol@example.net', false, true]] },
  dave: { password: 'Dave-pass-4!', scheme: 'pbkdf2_sha256', active: true, joined: '2026-11-23T20:28:13.899Z', lastLogin: '2026-11-23T20:28:14.137Z', addresses: [] },
  erin: { password: 'Erin-pass-5!', scheme: 'pbkdf2_sha256', active: false, joined: '2026-11-23T20:28:14.204Z', lastLogin: '2026-11-23T20:28:14.578Z', addresses: [['erin@example.com', true, true]] },
  frank: { password: null, scheme: 'none', active: true, joined: '2026-11-23T20:28:16.607Z', lastLogin: '2026-11-23T20:28:16.624Z', addresses: [['frank@idp.example', true, true]] },
  grace: { password: 'Grace-pass-7!', scheme: 'pbkdf2_sha256', active: true, joined: '2026-11-23T20:28:16.693Z', lastLogin: '2026-11-23T20:28:17.064Z', addresses: [['grace@example.com', true, true]] },
  heidi: { password: 'Heidi-pass-8!', scheme: 'pbkdf2_sha256', active: true, joined: '2026-11-23T20:28:18.353Z', lastLogin: '2026-11-23T20:28:31.894Z', addresses: [['heidi@example.com', true, true]] },
  ivan: { password: 'Ivan-pass-9!', scheme: 'argon2', active: true, joined: '2026-11-23T20:28:32.107Z', lastLogin: '2026-11-23T20:28:32.349Z', addresses: [['ivan@example.com', true, true]] },
  judy: { password: 'Judy-pass-10!', scheme: 'bcrypt_sha256', active: true, joined: '2026-11-23T20:28:34.194Z', lastLogin: '2026-11-23T20:28:34.433Z', addresses: [['judy@example.com', true, true]] },
  kim: { password: 'Kim-pass-12!', scheme: 'scrypt', active: true, joined: '2026-11-23T20:28:36.215Z', lastLogin: '2026-11-23T20:28:36.456Z', addresses: [['kim@example.com', true, true]] },
  'zoë': { password: 'Zoë-pässwörd-13', scheme: 'pbkdf2_sha256', active: true, joined: '2026-11-23T20:28:38.123Z', lastLogin: '2026-11-23T20:28:38.366Z', addresses: [['zoe@bücher.example', true, true]] },
  // createsuperuser: auth_user.email only, no allauth row; it comes over unverified.
  root: { password: 'Root-pass-11!', scheme: 'pbkdf2_sha256', active: true, joined: '2026-11-23T20:28:39.319Z', lastLogin: '2026-11-23T20:28:39.885Z', addresses: [['root@example.com', false, true]] },
};

// auth_user's first_name and last_name (dave and root have none).
const NAMES: Record<string, [string, string]> = {
  alice: ['Alice', 'Anderson'], bob: ['Bob', 'Builder'], carol: ['Carol', ''], erin: ['Erin', 'Evans'], frank: ['Frank', 'Ferreira'], grace: ['Grace', 'Hopper'],
  heidi: ['Heidi', 'Hansen'], ivan: ['Ivan', ''], judy: ['Judy', ''], kim: ['Kim', ''], 'zoë': ['Zoë', 'Łukasiewicz-Müller'],
};

// Live sessions of the fixture: alice's (app client, logged in by email) and root's (browser).
const ALICE_SESSION = 'lzu48y15kkl8ve6li86z26xivm7tglld';
const ROOT_SESSION = '1otnnp39z1jlltiszxgf5s5g95epgd5m';
// erin's anonymous session, left by her refused login.
const ANONYMOUS_SESSION = 'xw02fb50d4xhwcb69msg8kce89pd7ksf';

const URL_PASSWORD = 'not-for-the-summary';

const TABLES = ['users', 'email_addresses', 'sessions', 'one_time_keys', 'refresh_tokens', 'phone_numbers', 'mfa_authenticators', 'social_accounts', 'social_tokens', 'import_records'] as const;

async function snapshot(server: TestServer): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const table of TABLES) out[table] = await server.app.deps.db.selectFrom(table).selectAll().orderBy('id').execute();
  return out;
}

async function userIdOf(server: TestServer, username: string): Promise<number> {
  const row = await server.app.deps.db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow();
  return row.id;
}

describeEachDatabase('import from django-allauth', ENV, ({ server, kind }) => {
  let source: AllauthCopy;
  let key: ReturnType<typeof secretKeyFile>;
  let target: string;
  let summary: any;
  let urlPassword: string;

  before(async () => {
    source = await allauthCopy(kind);
    key = secretKeyFile();
    target = server().app.deps.config.databaseUrl;
    // A password in the URL must not be echoed (the test server trusts local connections and ignores one).
    const url = new URL(source.url);
    if (kind === 'postgres' && url.password === '') url.password = URL_PASSWORD;
    urlPassword = decodeURIComponent(url.password);
    summary = await cliJson(target, ['import', 'allauth', url.toString(), '--django-secret-key-file', key.path, '--batch-size', '5'], { env: SOCIAL });
  });
  after(async () => {
    await source?.drop();
    key?.remove();
  });

  it('summarises what it imported, skipped and left for later', () => {
    if (urlPassword) assert.ok(!JSON.stringify(summary).includes(urlPassword), summary.source);
    assert.deepEqual(summary.rows, {
      users: { imported: 13, already_imported: 0, skipped: {} },
      email_addresses: { imported: 13, already_imported: 0, skipped: {} },
      sessions: { imported: 2, already_imported: 0, skipped: { not_logged_in: 1 } },
      social_accounts: { imported: 2, already_imported: 0, skipped: {} },
      social_tokens: { imported: 1, already_imported: 0, skipped: {} },
      mfa_authenticators: { imported: 2, already_imported: 0, skipped: {} },
      // The fixture predates allauth.idp (test/idp/import.test.ts imports its tables).
      idp_clients: { imported: 0, already_imported: 0, skipped: {} },
      idp_grants: { imported: 0, already_imported: 0, skipped: {} },
    });
    assert.deepEqual(summary.conflicts, []);
    assert.deepEqual(summary.password_hashes, { pbkdf2_sha256: 9, unusable: 1, argon2: 1, bcrypt_sha256: 1, scrypt: 1 });
    assert.deepEqual(summary.unverifiable_password_hashes, {});
    // root, made by createsuperuser, is the one is_staff/is_superuser user: it gets the admin role.
    assert.equal(summary.admins, 1);
    assert.deepEqual(summary.not_imported, []);
    assert.deepEqual(
      summary.social_providers.map((p: any) => [p.source, p.accounts, p.provider_id, p.type, p.configured_here]),
      [['github', 1, 'github', 'github', true], ['testidp', 1, 'testidp', 'openid_connect', true]],
    );
    // Both apps are configured here, so no settings are suggested, and no secret is printed.
    assert.deepEqual(summary.provider_apps.map((a: any) => [a.type, a.provider_id, a.client_id, a.configured_here]), [
      ['openid_connect', 'testidp', 'fixture-oidc-client', true],
      ['github', 'github', 'Iv1.fixture0github', true],
    ]);
    assert.equal(summary.provider_settings, null);
    assert.ok(!JSON.stringify(summary).includes('fixture-oidc-secret'));
  });

  it('brings over usernames, names, addresses with their flags, is_active and dates', async () => {
    const db = server().app.deps.db;
    const users = await db.selectFrom('users').selectAll().orderBy('id').execute();
    assert.deepEqual(users.map((u) => u.username).sort(), Object.keys(USERS).sort());
    for (const user of users) {
      const expected = USERS[user.username!]!;
      assert.equal(user.is_active, expected.active ? 1 : 0, user.username!);
      assert.deepEqual([user.first_name, user.last_name], NAMES[user.username!] ?? ['', ''], user.username!);
      assert.equal(user.is_admin, user.username === 'root' ? 1 : 0, user.username!);
      assert.equal(new Date(user.created_at).toISOString(), expected.joined, user.username!);
      assert.equal(new Date(user.last_login_at!).toISOString(), expected.lastLogin, user.username!);
      const addresses = await db.selectFrom('email_addresses').select(['email', 'verified', 'is_primary']).where('user_id', '=', user.id).orderBy('id').execute();
      assert.deepEqual(addresses.map((a): Address => [a.email, a.verified === 1, a.is_primary === 1]), expected.addresses, user.username!);
    }
    // The CLI shows the same, with each imported hash's hasher.
    const listed = await cliJson(target, ['users', 'list']);
    for (const user of listed.users) assert.equal(user.password.scheme, USERS[user.username]!.scheme, user.username);
  });

  it('running it again changes nothing', async () => {
    const before = await snapshot(server());
    const again = await cliJson(target, ['import', 'allauth', source.url, '--django-secret-key-file', key.path], { env: SOCIAL });
    assert.deepEqual(again.rows, {
      users: { imported: 0, already_imported: 13, skipped: {} },
      email_addresses: { imported: 0, already_imported: 13, skipped: {} },
      sessions: { imported: 0, already_imported: 2, skipped: { not_logged_in: 1 } },
      social_accounts: { imported: 0, already_imported: 2, skipped: {} },
      social_tokens: { imported: 0, already_imported: 1, skipped: {} },
      mfa_authenticators: { imported: 0, already_imported: 2, skipped: {} },
      idp_clients: { imported: 0, already_imported: 0, skipped: {} },
      idp_grants: { imported: 0, already_imported: 0, skipped: {} },
    });
    assert.deepEqual(await snapshot(server()), before);
  });

  it('live sessions stay logged in, as app session tokens and as browser cookies', async () => {
    const app = server().client('app');
    const mine = await app.get('/auth/session', { 'x-session-token': ALICE_SESSION });
    assert.equal(mine.status, 200, JSON.stringify(mine.body));
    assert.equal(mine.body.data.user.username, 'alice');
    assert.equal(mine.body.data.methods[0].method, 'password');

    const browser = server().client('browser');
    browser.cookies.set('sessionid', ROOT_SESSION);
    const root = await browser.get('/auth/session');
    assert.equal(root.status, 200, JSON.stringify(root.body));
    assert.equal(root.body.data.user.username, 'root');

    // The anonymous one was left behind: its token is unknown here.
    assert.equal((await app.get('/auth/session', { 'x-session-token': ANONYMOUS_SESSION })).status, 410);
    const listed = await cliJson(target, ['sessions', 'list', 'alice']);
    assert.deepEqual(listed.sessions.map((s: any) => [s.ip, s.user_agent]), [['127.0.0.1', 'Mozilla/5.0 (X11; Linux x86_64) fixture']]);
  });

  it("every hasher's users log in with their passwords and are re-hashed to argon2id", async () => {
    const db = server().app.deps.db;
    const refusedWrong = new Set<string>();
    for (const [username, expected] of Object.entries(USERS)) {
      if (expected.password === null) continue;
      // A wrong password once per hasher (a million PBKDF2 rounds each): the check is real.
      if (!refusedWrong.has(expected.scheme)) {
        refusedWrong.add(expected.scheme);
        const wrong = await server().client('app').post('/auth/login', { username, password: `${expected.password}x` });
        assert.equal(wrong.status, 400, username);
        assert.equal(wrong.body.errors[0].code, 'username_password_mismatch', username);
      }
      const login = await server().client('app').post('/auth/login', { username, password: expected.password });
      if (!expected.active) {
        assert.equal(login.status, 400, username);
        assert.equal(login.body.errors[0].code, 'account_inactive');
        continue;
      }
      if (username === 'heidi') {
        // Her imported TOTP asks for the second factor (tested below); the password was right all the same.
        assert.equal(login.status, 401, JSON.stringify(login.body));
        assert.equal(pendingFlow(login.body)?.id, 'mfa_authenticate');
      } else {
        assert.equal(login.status, 200, `${username}: ${JSON.stringify(login.body)}`);
        assert.equal(login.body.data.user.has_usable_password, true);
      }
      const { password_hash } = await db.selectFrom('users').select('password_hash').where('id', '=', await userIdOf(server(), username)).executeTakeFirstOrThrow();
      assert.match(password_hash ?? '', /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/, username);
    }
  });

  it('logs in by an imported address: internationalised, and one from auth_user.email alone', async () => {
    for (const [email, password] of [['zoe@bücher.example', 'Zoë-pässwörd-13'], ['ROOT@example.com', 'Root-pass-11!']]) {
      const login = await server().client('app').post('/auth/login', { email, password });
      assert.equal(login.status, 200, `${email}: ${JSON.stringify(login.body)}`);
    }
  });

  it('a user without a usable password cannot log in with one', async () => {
    const login = await server().client('app').post('/auth/login', { username: 'frank', password: 'anything at all' });
    assert.equal(login.status, 400);
    assert.equal(login.body.errors[0].code, 'username_password_mismatch');
  });

  it("heidi's imported second factors: codes of her TOTP secret and her unused recovery codes pass, the used one does not", async () => {
    const db = server().app.deps.db;
    const rows = await db
      .selectFrom('mfa_authenticators')
      .select(['type', 'used_mask', 'created_at', 'last_used_at'])
      .where('user_id', '=', await userIdOf(server(), 'heidi'))
      .orderBy('type')
      .execute();
    assert.deepEqual(
      rows.map((r) => [r.type, Number(r.used_mask), new Date(Number(r.created_at)).toISOString(), new Date(Number(r.last_used_at)).toISOString()]),
      [
        ['recovery_codes', 1, '2026-11-23T20:28:19.446Z', '2026-11-23T20:28:31.887Z'],
        ['totp', 0, '2026-11-23T20:28:19.440Z', '2026-11-23T20:28:31.252Z'],
      ],
    );
    const secondFactor = async (code: string) => {
      const client = await readyClient(server(), 'app');
      const login = await client.post('/auth/login', { username: 'heidi', password: USERS.heidi!.password });
      assert.equal(login.status, 401, JSON.stringify(login.body));
      assert.equal(pendingFlow(login.body)?.id, 'mfa_authenticate');
      return client.post('/auth/2fa/authenticate', { code });
    };
    const used = await secondFactor(HEIDI_USED_CODE);
    assert.equal(used.status, 400, JSON.stringify(used.body));
    assert.equal(used.body.errors[0].code, 'incorrect_code');
    for (const code of [totpAt(server(), HEIDI_TOTP_SECRET), HEIDI_UNUSED_CODES[0]!]) {
      const passed = await secondFactor(code);
      assert.equal(passed.status, 200, `${code}: ${JSON.stringify(passed.body)}`);
      assert.equal(passed.body.data.user.username, 'heidi');
    }
    // Spent here as it would have been there.
    const again = await secondFactor(HEIDI_UNUSED_CODES[0]!);
    assert.equal(again.status, 400);
  });

  it("frank's OpenID Connect login finds his imported account instead of signing up someone new", async () => {
    const db = server().app.deps.db;
    const usersBefore = (await db.selectFrom('users').select('id').execute()).length;
    const idToken = await idp.sign(idTokenClaims(idp, server(), 'fixture-oidc-client', { sub: FRANK_SUB, email: 'frank@idp.example', email_verified: true }));
    const login = await tokenLogin(await readyClient(server(), 'app'), 'testidp', { client_id: 'fixture-oidc-client', id_token: idToken });
    assert.equal(login.status, 200, JSON.stringify(login.body));
    assert.equal(login.body.data.user.id, await userIdOf(server(), 'frank'));
    assert.deepEqual(login.body.data.methods.map((m: any) => [m.method, m.provider, m.uid]), [['socialaccount', 'testidp', FRANK_SUB]]);
    assert.equal((await db.selectFrom('users').select('id').execute()).length, usersBefore);
    assert.deepEqual((await cliJson(target, ['users', 'show', 'frank'])).social_accounts, [{ provider: 'testidp', uid: FRANK_SUB }]);
  });

  it("grace's GitHub account is connected, and its stored token is sealed and opens to the fixture's", async () => {
    const client = await readyClient(server(), 'app');
    const login = await client.post('/auth/login', { username: 'grace', password: USERS.grace!.password });
    assert.equal(login.status, 200, JSON.stringify(login.body));
    const accounts = await client.get('/account/providers');
    assert.equal(accounts.status, 200);
    assert.deepEqual(accounts.body.data.map((a: any) => [a.provider.id, a.uid, a.display]), [['github', '7340512', 'grace-gh']]);
    const row = await server()
      .app.deps.db.selectFrom('social_tokens as t')
      .innerJoin('social_accounts as a', 'a.id', 't.social_account_id')
      .select(['t.social_account_id', 't.token', 't.token_secret', 't.expires_at'])
      .where('a.uid', '=', '7340512')
      .executeTakeFirstOrThrow();
    assert.ok(!row.token.includes(GRACE_TOKEN), 'not in the clear');
    assert.equal(server().app.deps.atRest.open(row.token, tokenSealContext(row.social_account_id, 'token')), GRACE_TOKEN);
    assert.equal(row.token_secret, null);
    assert.equal(row.expires_at, null);
  });

  it('a user deleted here since is not brought back by the next run', async () => {
    await cliJson(target, ['users', 'delete', 'bob', '--yes']);
    const again = await cliJson(target, ['import', 'allauth', source.url, '--django-secret-key-file', key.path]);
    assert.deepEqual(again.rows.users, { imported: 0, already_imported: 12, skipped: { deleted_here: 1 } });
    assert.deepEqual(again.rows.email_addresses, { imported: 0, already_imported: 11, skipped: { deleted_here: 2 } });
    const found = await runCli(target, ['users', 'show', 'bob']);
    assert.equal(found.status, 1);
  });
});
