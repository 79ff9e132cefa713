import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import { CompiledQuery, sql } from 'kysely';
import { describeEachDatabase } from '../support/server.js';
import { PASSWORD, assertError, nthMail, uniqueEmail } from '../support/accounts.js';
import { resetKeyFromMail } from '../account/helpers.js';
import { AdminClient, adminUrl, assertAdminError, newKey } from './support.js';
import { isPostgres } from '../../src/store/db.js';
import { listUserQuery, type UserQuery } from '../../src/store/users.js';

// The admin API's users list: its orders (newest first, by last login) with
// keyset pages either way, the verified filter, the total; and creating a
// user with names, or with an invitation that lets the person choose their
// own password through the public API's reset.

const ENV = { ADMIN_PORT: '0', ACCOUNT_EMAIL_VERIFICATION: 'optional' };

describeEachDatabase('admin API users list', ENV, ({ server }) => {
  let writer: AdminClient;
  let reader: AdminClient;
  before(async () => {
    const base = await adminUrl(server());
    writer = new AdminClient(base, (await newKey(server(), 'write')).secret);
    reader = new AdminClient(base, (await newKey(server(), 'read')).secret);
  });

  /** Users whose usernames start with a tag of their own, made a minute apart. */
  async function tagged(count: number, options: (i: number) => Record<string, unknown> = () => ({})): Promise<{ tag: string; ids: number[] }> {
    const tag = `t${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const ids: number[] = [];
    for (let i = 0; i < count; i++) {
      server().clock.advance(60_000);
      const made = await writer.post('/users', { username: `${tag}_${i}`, email: `${tag}_${i}@example.com`, ...options(i) });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      ids.push(made.body.data.id);
    }
    return { tag, ids };
  }

  /** Every page of a listing, following next_cursor; answers the ids in order and the pages' bodies. */
  async function everyPage(path: string): Promise<{ ids: number[]; pages: any[] }> {
    const ids: number[] = [];
    const pages: any[] = [];
    let cursor: string | null = null;
    do {
      const page = await reader.get(`${path}${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(page.status, 200, JSON.stringify(page.body));
      pages.push(page.body);
      ids.push(...page.body.data.map((u: any) => u.id));
      cursor = page.body.meta.next_cursor;
    } while (cursor);
    return { ids, pages };
  }

  it('lists newest first in pages of its size, forward and back, with the total', async () => {
    const { tag, ids } = await tagged(5);
    const newest = [...ids].reverse();
    const { ids: seen, pages } = await everyPage(`/users?q=${tag}&order=-created_at&limit=2&include_total=true`);
    assert.deepEqual(seen, newest);
    assert.deepEqual(pages.map((p) => p.data.length), [2, 2, 1]);
    assert.ok(pages.every((p) => p.meta.total === 5));
    assert.equal(pages[0].meta.prev_cursor, null);
    assert.equal(pages[2].meta.next_cursor, null);

    // Back from the last page: the pages before it, as they were.
    const second = await reader.get(`/users?q=${tag}&order=-created_at&limit=2&cursor=${pages[2].meta.prev_cursor}`);
    assert.deepEqual(second.body.data.map((u: any) => u.id), newest.slice(2, 4));
    assert.ok(second.body.meta.next_cursor);
    const first = await reader.get(`/users?q=${tag}&order=-created_at&limit=2&cursor=${second.body.meta.prev_cursor}`);
    assert.deepEqual(first.body.data.map((u: any) => u.id), newest.slice(0, 2));
    assert.equal(first.body.meta.prev_cursor, null, 'the first page has none before it');
    assert.equal(first.body.meta.total, undefined, 'no total unless asked');

    const oldest = await everyPage(`/users?q=${tag}&order=created_at&limit=3`);
    assert.deepEqual(oldest.ids, ids);
    const byId = await everyPage(`/users?q=${tag}&order=-id&limit=4`);
    assert.deepEqual(byId.ids, newest);
  });

  it('orders by the join date even where ids disagree (imported users), ties by id', async () => {
    const { tag, ids } = await tagged(4);
    // As an import writes them: the last user joined first, two on the same instant.
    const at = 1_600_000_000_000;
    const joined = [at + 2, at + 1, at + 1, at];
    for (const [i, id] of ids.entries()) await server().app.deps.db.updateTable('users').set({ created_at: joined[i]! }).where('id', '=', id).execute();
    const expected = [ids[3]!, ids[1]!, ids[2]!, ids[0]!];
    for (const limit of [1, 2, 3]) {
      assert.deepEqual((await everyPage(`/users?q=${tag}&order=created_at&limit=${limit}`)).ids, expected, `limit ${limit}`);
      assert.deepEqual((await everyPage(`/users?q=${tag}&order=-created_at&limit=${limit}`)).ids, [...expected].reverse(), `limit ${limit} descending`);
    }
  });

  it('orders by the last login, those who never logged in counting as longest ago', async () => {
    const { tag, ids } = await tagged(4);
    for (const i of [2, 0, 3]) {
      await writer.post(`/users/${ids[i]}/password`, { password: PASSWORD });
      server().clock.advance(60_000);
      const login = await server().client('app').post('/auth/login', { email: `${tag}_${i}@example.com`, password: PASSWORD });
      assert.equal(login.status, 200, JSON.stringify(login.body));
    }
    const recent = [ids[3]!, ids[0]!, ids[2]!, ids[1]!];
    assert.deepEqual((await everyPage(`/users?q=${tag}&order=-last_login_at&limit=3`)).ids, recent);
    assert.deepEqual((await everyPage(`/users?q=${tag}&order=last_login_at&limit=1`)).ids, [...recent].reverse());
  });

  it('filters by a verified address, and counts what each filter leaves', async () => {
    const { tag, ids } = await tagged(5, (i) => ({ email_verified: i % 2 === 0 }));
    await writer.patch(`/users/${ids[4]}`, { is_active: false });
    const list = async (filters: string) => {
      const page = await reader.get(`/users?q=${tag}&include_total=true&${filters}`);
      assert.equal(page.status, 200, JSON.stringify(page.body));
      assert.equal(page.body.meta.total, page.body.data.length);
      return page.body.data.map((u: any) => u.id);
    };
    assert.deepEqual(await list('verified=true'), [ids[0], ids[2], ids[4]]);
    assert.deepEqual(await list('verified=false'), [ids[1], ids[3]]);
    assert.deepEqual(await list('verified=true&active=true'), [ids[0], ids[2]]);
    assert.deepEqual(await list('verified=false&admin=true'), []);
    // The exact address filter, with the others.
    assert.deepEqual(await list(`email=${tag}_1@example.com`), [ids[1]]);
    assert.deepEqual(await list(`email=${tag}_1@example.com&verified=true`), []);
    assertAdminError(await reader.get('/users?verified=yes'), 400, 'invalid', 'verified');
  });

  it('refuses a cursor of another order, and still takes the id cursors it gave before', async () => {
    const { tag, ids } = await tagged(3);
    const page = await reader.get(`/users?q=${tag}&order=-created_at&limit=1`);
    assertAdminError(await reader.get(`/users?q=${tag}&order=created_at&cursor=${page.body.meta.next_cursor}`), 400, 'invalid', 'cursor');
    assertAdminError(await reader.get(`/users?q=${tag}&cursor=${page.body.meta.next_cursor}`), 400, 'invalid', 'cursor');
    assertAdminError(await reader.get('/users?order=email'), 400, 'invalid', 'order');
    const legacy = Buffer.from(`v1:${ids[0]}`).toString('base64url');
    assert.deepEqual((await reader.get(`/users?q=${tag}&cursor=${legacy}`)).body.data.map((u: any) => u.id), ids.slice(1));
  });

  it('pages every order on its index', async () => {
    const db = server().app.deps.db;
    const query = (order: UserQuery['order']): UserQuery => ({ order, limit: 50, position: { key: 1_700_000_000_000, id: 5, backward: false } });
    const expected = { created_at: 'users_created_order', '-created_at': 'users_created_order', last_login_at: 'users_last_login_order', '-last_login_at': 'users_last_login_order' } as const;
    for (const [order, index, part] of Object.entries(expected).flatMap(([o, i]) => [[o, i, 'ties'] as const, [o, i, 'beyond'] as const])) {
      const compiled = listUserQuery(db, query(order as UserQuery['order']), part);
      const explain = (conn: typeof db, prefix: string) => conn.executeQuery<Record<string, unknown>>(CompiledQuery.raw(`${prefix} ${compiled.sql}`, [...compiled.parameters]));
      let plan: string;
      if (isPostgres(db)) {
        // The test table is small enough for a scan and a sort to win; forbidding them shows that the index serves the order.
        plan = await db.transaction().execute(async (tx) => {
          for (const setting of ['enable_seqscan', 'enable_bitmapscan', 'enable_sort']) await sql`select set_config(${setting}, 'off', true)`.execute(tx);
          return (await explain(tx, 'explain')).rows.map((r) => String(Object.values(r)[0])).join('\n');
        });
        assert.doesNotMatch(plan, /Sort Key/, `${order} (${part}) sorts instead of reading the index:\n${plan}`);
      } else {
        plan = (await explain(db, 'explain query plan')).rows.map((r) => String(r.detail)).join('\n');
        assert.doesNotMatch(plan, /TEMP B-TREE/, `${order} (${part}) sorts instead of reading the index:\n${plan}`);
        // The ties seek on both columns of the index, not on the key alone.
        if (part === 'ties') assert.match(plan, /=\? AND id[<>]\?/, `${order} (${part}):\n${plan}`);
      }
      assert.match(plan, new RegExp(index), `${order} (${part}):\n${plan}`);
    }
  });
});

