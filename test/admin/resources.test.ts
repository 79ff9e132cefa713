import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.js';
import { databaseKinds } from '../support/databases.js';
import { describeUnlessSkipped } from '../support/suites.js';
import { PASSWORD, uniqueEmail } from '../support/accounts.js';
import { startReceiver, until, webhookSecret, type Receiver } from '../audit/support.js';
import { totpAccount } from '../mfa/support.js';
import { AdminClient, adminUrl, assertAdminError, newKey } from './support.js';
import { insertSocialAccount } from '../../src/store/social-accounts.js';
import { listAuditEvents } from '../../src/store/audit-events.js';

// The admin API's other resources (second factors, social accounts,
// webhook deliveries) and the limit on bad keys, on a server whose webhook
// receiver refuses everything, with one attempt per delivery.

const secret = webhookSecret();

for (const { kind, skip } of await databaseKinds()) {
  describeUnlessSkipped(`admin API resources [${kind}]`, skip, () => {
    let hooks: Receiver;
    let server: TestServer;
    let writer: AdminClient;
    let base: string;
    before(async () => {
      hooks = await startReceiver({ answer: 500 });
      server = await startTestServer(kind, {
        ADMIN_PORT: '0',
        ACCOUNT_EMAIL_VERIFICATION: 'optional',
        WEBHOOK_URLS: hooks.url,
        WEBHOOK_SECRET: secret.setting,
        WEBHOOK_MAX_ATTEMPTS: '1',
        WEBHOOK_POLL_INTERVAL_MS: '20',
        WEBHOOK_TIMEOUT_MS: '2000',
        // Only the admin API's own limit, low enough to reach.
        ACCOUNT_RATE_LIMITS: JSON.stringify({ admin_key_failed: '3/m/ip', login: false, login_failed: false, signup: false, reauthenticate: false }),
      });
      base = await adminUrl(server);
      writer = new AdminClient(base, (await newKey(server, 'write')).secret);
    });
    after(async () => {
      await server?.close();
      await hooks?.close();
    });

    it("lists a user's second factors and removes TOTP, the recovery codes going with it", async () => {
      const account = await totpAccount(server, 'app');
      const user = (await writer.get(`/users?email=${encodeURIComponent(account.email)}`)).body.data[0];
      const listed = await writer.get(`/users/${user.id}/authenticators`);
      assert.deepEqual(listed.body.data.map((a: any) => a.type).sort(), ['recovery_codes', 'totp']);
      assert.ok(!JSON.stringify(listed.body).includes('secret'));
      const totp = listed.body.data.find((a: any) => a.type === 'totp');
      const removed = await writer.delete(`/users/${user.id}/authenticators/${totp.id}`);
      assert.deepEqual(removed.body.data.map((a: any) => a.type).sort(), ['recovery_codes', 'totp']);
      assert.deepEqual((await writer.get(`/users/${user.id}/authenticators`)).body.data, []);
      assertAdminError(await writer.delete(`/users/${user.id}/authenticators/${totp.id}`), 404, 'not_found', 'authenticator');
      // The user logs in with the password alone now.
      const login = await server.client('app').post('/auth/login', { email: account.email, password: PASSWORD });
      assert.equal(login.status, 200, JSON.stringify(login.body));
      const events = await listAuditEvents(server.app.deps.db, { userId: user.id, types: ['authenticator.removed'], limit: 5 });
      assert.equal(events.length, 2);
      assert.ok(events.every((e) => (e.detail as any).actor === 'admin_api'));
    });

    it("lists and disconnects a user's social accounts", async () => {
      const user = (await writer.post('/users', { email: uniqueEmail('social') })).body.data;
      const account = await insertSocialAccount(server.app.deps.db, { userId: user.id, provider: 'github', uid: `uid-${user.id}`, extraData: { login: 'octo' }, now: Date.now() });
      assert.ok(account);
      assert.deepEqual((await writer.get(`/users/${user.id}/social-accounts`)).body.data, [{ id: account.id, provider: 'github', provider_name: 'GitHub', uid: `uid-${user.id}`, display: 'octo' }]);
      // An id of no configured app and no provider type has no name to give.
      const unknown = await insertSocialAccount(server.app.deps.db, { userId: user.id, provider: 'gone-sso', uid: `gone-${user.id}`, extraData: {}, now: Date.now() });
      assert.deepEqual((await writer.get(`/users/${user.id}/social-accounts`)).body.data[1], { id: unknown!.id, provider: 'gone-sso', provider_name: null, uid: `gone-${user.id}` });
      assert.equal((await writer.delete(`/users/${user.id}/social-accounts/${unknown!.id}`)).body.data.provider_name, null);
      const gone = await writer.delete(`/users/${user.id}/social-accounts/${account.id}`);
      assert.equal(gone.body.data.disconnected, true);
      assert.deepEqual((await writer.get(`/users/${user.id}/social-accounts`)).body.data, []);
      assertAdminError(await writer.delete(`/users/${user.id}/social-accounts/${account.id}`), 404, 'not_found');
      const [event] = await listAuditEvents(server.app.deps.db, { userId: user.id, types: ['social.disconnected'], limit: 1 });
      assert.deepEqual(event?.detail, { provider: 'github', actor: 'admin_api', actor_id: (event?.detail as any).actor_id });
    });

    it('lists failed webhook deliveries and requeues them', async () => {
      const user = (await writer.post('/users', { email: uniqueEmail('hook') })).body.data;
      const [signup] = await listAuditEvents(server.app.deps.db, { userId: user.id, types: ['signup'], limit: 1 });
      const failed = await until('the signup delivery failed', async () => {
        const page = await writer.get('/webhook-deliveries?status=failed&limit=1000');
        return page.body.data.find((d: any) => d.event_id === signup!.eventId);
      });
      assert.equal(failed.last_error, 'HTTP 500');
      assertAdminError(await writer.post('/webhook-deliveries/requeue', {}), 400, 'required', 'ids');
      assertAdminError(await writer.post('/webhook-deliveries/requeue', { ids: [999999999] }), 404, 'not_found', 'ids');
      const requeued = await writer.post('/webhook-deliveries/requeue', { ids: [failed.id] });
      assert.equal(requeued.status, 200, JSON.stringify(requeued.body));
      assert.deepEqual(requeued.body.data.map((d: any) => [d.id, d.status]), [[failed.id, 'pending']]);
      const [event] = await listAuditEvents(server.app.deps.db, { types: ['webhook.requeued'], limit: 1 });
      assert.equal((event?.detail as any).actor, 'admin_api');
    });

    // The last test here: it spends this address's limit.
    it('limits requests with bad keys per address: 429 with Retry-After, then even for a right key', async () => {
      const bad = new AdminClient(base, 'hak_not-a-real-key');
      for (let i = 0; i < 2; i++) assertAdminError(await bad.get('/users'), 401, 'invalid_api_key');
      // A right key gives its point back: any number of them spend nothing.
      for (let i = 0; i < 5; i++) assert.equal((await writer.get('/users?limit=1')).status, 200);
      assertAdminError(await bad.get('/users'), 401, 'invalid_api_key');
      const limited = await bad.get('/users');
      assertAdminError(limited, 429, 'too_many_requests');
      assert.ok(Number(limited.headers.get('retry-after')) >= 1);
      // Or the answers would tell a right guess (200) from a wrong one (429) at full speed.
      const right = await writer.get('/users?limit=1');
      assertAdminError(right, 429, 'too_many_requests');
      assert.ok(Number(right.headers.get('retry-after')) >= 1);
    });
  });
}
