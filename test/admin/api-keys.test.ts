import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.js';
import { databaseKinds } from '../support/databases.js';
import { describeUnlessSkipped } from '../support/suites.js';
import { AdminClient, adminUrl, assertAdminError, consoleAdmin, ConsoleBrowser, newKey } from './support.js';
import { listAuditEvents } from '../../src/store/audit-events.js';

// The admin API's own keys as a resource: any key lists them, only an
// administrator in the console makes, re-dates and revokes them; a key made
// there works against /admin/v1 until it is revoked, then is refused at once.

for (const { kind, skip } of await databaseKinds()) {
  describeUnlessSkipped(`admin API: its keys [${kind}]`, skip, () => {
    let server: TestServer;
    let base: string;
    let console_: ConsoleBrowser;
    let adminId: number;
    before(async () => {
      server = await startTestServer(kind, { ADMIN_PORT: '0', ACCOUNT_EMAIL_VERIFICATION: 'optional' });
      base = await adminUrl(server);
      ({ console: console_, id: adminId } = await consoleAdmin(server, base));
    });
    after(() => server?.close());

    const api = (method: string, path: string, body?: unknown) => console_.request(method, `/console/api/v1${path}`, body);

    it('makes a key in the console, shown once, that works until it is revoked', async () => {
      const expires = new Date(server.clock.now() + 30 * 86400_000).toISOString();
      const made = await api('POST', '/api-keys', { name: 'Reports job', scope: 'read', expires_at: expires });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      const secret: string = made.body.meta.key;
      assert.match(secret, /^hak_/);
      assert.equal(made.body.data.name, 'Reports job');
      assert.equal(made.body.data.scope, 'read');
      assert.equal(made.body.data.state, 'active');
      assert.equal(made.body.data.expires_at, expires);
      assert.equal(made.body.data.prefix, secret.slice(0, 12));

      const key = new AdminClient(base, secret);
      assert.equal((await key.get('/users?limit=1')).status, 200);
      const listed = await key.get('/api-keys');
      assert.equal(listed.status, 200);
      const row = listed.body.data.find((k: { id: number }) => k.id === made.body.data.id);
      assert.equal(row.name, 'Reports job');
      assert.notEqual(row.last_used_at, null, 'the request just made counts as a use');
      assert.equal(JSON.stringify(listed.body).includes(secret), false, 'a listing never shows a key');

      const revoked = await api('POST', `/api-keys/${made.body.data.id}/revoke`);
      assert.equal(revoked.status, 200, JSON.stringify(revoked.body));
      assert.equal(revoked.body.data.state, 'revoked');
      assertAdminError(await key.get('/users?limit=1'), 401, 'invalid_api_key');

      const events = (await listAuditEvents(server.app.deps.db, { types: ['admin_key.created', 'admin_key.revoked'], limit: 50 })).filter((e) => (e.detail as any).key_id === made.body.data.id);
      assert.deepEqual(events.map((e) => e.type).sort(), ['admin_key.created', 'admin_key.revoked']);
      for (const e of events) assert.deepEqual([(e.detail as any).actor, (e.detail as any).actor_id], ['admin_console', adminId], 'the administrator is the actor');
    });

    it('changes when a key expires, to a later time or never, and refuses a past one', async () => {
      const made = await api('POST', '/api-keys', { name: 'Deploy', scope: 'write' });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      assert.equal(made.body.data.expires_at, null);
      const id = made.body.data.id;
      const later = new Date(server.clock.now() + 86400_000).toISOString();
      const dated = await api('PATCH', `/api-keys/${id}`, { expires_at: later });
      assert.equal(dated.status, 200, JSON.stringify(dated.body));
      assert.equal(dated.body.data.expires_at, later);
      assert.equal((await api('PATCH', `/api-keys/${id}`, { expires_at: null })).body.data.expires_at, null);
      assertAdminError(await api('PATCH', `/api-keys/${id}`, { expires_at: new Date(server.clock.now() - 1000).toISOString() }), 400, 'invalid', 'expires_at');
      assertAdminError(await api('PATCH', `/api-keys/${id}`, { expires_at: 'tomorrow' }), 400, 'invalid', 'expires_at');
      assertAdminError(await api('PATCH', '/api-keys/999999', { expires_at: null }), 404, 'not_found', 'id');
      assertAdminError(await api('POST', '/api-keys/999999/revoke'), 404, 'not_found', 'id');
    });

    it('refuses a key without a name or with another scope, each next to its field', async () => {
      assertAdminError(await api('POST', '/api-keys', { name: '  ', scope: 'read' }), 400, 'required', 'name');
      assertAdminError(await api('POST', '/api-keys', { name: 'x'.repeat(101), scope: 'read' }), 400, 'invalid', 'name');
      assertAdminError(await api('POST', '/api-keys', { name: 'x', scope: 'admin' }), 400, 'invalid', 'scope');
      assertAdminError(await api('POST', '/api-keys', { name: 'x', scope: 'read', expires_at: new Date(server.clock.now() - 1).toISOString() }), 400, 'invalid', 'expires_at');
    });

    it('lets no API key make, re-date or revoke keys, not even a write key', async () => {
      const writer = new AdminClient(base, (await newKey(server, 'write')).secret);
      const reader = new AdminClient(base, (await newKey(server, 'read')).secret);
      const target = await newKey(server, 'read', { name: 'target' });
      assertAdminError(await writer.post('/api-keys', { name: 'minted', scope: 'write' }), 403, 'console_only');
      assertAdminError(await writer.patch(`/api-keys/${target.id}`, { expires_at: null }), 403, 'console_only');
      assertAdminError(await writer.post(`/api-keys/${target.id}/revoke`), 403, 'console_only');
      assertAdminError(await reader.post('/api-keys', { name: 'minted', scope: 'read' }), 403, 'insufficient_scope');
      const names = (await reader.get('/api-keys')).body.data.map((k: { name: string }) => k.name);
      assert.equal(names.includes('minted'), false);
      assert.equal((await new AdminClient(base, target.secret).get('/api-keys')).status, 200, 'the target still works');
    });
  });
}
