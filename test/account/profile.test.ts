import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../support/server.js';
import { PASSWORD, assertError, readyClient, uniqueEmail } from '../support/accounts.js';
import { AdminClient, adminUrl, assertAdminError, newKey } from '../admin/support.js';
import { listAuditEvents } from '../../src/store/audit-events.js';
import type { ApiClient } from '../support/client.js';

// Names and custom profile fields: taken at signup (first_name required by
// ACCOUNT_SIGNUP_FIELDS, last_name optional, the schema's fields), read and
// changed through the user's profile endpoint and the admin API, shown in
// the wire's user object where HEADLESS_USER_FIELDS asks, and searched by
// the admin API. One server per database, its admin listener included.

const SCHEMA = {
  type: 'object',
  properties: {
    company: { type: 'string', minLength: 2, maxLength: 20 },
    plan: { type: 'string', enum: ['free', 'pro'] },
    age: { type: 'integer', minimum: 13, maximum: 130 },
    newsletter: { type: 'boolean' },
    employee_id: { type: 'string', pattern: '^E[0-9]{4}$' },
  },
  required: ['company'],
};

const ENV = {
  ADMIN_PORT: '0',
  ACCOUNT_EMAIL_VERIFICATION: 'none',
  ACCOUNT_SIGNUP_FIELDS: 'email*,password1*,first_name*,last_name',
  ACCOUNT_PROFILE_SCHEMA: JSON.stringify(SCHEMA),
  HEADLESS_USER_FIELDS: 'first_name,last_name,company',
};

/** The first error's code and param of each error, in order. */
const errorsOf = (body: any) => body.errors.map((e: any) => [e.code, e.param]);

