import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase, type TestServer } from '../support/server.js';
import { PASSWORD, nthMail, uniqueEmail, uniqueUsername } from '../support/accounts.js';
import { AdminClient, adminUrl, assertAdminError, newKey } from './support.js';
import { listAuditEvents } from '../../src/store/audit-events.js';
import { revokeAdminKey, setAdminKeyExpiry } from '../../src/flows/admin/api-keys.js';
import { cliSource } from '../../src/audit/recorder.js';

// The admin REST API on its own listener: keys and scopes, the users
// resource and its sub-resources, the envelope for bad input, the audit
// events of each change, and its OpenAPI document.

// Two custom profile fields, neither required (signup here asks for none), for GET /profile-fields.
const PROFILE_SCHEMA = {
  type: 'object',
  properties: { company: { type: 'string', minLength: 2, maxLength: 40, title: 'Company' }, seats: { type: 'integer', minimum: 1, maximum: 500, enum: [1, 10, 500] } },
  required: [],
};
const ENV = { ADMIN_PORT: '0', ACCOUNT_LOGIN_METHODS: 'email,username', ACCOUNT_EMAIL_VERIFICATION: 'optional', ACCOUNT_PROFILE_SCHEMA: JSON.stringify(PROFILE_SCHEMA) };

async function login(server: TestServer, email: string, password = PASSWORD) {
  return server.client('app').post('/auth/login', { email, password });
}

