import { it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../support/server.js';
import { PASSWORD, uniqueEmail } from '../support/accounts.js';

// Many requests at once, each with its own session: on PostgreSQL the
// lookups of one event-loop turn share one query (store/lookup-batcher.ts).
// Each request must still get its own session, and a session ended or
// expired among them must be gone for its request alone.

describeEachDatabase('concurrent session lookups', { ACCOUNT_EMAIL_VERIFICATION: 'none', SESSION_COOKIE_AGE: '3600' }, ({ server }) => {
  async function accounts(n: number): Promise<Array<{ token: string; email: string; id: number }>> {
    const made = [];
    for (let i = 0; i < n; i++) {
      const email = uniqueEmail('many');
      const signup = await server().client('app').post('/auth/signup', { email, password: PASSWORD });
      assert.equal(signup.status, 200);
      made.push({ token: signup.body.meta.session_token as string, email, id: signup.body.data.user.id as number });
    }
    return made;
  }

  const whoami = (token: string) => server().client('app').get('/auth/session', { 'X-Session-Token': token });

  it('answers each of many simultaneous requests with its own session', async () => {
    const made = await accounts(12);
    const answers = await Promise.all([...made, ...made].map((a) => whoami(a.token)));
    answers.forEach((answer, i) => {
      const account = made[i % made.length]!;
      assert.equal(answer.status, 200);
      assert.equal(answer.body.data.user.id, account.id);
      assert.equal(answer.body.data.user.email, account.email);
    });
  });

  it('a session ended, or expired, among them is gone for its own request only', async () => {
    const made = await accounts(6);
    const [ended, ...others] = made;
    await server().app.deps.db.deleteFrom('sessions').where('user_id', '=', ended!.id).execute();
    const answers = await Promise.all(made.map((a) => whoami(a.token)));
    assert.equal(answers[0]!.status, 410);
    answers.slice(1).forEach((answer, i) => assert.equal(answer.body.data.user.id, others[i]!.id));

    // An hour and a second later, every session of this suite has expired.
    server().clock.advance(3601 * 1000);
    const later = await Promise.all(others.map((a) => whoami(a.token)));
    for (const answer of later) assert.equal(answer.status, 410);
  });
});