describeEachDatabase('names and profile fields', ENV, ({ server }) => {
  let admin: AdminClient;
  before(async () => {
    admin = new AdminClient(await adminUrl(server()), (await newKey(server(), 'write')).secret);
  });

  async function signedUp(fields: Record<string, unknown>): Promise<{ client: ApiClient; email: string; body: any }> {
    const client = await readyClient(server(), 'app');
    const email = uniqueEmail('profile');
    const response = await client.post('/auth/signup', { email, password: PASSWORD, first_name: 'Ada', company: 'Acme', ...fields });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    return { client, email, body: response.body };
  }

  it('signup refuses a missing required name or field, and bad values, each with its param', async () => {
    const client = await readyClient(server(), 'browser');
    const missing = await client.post('/auth/signup', { email: uniqueEmail(), password: PASSWORD });
    assert.equal(missing.status, 400);
    assert.deepEqual(errorsOf(missing.body), [['required', 'first_name'], ['required', 'company']]);
    const bad = await client.post('/auth/signup', { email: uniqueEmail(), password: PASSWORD, first_name: '  ', last_name: 'x'.repeat(151), company: 'Acme', plan: 'gold', age: 7 });
    assert.equal(bad.status, 400);
    assert.deepEqual(errorsOf(bad.body).sort(), [['invalid_choice', 'plan'], ['max_length', 'last_name'], ['min_value', 'age'], ['required', 'first_name']].sort());
    for (const e of bad.body.errors) assert.equal(typeof e.message, 'string');
  });

  it('signup keeps the names and fields; the user object shows those HEADLESS_USER_FIELDS lists, display stays the reference\'s', async () => {
    const { client, email, body } = await signedUp({ first_name: ' Ada ', plan: 'pro', newsletter: true });
    // last_name is optional: blank.
    assert.deepEqual(body.data.user, { id: body.data.user.id, display: email, email, has_usable_password: true, first_name: 'Ada', last_name: '', company: 'Acme' });
    const session = await client.get('/auth/session');
    assert.deepEqual(session.body.data.user, body.data.user);
    const profile = await client.get('/account/profile');
    assert.equal(profile.status, 200);
    assert.deepEqual(profile.body, { status: 200, data: { first_name: 'Ada', last_name: '', company: 'Acme', plan: 'pro', newsletter: true } });
  });

  it('the profile endpoint changes names and fields, refuses bad values with their param, and nothing else of the account', async () => {
    const { client, body } = await signedUp({});
    const userId = body.data.user.id;
    const refused: Array<[Record<string, unknown>, string, string]> = [
      [{ age: 12 }, 'min_value', 'age'],
      [{ age: 131 }, 'max_value', 'age'],
      [{ age: 20.5 }, 'invalid', 'age'],
      [{ age: '30' }, 'invalid', 'age'],
      [{ newsletter: 'yes' }, 'invalid', 'newsletter'],
      [{ employee_id: 'X1' }, 'invalid', 'employee_id'],
      [{ company: 'A' }, 'min_length', 'company'],
      [{ company: 'A'.repeat(21) }, 'max_length', 'company'],
      [{ company: null }, 'required', 'company'],
      [{ company: '' }, 'required', 'company'],
      [{ plan: 'gold' }, 'invalid_choice', 'plan'],
      [{ first_name: '' }, 'required', 'first_name'],
      [{ first_name: 7 }, 'invalid', 'first_name'],
      [{ last_name: 'x'.repeat(151) }, 'max_length', 'last_name'],
      // What the profile cannot reach: the account's own fields.
      [{ is_admin: true }, 'invalid', 'is_admin'],
      [{ is_admin: null }, 'invalid', 'is_admin'],
      [{ first_name: 'Ada', is_staff: true }, 'invalid', 'is_staff'],
      [{ is_active: false }, 'invalid', 'is_active'],
      [{ email: 'other@example.com' }, 'invalid', 'email'],
      [{ username: 'someone' }, 'invalid', 'username'],
      [{ email_verified: true }, 'invalid', 'email_verified'],
    ];
    for (const [change, code, param] of refused) assertError(await client.patch('/account/profile', change), 400, code, param);
    const row = await server().app.deps.db.selectFrom('users').select(['is_admin', 'is_active', 'first_name', 'profile']).where('id', '=', userId).executeTakeFirstOrThrow();
    assert.deepEqual(row, { is_admin: 0, is_active: 1, first_name: 'Ada', profile: '{"company":"Acme"}' });

    const changed = await client.patch('/account/profile', { last_name: 'Lovelace', age: 36, newsletter: false, employee_id: 'E1815', plan: 'free' });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.deepEqual(changed.body.data, { first_name: 'Ada', last_name: 'Lovelace', company: 'Acme', plan: 'free', age: 36, newsletter: false, employee_id: 'E1815' });
    // Clearing an optional field; leaving the others as they are.
    const cleared = await client.patch('/account/profile', { plan: null, employee_id: '' });
    assert.deepEqual(cleared.body.data, { first_name: 'Ada', last_name: 'Lovelace', company: 'Acme', age: 36, newsletter: false });
    assert.equal((await client.get('/auth/session')).body.data.user.last_name, 'Lovelace');

    const events = await listAuditEvents(server().app.deps.db, { userId, types: ['profile.changed'], limit: 5 });
    assert.deepEqual(events.map((e) => (e.detail as any).fields), [['employee_id', 'plan'], ['last_name', 'age', 'employee_id', 'newsletter', 'plan']]);
    // The same values again change nothing, and record nothing.
    assert.equal((await client.patch('/account/profile', { last_name: 'Lovelace' })).status, 200);
    assert.equal((await listAuditEvents(server().app.deps.db, { userId, types: ['profile.changed'], limit: 5 })).length, 2);
  });

  it('is documented in the OpenAPI description as beyond the reference', async () => {
    const spec = (await (await fetch(`${server().baseUrl}/_service/openapi.json`)).json()) as any;
    for (const client of ['browser', 'app']) {
      const path = spec.paths[`/_service/${client}/v1/account/profile`];
      for (const method of ['get', 'patch']) assert.match(path?.[method]?.description ?? '', /Not part of the django-allauth API/, `${method} for ${client}`);
    }
  });

  it('answers 401 when not logged in', async () => {
    const client = await readyClient(server(), 'app');
    assert.equal((await client.get('/account/profile')).status, 401);
    assert.equal((await client.patch('/account/profile', { first_name: 'X' })).status, 401);
  });

  it('the admin API reads and changes names and fields, audited, under the same checks', async () => {
    const { client, body } = await signedUp({ last_name: 'Byron', age: 30 });
    const id = body.data.user.id;
    const shown = await admin.get(`/users/${id}`);
    assert.equal(shown.status, 200);
    assert.equal(shown.body.data.first_name, 'Ada');
    assert.equal(shown.body.data.last_name, 'Byron');
    assert.deepEqual(shown.body.data.profile, { company: 'Acme', age: 30 });

    assertAdminError(await admin.patch(`/users/${id}`, { profile: { plan: 'gold' } }), 400, 'invalid_choice', 'profile.plan');
    assertAdminError(await admin.patch(`/users/${id}`, { profile: { is_admin: true } }), 400, 'invalid', 'profile.is_admin');
    assertAdminError(await admin.patch(`/users/${id}`, { first_name: null }), 400, 'required', 'first_name');
    assertAdminError(await admin.patch(`/users/${id}`, { profile: { first_name: 'X' } }), 400, 'invalid', 'profile.first_name');

    const changed = await admin.patch(`/users/${id}`, { first_name: 'Augusta', profile: { company: 'Analytical', age: null } });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.equal(changed.body.data.first_name, 'Augusta');
    assert.deepEqual(changed.body.data.profile, { company: 'Analytical' });
    // The user sees it at once.
    assert.deepEqual((await client.get('/account/profile')).body.data, { first_name: 'Augusta', last_name: 'Byron', company: 'Analytical' });
    const [event] = await listAuditEvents(server().app.deps.db, { userId: id, types: ['profile.changed'], limit: 1 });
    assert.deepEqual(event!.detail, { fields: ['first_name', 'age', 'company'], actor: 'admin_api', actor_id: (event!.detail as any).actor_id });
    assert.equal(typeof (event!.detail as any).actor_id, 'number');
  });

  it('the admin API finds users by a profile field and by part of a name', async () => {
    const company = `Zed${Date.now() % 100000}`;
    const one = await signedUp({ company, first_name: 'Quintessa', age: 44, newsletter: true });
    const two = await signedUp({ company: company.toUpperCase(), newsletter: false });
    await signedUp({ company: `${company}x` });
    const ids = (response: any) => response.body.data.map((u: any) => u.id);

    const byCompany = await admin.get(`/users?profile_field=company&profile_value=${encodeURIComponent(company.toLowerCase())}`);
    assert.equal(byCompany.status, 200, JSON.stringify(byCompany.body));
    assert.deepEqual(ids(byCompany), [one.body.data.user.id, two.body.data.user.id]);
    const byAge = await admin.get('/users?profile_field=age&profile_value=44');
    assert.deepEqual(ids(byAge), [one.body.data.user.id]);
    const subscribed = await admin.get(`/users?profile_field=newsletter&profile_value=false&email=${encodeURIComponent(two.email)}`);
    assert.deepEqual(ids(subscribed), [two.body.data.user.id]);
    assert.deepEqual(ids(await admin.get('/users?q=quintess')), [one.body.data.user.id]);

    assertAdminError(await admin.get('/users?profile_field=age&profile_value=old'), 400, 'invalid', 'profile_value');
    assertAdminError(await admin.get('/users?profile_field=newsletter&profile_value=yes'), 400, 'invalid', 'profile_value');
    assertAdminError(await admin.get('/users?profile_field=is_admin&profile_value=true'), 400, 'invalid', 'profile_field');
    assertAdminError(await admin.get('/users?profile_field=company'), 400, 'required', 'profile_value');
  });
});
