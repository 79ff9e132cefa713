import { it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../support/server.js';
import { djangoPbkdf2, importUser } from '../support/imported-users.js';
import { PASSWORD, assertError, uniqueEmail } from '../support/accounts.js';

// Issue 13 item 13: a password of only spaces was accepted, the site's name
// was not refused, and passwords were not Unicode-normalised, so the NFD form
// of a password (a decomposed accent, as some systems type it) failed to log in.

const COMPOSED = 'Crème brûlée à minuit'.normalize('NFC');
const DECOMPOSED = COMPOSED.normalize('NFD');
// Full-width letters and a ligature: NFKC makes them the plain text.
const COMPATIBLE = 'ｆｉｎｅ ﬁgs and apricots';

describeEachDatabase('regression: password rules and Unicode normalisation (issue 13 item 13)', { ACCOUNT_EMAIL_VERIFICATION: 'none', SITE_NAME: 'Quokka Market' }, ({ server }) => {
  it('a password of only spaces is no password: 400 required, at signup and at change', async () => {
    assertError(await server().client('app').post('/auth/signup', { email: uniqueEmail(), password: ' '.repeat(12) }), 400, 'required', 'password');
    assertError(await server().client('app').post('/auth/signup', { email: uniqueEmail(), password: '\u3000'.repeat(9) }), 400, 'required', 'password');
    const client = server().client('app');
    assert.equal((await client.post('/auth/signup', { email: uniqueEmail(), password: PASSWORD })).status, 200);
    assertError(await client.post('/account/password/change', { current_password: PASSWORD, new_password: ' '.repeat(10) }), 400, 'required', 'new_password');
  });

  it("the site's name, and passwords made from it, are refused as too common", async () => {
    for (const password of ['Quokka Market', 'quokkamarket', 'QuokkaMarket2024!']) {
      assertError(await server().client('app').post('/auth/signup', { email: uniqueEmail(), password }), 400, 'password_too_common', 'password');
    }
  });

  it('a password set in one Unicode form logs in with the other forms of the same text', async () => {
    const email = uniqueEmail('nfc');
    assert.equal((await server().client('app').post('/auth/signup', { email, password: COMPOSED })).status, 200);
    for (const password of [COMPOSED, DECOMPOSED]) {
      assert.equal((await server().client('app').post('/auth/login', { email, password })).status, 200, JSON.stringify(password));
    }
    const other = uniqueEmail('nfkc');
    assert.equal((await server().client('app').post('/auth/signup', { email: other, password: COMPATIBLE })).status, 200);
    assert.equal((await server().client('app').post('/auth/login', { email: other, password: COMPATIBLE.normalize('NFKC') })).status, 200);
    assertError(await server().client('app').post('/auth/login', { email, password: 'Creme brulee a minuit' }), 400, 'email_password_mismatch', 'password');
  });

  it('an imported Django hash of decomposed text verifies that text, and after the re-hash either form', async () => {
    const email = uniqueEmail('imported');
    const userId = await importUser(server(), email, djangoPbkdf2(DECOMPOSED));
    assertError(await server().client('app').post('/auth/login', { email, password: 'something else entirely' }), 400, 'email_password_mismatch', 'password');
    assert.equal((await server().client('app').post('/auth/login', { email, password: DECOMPOSED })).status, 200);
    const row = await server().app.deps.db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirstOrThrow();
    assert.match(row.password_hash ?? '', /^\$argon2id\$/);
    assert.equal((await server().client('app').post('/auth/login', { email, password: COMPOSED })).status, 200);
  });
});