describeEachDatabase('admin API', ENV, ({ server }) => {
  let base: string;
  let writer: AdminClient;
  let reader: AdminClient;
  let writeKeyId: number;
  before(async () => {
    base = await adminUrl(server());
    const write = await newKey(server(), 'write');
    writeKeyId = write.id;
    writer = new AdminClient(base, write.secret);
    reader = new AdminClient(base, (await newKey(server(), 'read')).secret);
  });

  it('is not served on the public listener', async () => {
    const response = await fetch(`${server().baseUrl}/admin/v1/users`, { headers: { authorization: `Bearer ${writer.key}` } });
    assert.equal(response.status, 404);
    assert.equal((await response.json()).errors[0].code, 'not_found');
  });

  it('answers a missing, malformed, unknown, expired or revoked key with 401 in the envelope', async () => {
    assertAdminError(await new AdminClient(base, undefined).get('/users'), 401, 'invalid_api_key');
    const missing = await new AdminClient(base, undefined).get('/users');
    assert.equal(missing.headers.get('www-authenticate'), 'Bearer realm="admin"');
    assertAdminError(await new AdminClient(base, 'not a key').get('/users'), 401, 'invalid_api_key');
    assertAdminError(await new AdminClient(base, `hak_${'A'.repeat(43)}`).get('/users'), 401, 'invalid_api_key');
    assertAdminError(await new AdminClient(base, undefined).request('GET', '/admin/v1/users', undefined, { authorization: `Basic ${writer.key}` }), 401, 'invalid_api_key');

    const expiring = await newKey(server(), 'read', { expiresAt: server().clock.now() + 60_000 });
    const client = new AdminClient(base, expiring.secret);
    assert.equal((await client.get('/users?limit=1')).status, 200);
    server().clock.advance(60_001);
    assertAdminError(await client.get('/users?limit=1'), 401, 'invalid_api_key');

    const revoked = await newKey(server(), 'write');
    const revokedClient = new AdminClient(base, revoked.secret);
    assert.equal((await revokedClient.get('/users?limit=1')).status, 200);
    await revokeAdminKey(server().app.deps, cliSource(server().clock.now()), revoked.id);
    assertAdminError(await revokedClient.get('/users?limit=1'), 401, 'invalid_api_key');

    // Expiring a key now (admin-keys expire) refuses it at once too.
    const expired = await newKey(server(), 'read');
    await setAdminKeyExpiry(server().app.deps, cliSource(server().clock.now()), expired.id, server().clock.now());
    assertAdminError(await new AdminClient(base, expired.secret).get('/users?limit=1'), 401, 'invalid_api_key');
  });

  it('lets a read key read but not change, and records when a key was last used', async () => {
    assert.equal((await reader.get('/users?limit=5')).status, 200);
    assertAdminError(await reader.post('/users', { email: uniqueEmail() }), 403, 'insufficient_scope');
    assertAdminError(await reader.delete('/users/1'), 403, 'insufficient_scope');
    const keys = await server().app.deps.db.selectFrom('admin_api_keys').select(['id', 'last_used_at']).where('id', '=', writeKeyId).execute();
    await writer.get('/users?limit=1');
    const after = await server().app.deps.db.selectFrom('admin_api_keys').select(['last_used_at']).where('id', '=', writeKeyId).executeTakeFirstOrThrow();
    assert.ok(after.last_used_at !== null && after.last_used_at >= (keys[0]?.last_used_at ?? 0));
  });

  it('creates a user with a password and a verified address, who then logs in; finds, changes and deletes them', async () => {
    const email = uniqueEmail('api');
    const username = uniqueUsername('api');
    const made = await writer.post('/users', { email, username, password: PASSWORD, email_verified: true });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const user = made.body.data;
    assert.equal(user.username, username);
    assert.equal(user.email, email);
    assert.equal(user.email_verified, true);
    assert.equal(user.has_usable_password, true);
    assert.equal(user.password_hash, undefined);
    assert.deepEqual(user.email_addresses, [{ email, verified: true, primary: true }]);
    assert.equal((await login(server(), email)).status, 200);

    for (const query of [`email=${encodeURIComponent(email.toUpperCase())}`, `username=${username}`, `id=${user.id}`, `q=${encodeURIComponent(username.slice(0, 8))}`]) {
      const found = await reader.get(`/users?${query}`);
      assert.equal(found.status, 200, query);
      assert.ok(found.body.data.some((u: any) => u.id === user.id), query);
    }
    assert.deepEqual((await reader.get(`/users?email=nobody-${email}`)).body.data, []);
    assert.equal((await reader.get(`/users/${user.id}`)).body.data.id, user.id);
    assertAdminError(await reader.get('/users/999999999'), 404, 'not_found');

    const renamed = await writer.patch(`/users/${user.id}`, { username: `${username}x` });
    assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
    assert.equal(renamed.body.data.username, `${username}x`);
    const token = (await login(server(), email)).body.meta.session_token;
    const disabled = await writer.patch(`/users/${user.id}`, { is_active: false });
    assert.equal(disabled.body.data.is_active, false);
    assert.equal((await server().client('app').get('/auth/session', { 'x-session-token': token })).status, 410);
    assertAdminError(await login(server(), email), 400, 'account_inactive');
    assert.equal((await writer.patch(`/users/${user.id}`, { is_active: true })).body.data.is_active, true);
    assert.equal((await login(server(), email)).status, 200);

    const deleted = await writer.delete(`/users/${user.id}`);
    assert.deepEqual(deleted.body, { status: 200, data: { id: user.id, deleted: true } });
    assertAdminError(await reader.get(`/users/${user.id}`), 404, 'not_found');

    const types = (await listAuditEvents(server().app.deps.db, { userId: user.id, limit: 50 })).filter((e) => (e.detail as any).actor === 'admin_api');
    assert.deepEqual(types.map((e) => e.type).reverse(), ['signup', 'username.changed', 'account.disabled', 'account.enabled', 'account.deleted']);
    assert.ok(types.every((e) => (e.detail as any).actor_id === writeKeyId));
  });

  it('grants and takes the admin role, audited with the key that did it', async () => {
    const made = await writer.post('/users', { email: uniqueEmail('role'), password: PASSWORD, email_verified: true });
    const id = made.body.data.id;
    assert.equal(made.body.data.is_admin, false);
    const granted = await writer.patch(`/users/${id}`, { is_admin: true });
    assert.equal(granted.status, 200, JSON.stringify(granted.body));
    assert.equal(granted.body.data.is_admin, true);
    assert.equal((await reader.get(`/users?admin=true&id=${id}`)).body.data.length, 1);
    assertAdminError(await reader.patch(`/users/${id}`, { is_admin: false }), 403, 'insufficient_scope');
    assert.equal((await writer.patch(`/users/${id}`, { is_admin: false })).body.data.is_admin, false);
    const events = await listAuditEvents(server().app.deps.db, { userId: id, types: ['admin.granted', 'admin.revoked'], limit: 5 });
    assert.deepEqual(events.map((e) => [e.type, (e.detail as any).actor, (e.detail as any).actor_id]), [
      ['admin.revoked', 'admin_api', writeKeyId],
      ['admin.granted', 'admin_api', writeKeyId],
    ]);
  });

  it('creates users without a password or with an unverified address, and refuses what signup refuses', async () => {
    const email = uniqueEmail('nopw');
    const made = await writer.post('/users', { email });
    assert.equal(made.status, 201);
    assert.equal(made.body.data.has_usable_password, false);
    assert.equal(made.body.data.email_verified, false);
    assertAdminError(await writer.post('/users', { email: email.toUpperCase() }), 400, 'email_taken', 'email');
    assertAdminError(await writer.post('/users', {}), 400, 'required', 'email');
    assertAdminError(await writer.post('/users', { email: 'not-an-address' }), 400, 'invalid', 'email');
    assertAdminError(await writer.post('/users', { email: uniqueEmail(), password: 'short' }), 400, 'password_too_short', 'password');
    assertAdminError(await writer.post('/users', { email: uniqueEmail(), role: 'admin' }), 400, 'invalid', 'role');
    assertAdminError(await writer.post('/users', { email: 42 }), 400, 'invalid', 'email');
    assertAdminError(await writer.request('POST', '/admin/v1/users', '{"email":', {}), 400, 'invalid_json');
    assertAdminError(await writer.get('/users?cursor=bogus'), 400, 'invalid', 'cursor');
    assertAdminError(await writer.get('/users?limit=lots'), 400, 'invalid', 'limit');
    assertAdminError(await writer.get('/users?phone=12'), 400, 'invalid', 'phone');
    assertAdminError(await writer.get('/users/abc'), 400, 'invalid', 'id');
    assertAdminError(await writer.get('/nothing-here'), 404, 'not_found');
  });

  it('sets a password (sessions end) and mails a reset link that works', async () => {
    const email = uniqueEmail('pw');
    const user = (await writer.post('/users', { email, password: PASSWORD, email_verified: true })).body.data;
    const token = (await login(server(), email)).body.meta.session_token;
    assertAdminError(await writer.post(`/users/${user.id}/password`, { password: 'short' }), 400, 'password_too_short', 'password');
    const set = await writer.post(`/users/${user.id}/password`, { password: 'a brand new passphrase' });
    assert.deepEqual(set.body.data, { id: user.id, sessions_ended: 1 });
    assert.equal((await server().client('app').get('/auth/session', { 'x-session-token': token })).status, 410);
    assert.equal((await login(server(), email, 'a brand new passphrase')).status, 200);

    const sent = await writer.post(`/users/${user.id}/password-reset`);
    assert.deepEqual(sent.body.data, { id: user.id, email });
    const mail = await nthMail(server().mail, email, 1);
    const link = /\/password\/reset\/key\/([^\s]+)/.exec(mail.text);
    assert.ok(link, mail.text);
    const reset = await server().client('app').post('/auth/password/reset', { key: decodeURIComponent(link[1]!), password: 'reset by the admin link' });
    assert.ok(reset.status === 200 || reset.status === 401, JSON.stringify(reset.body));
    assert.equal((await login(server(), email, 'reset by the admin link')).status, 200);

    const noAddress = (await writer.post('/users', { username: uniqueUsername('noaddr') })).body.data;
    assertAdminError(await writer.post(`/users/${noAddress.id}/password-reset`), 409, 'no_email_address');
  });

  it('manages addresses and the phone number', async () => {
    const email = uniqueEmail('addr');
    const user = (await writer.post('/users', { email, email_verified: true })).body.data;
    const second = uniqueEmail('second');
    const added = await writer.post(`/users/${user.id}/email-addresses`, { email: second });
    assert.equal(added.status, 201);
    assert.deepEqual(added.body.data, { email: second, verified: false, primary: false });
    assertAdminError(await writer.post(`/users/${user.id}/email-addresses`, { email: second }), 400, 'duplicate_email', 'email');
    const changed = await writer.patch(`/users/${user.id}/email-addresses/${encodeURIComponent(second)}`, { verified: true, primary: true });
    assert.deepEqual(changed.body.data, { email: second, verified: true, primary: true });
    assertAdminError(await writer.delete(`/users/${user.id}/email-addresses/${encodeURIComponent(second)}`), 400, 'cannot_remove_primary_email');
    assert.equal((await writer.delete(`/users/${user.id}/email-addresses/${encodeURIComponent(email)}`)).status, 200);
    assertAdminError(await writer.delete(`/users/${user.id}/email-addresses/${encodeURIComponent(email)}`), 404, 'not_found');
    assert.deepEqual((await reader.get(`/users/${user.id}/email-addresses`)).body.data, [{ email: second, verified: true, primary: true }]);

    assert.equal((await reader.get(`/users/${user.id}/phone`)).body.data, null);
    assertAdminError(await writer.put(`/users/${user.id}/phone`, { phone: '+1 555' }), 400, 'invalid', 'phone');
    const phone = await writer.put(`/users/${user.id}/phone`, { phone: '+1 415 555 2671', verified: true });
    assert.deepEqual(phone.body.data, { phone: '+14155552671', verified: true });
    assert.equal((await reader.get(`/users?phone=%2B14155552671`)).body.data[0].id, user.id);
    const other = (await writer.post('/users', { email: uniqueEmail('other') })).body.data;
    assertAdminError(await writer.put(`/users/${other.id}/phone`, { phone: '+14155552671' }), 400, 'phone_taken', 'phone');
    assert.equal((await writer.delete(`/users/${user.id}/phone`)).status, 200);
    assertAdminError(await writer.delete(`/users/${user.id}/phone`), 404, 'not_found');
    const events = await listAuditEvents(server().app.deps.db, { userId: user.id, limit: 50 });
    assert.deepEqual(
      events.map((e) => e.type).reverse(),
      ['signup', 'email.added', 'email.verified', 'email.primary_changed', 'email.removed', 'phone.changed', 'phone.verified', 'phone.removed'],
    );
  });

  it("lists and revokes a user's sessions, one or all", async () => {
    const email = uniqueEmail('sess');
    const user = (await writer.post('/users', { email, password: PASSWORD, email_verified: true })).body.data;
    const tokens = [];
    for (let i = 0; i < 3; i++) tokens.push((await login(server(), email)).body.meta.session_token);
    const listed = await reader.get(`/users/${user.id}/sessions`);
    assert.equal(listed.body.data.length, 3);
    assert.ok(listed.body.data.every((s: any) => typeof s.user_agent === 'string' && s.last_seen_at));
    const first = listed.body.data[0].id;
    assert.deepEqual((await writer.delete(`/users/${user.id}/sessions/${first}`)).body.data, { sessions_ended: 1 });
    assertAdminError(await writer.delete(`/users/${user.id}/sessions/${first}`), 404, 'not_found', 'session');
    assert.equal((await server().client('app').get('/auth/session', { 'x-session-token': tokens[0]! })).status, 410);
    assert.equal((await server().client('app').get('/auth/session', { 'x-session-token': tokens[1]! })).status, 200);
    assert.deepEqual((await writer.delete(`/users/${user.id}/sessions`)).body.data, { sessions_ended: 2 });
    assert.equal((await server().client('app').get('/auth/session', { 'x-session-token': tokens[2]! })).status, 410);
  });

  it('queries the audit trail by user, type and time, newest first, a page at a time', async () => {
    const user = (await writer.post('/users', { email: uniqueEmail('audit') })).body.data;
    await writer.patch(`/users/${user.id}`, { is_active: false });
    await writer.patch(`/users/${user.id}`, { is_active: true });
    const all = await reader.get(`/audit-events?user_id=${user.id}`);
    assert.deepEqual(all.body.data.map((e: any) => e.type), ['account.enabled', 'account.disabled', 'signup']);
    assert.equal(all.body.data[0].detail.actor, 'admin_api');
    const page = await reader.get(`/audit-events?user_id=${user.id}&limit=2`);
    assert.equal(page.body.data.length, 2);
    const rest = await reader.get(`/audit-events?user_id=${user.id}&limit=2&cursor=${page.body.meta.next_cursor}`);
    assert.deepEqual(rest.body.data.map((e: any) => e.type), ['signup']);
    const typed = await reader.get(`/audit-events?user_id=${user.id}&type=account.disabled,signup`);
    assert.deepEqual(typed.body.data.map((e: any) => e.type), ['account.disabled', 'signup']);
    const future = new Date(server().clock.now() + 3_600_000).toISOString();
    assert.deepEqual((await reader.get(`/audit-events?user_id=${user.id}&since=${future}`)).body.data, []);
    assert.equal((await reader.get(`/audit-events?user_id=${user.id}&until=${future}`)).body.data.length, 3);
    assertAdminError(await reader.get('/audit-events?type=nope'), 400, 'invalid', 'type');
    assertAdminError(await reader.get('/audit-events?since=yesterday'), 400, 'invalid', 'since');
  });

  it('takes the Bearer scheme in any case', async () => {
    for (const scheme of ['bearer', 'BEARER', 'Bearer', 'bEaReR']) {
      const response = await new AdminClient(base, undefined).request('GET', '/admin/v1/users?limit=1', undefined, { authorization: `${scheme} ${reader.key}` });
      assert.equal(response.status, 200, `${scheme}: ${JSON.stringify(response.body)}`);
    }
  });

  it('refuses unknown body fields and query parameters, naming each', async () => {
    const user = (await writer.post('/users', { email: uniqueEmail('unknown') })).body.data;
    assertAdminError(await writer.patch(`/users/${user.id}`, { is_superuser: true }), 400, 'invalid', 'is_superuser');
    assertAdminError(await writer.post(`/users/${user.id}/password-reset`, { email: 'someone@example.com' }), 400, 'invalid', 'email');
    assertAdminError(await reader.get('/users?activ=false'), 400, 'invalid', 'activ');
    assertAdminError(await reader.get(`/users/${user.id}?expand=all`), 400, 'invalid', 'expand');
    assertAdminError(await reader.get('/audit-events?user=1'), 400, 'invalid', 'user');
    const both = await writer.request('PATCH', `/admin/v1/users/${user.id}?dry_run=1`, { is_active: false, note: 'x' });
    assert.equal(both.status, 400);
    assert.deepEqual(both.body.errors.map((e: any) => [e.code, e.param]), [['invalid', 'dry_run'], ['invalid', 'note']]);
    assert.equal((await reader.get(`/users/${user.id}`)).body.data.is_active, true, 'nothing changed');
  });

  it('refuses a limit outside 1 to 1000, as it refuses -1', async () => {
    for (const path of ['/users', '/audit-events', '/webhook-deliveries']) {
      for (const limit of ['-1', '0', '1001', '5000', '9999']) assertAdminError(await reader.get(`${path}?limit=${limit}`), 400, 'invalid', 'limit');
      for (const limit of ['1', '1000']) assert.equal((await reader.get(`${path}?limit=${limit}`)).status, 200, `${path}?limit=${limit}`);
    }
  });

  it('answers a method a known path does not take with 405 and Allow', async () => {
    const user = (await writer.post('/users', { email: uniqueEmail('method') })).body.data;
    const put = await writer.put(`/users/${user.id}`, { is_active: false });
    assertAdminError(put, 405, 'method_not_allowed');
    assert.deepEqual(put.headers.get('allow')!.split(', ').sort(), ['DELETE', 'GET', 'HEAD', 'PATCH']);
    const deleteAll = await writer.delete('/users');
    assertAdminError(deleteAll, 405, 'method_not_allowed');
    assert.deepEqual(deleteAll.headers.get('allow')!.split(', ').sort(), ['GET', 'HEAD', 'POST']);
    assertAdminError(await writer.get(`/users/${user.id}/password`), 405, 'method_not_allowed');
    assertAdminError(await writer.put(`/users/${user.id}/nothing`), 404, 'not_found');
  });

  it('lists the declared profile fields with their rules to a read key, and takes no change there', async () => {
    const fields = await reader.get('/profile-fields');
    assert.equal(fields.status, 200, JSON.stringify(fields.body));
    assert.deepEqual(fields.body.data, [
      { name: 'company', type: 'string', required: false, min_length: 2, max_length: 40, title: 'Company' },
      { name: 'seats', type: 'integer', required: false, enum: [1, 10, 500], minimum: 1, maximum: 500 },
    ]);
    assertAdminError(await reader.get('/profile-fields?name=company'), 400, 'invalid', 'name');
    const post = await writer.post('/profile-fields', {});
    assert.equal(post.status, 405);
  });

  it('serves its own OpenAPI document and page, without the console routes', async () => {
    const doc = await (await fetch(`${base}/admin/openapi.json`)).json();
    assert.ok(doc.paths['/admin/v1/users']);
    assert.ok(doc.paths['/admin/v1/profile-fields'].get);
    assert.ok(doc.paths['/admin/v1/users/{id}/sessions']);
    assert.ok(doc.paths['/admin/v1/webhook-deliveries/requeue']);
    assert.ok(!Object.keys(doc.paths).some((p) => p.startsWith('/console') || p.startsWith('/_service')), Object.keys(doc.paths).join(' '));
    const page = await fetch(`${base}/admin/openapi.html`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /swagger-ui-bundle\.js/);
    const bundle = await fetch(`${base}/admin/openapi/static/swagger-ui-bundle.js`);
    assert.equal(bundle.status, 200);
    await bundle.arrayBuffer();
  });
});