describeEachDatabase('admin API user creation', ENV, ({ server }) => {
  let writer: AdminClient;
  before(async () => {
    writer = new AdminClient(await adminUrl(server()), (await newKey(server(), 'write')).secret);
  });

  it('creates a user with names, who logs in with the password given', async () => {
    const email = uniqueEmail('named');
    const made = await writer.post('/users', { email, first_name: ' Ada ', last_name: 'Lovelace', password: 'a fine long passphrase' });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    assert.equal(made.body.data.first_name, 'Ada');
    assert.equal(made.body.data.last_name, 'Lovelace');
    assert.equal(made.body.meta, undefined);
    const login = await server().client('app').post('/auth/login', { email, password: 'a fine long passphrase' });
    assert.equal(login.status, 200, JSON.stringify(login.body));
    assertAdminError(await writer.post('/users', { email: uniqueEmail('long'), first_name: 'x'.repeat(151) }), 400, 'max_length', 'first_name');
  });

  it('invites: the mail is no reset request, and its link sets the password and verifies the address', async () => {
    const email = uniqueEmail('invited');
    const made = await writer.post('/users', { email, invite: true });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    assert.deepEqual(made.body.meta, { invitation: 'sent' });
    assert.equal(made.body.data.email_addresses[0].verified, false);

    const mail = await nthMail(server().mail, email, 1);
    assert.match(mail.subject, /account is ready/);
    assert.doesNotMatch(mail.text.replace(/https?:\S+/g, ''), /reset|asked/i, 'the words (the link is a reset link)');
    assert.match(mail.text, /72 hours/);
    assert.match(mail.html ?? '', /Choose your password/);
    const key = resetKeyFromMail(mail);
    const client = server().client('app');
    const reset = await client.post('/auth/password/reset', { key, password: 'my own chosen passphrase' });
    assert.equal(reset.status, 401, JSON.stringify(reset.body));
    const login = await server().client('app').post('/auth/login', { email, password: 'my own chosen passphrase' });
    assert.equal(login.status, 200, JSON.stringify(login.body));
    const shown = await writer.get(`/users/${made.body.data.id}`);
    assert.equal(shown.body.data.email_addresses[0].verified, true);
    // Used once: the link is spent.
    assertError(await client.post('/auth/password/reset', { key, password: 'yet another passphrase' }), 400, 'invalid_password_reset', 'key');

    const events = await writer.get(`/audit-events?user_id=${made.body.data.id}&type=account.invited`);
    assert.equal(events.body.data.length, 1, JSON.stringify(events.body));
    assert.equal(events.body.data[0].detail.actor, 'admin_api');
    assert.equal(events.body.data[0].detail.email, email);
  });

  it('sends an invitation again on its own', async () => {
    const email = uniqueEmail('again');
    const made = await writer.post('/users', { email });
    const sent = await writer.post(`/users/${made.body.data.id}/invitation`);
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    assert.deepEqual(sent.body.data, { id: made.body.data.id, email });
    assert.match((await nthMail(server().mail, email, 1)).subject, /account is ready/);
    const nameOnly = await writer.post('/users', { username: `n${Date.now().toString(36)}` });
    assertAdminError(await writer.post(`/users/${nameOnly.body.data.id}/invitation`), 409, 'no_email_address');
  });

  it('refuses an invitation with a password or without an address, and makes nobody', async () => {
    const email = uniqueEmail('refused');
    assertAdminError(await writer.post('/users', { email, invite: true, password: 'a fine long passphrase' }), 400, 'invalid', 'password');
    assertAdminError(await writer.post('/users', { username: `r${Date.now().toString(36)}`, invite: true }), 400, 'required', 'email');
    assert.deepEqual((await writer.get(`/users?email=${email}`)).body.data, []);
  });
});

describeEachDatabase('admin API invitations with reset by code', { ...ENV, ACCOUNT_PASSWORD_RESET_BY_CODE_ENABLED: 'true' }, ({ server }) => {
  it('refuses to invite: there is no link to send', async () => {
    const writer = new AdminClient(await adminUrl(server()), (await newKey(server(), 'write')).secret);
    const email = uniqueEmail('bycode');
    assertAdminError(await writer.post('/users', { email, invite: true }), 409, 'password_reset_by_code', 'invite');
    assert.deepEqual((await writer.get(`/users?email=${email}`)).body.data, []);
  });
});
