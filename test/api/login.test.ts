import { it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../support/server.js';

describeEachDatabase('signup and login', {}, ({ server }) => {
  it('signs up and logs in with email (app client)', async () => {
    const app = server().client('app');
    const signup = await app.post('/auth/signup', { email: 'alice@example.com', password: 'a long secret phrase' });
    assert.equal(signup.status, 200);
    assert.equal(signup.body.meta.is_authenticated, true);
    assert.equal(signup.body.data.user.email, 'alice@example.com');
    assert.ok(signup.body.meta.session_token);

    const other = server().client('app');
    const bad = await other.post('/auth/login', { email: 'alice@example.com', password: 'wrong password here' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.errors[0].code, 'email_password_mismatch');
    assert.equal(bad.body.errors[0].param, 'password');

    const good = await other.post('/auth/login', { email: 'ALICE@example.com', password: 'a long secret phrase' });
    assert.equal(good.status, 200);
    const me = await other.get('/auth/session');
    assert.equal(me.status, 200);
    assert.equal(me.body.data.user.email, 'alice@example.com');
  });
});
