import { it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../support/server.js';
import { PASSWORD, assertError, rawRequest, readyClient, uniqueEmail, uniqueUsername } from '../support/accounts.js';

// Issue 13 item 5: a NUL byte in `username` (signup or login) answered 500 on
// PostgreSQL, which refuses it in text. Control characters are refused in
// every text input, in one place, before any flow or store sees them.

const ENV = {
  ACCOUNT_EMAIL_VERIFICATION: 'none',
  ACCOUNT_LOGIN_METHODS: 'email,username',
  ACCOUNT_SIGNUP_FIELDS: 'email*,username*,password1*',
};

// C0 controls, DEL and the C1 range (NEL, the 8-bit CSI).
const CONTROLS = ['\u0000', '\u0007', '\n', '\t', '\u001b', '\u007f', '\u0085', '\u009b'];

describeEachDatabase('regression: control characters are refused with 400, never 500 (issue 13 item 5)', ENV, ({ server }) => {
  it('a NUL byte in username: signup and login answer 400 invalid with param username, and nothing is written', async () => {
    const email = uniqueEmail('nul');
    const username = uniqueUsername('nul');
    const app = server().client('app');
    assertError(await app.post('/auth/signup', { email, username: `${username}\u0000`, password: PASSWORD }), 400, 'invalid', 'username');
    assertError(await app.post('/auth/login', { username: `${username}\u0000`, password: PASSWORD }), 400, 'invalid', 'username');
    // The refused signup left no account behind: the same address signs up cleanly.
    assert.equal((await app.post('/auth/signup', { email, username, password: PASSWORD })).status, 200);
  });

  it('each control character, in each field of each route with a JSON body, is refused with its param', async () => {
    const spec = (await (await fetch(`${server().baseUrl}/_service/openapi.json`)).json()) as any;
    let checked = 0;
    for (const [path, operations] of Object.entries<any>(spec.paths)) {
      if (!path.startsWith('/_service/app/v1/')) continue;
      for (const [method, operation] of Object.entries<any>(operations)) {
        const properties = operation.requestBody?.content?.['application/json']?.schema?.properties ?? {};
        const texts = Object.keys(properties).filter((name) => properties[name].type === 'string');
        for (const field of texts) {
          for (const control of CONTROLS) {
            // Every other text field plausible, so only the one at fault can be refused.
            const body = Object.fromEntries(texts.map((name) => [name, name === field ? `a${control}b@example.com` : 'plain@example.com']));
            const response = await rawRequest(server(), 'app', method.toUpperCase(), path.slice('/_service/app/v1'.length), {
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify(body),
            });
            assertError(response, 400, 'invalid', field);
            checked++;
          }
        }
      }
    }
    assert.ok(checked > 100, `only ${checked} fields checked`);
  });

  it('nested values and bodies that are not objects are checked too', async () => {
    const nested = await rawRequest(server(), 'app', 'POST', '/auth/login', {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: ['x\u0000'], password: PASSWORD }),
    });
    assertError(nested, 400, 'invalid', 'email');
    const array = await rawRequest(server(), 'app', 'POST', '/auth/login', { headers: { 'content-type': 'application/json' }, body: '["\\u0000"]' });
    assertError(array, 400, 'invalid');
  });

  it('the browser client and declared headers are covered by the same check', async () => {
    const browser = await readyClient(server(), 'browser');
    assertError(await browser.post('/auth/login', { email: uniqueEmail(), password: `${PASSWORD}\u0000` }), 400, 'invalid', 'password');
    const header = await rawRequest(server(), 'app', 'GET', '/auth/email/verify', { headers: { 'x-email-verification-key': 'abc\tdef' } });
    assertError(header, 400, 'invalid', 'email_verification_key');
  });

  it('ordinary text outside ASCII passes', async () => {
    const app = server().client('app');
    const response = await app.post('/auth/signup', { email: uniqueEmail('utf'), username: `jürgen_${uniqueUsername('ü')}`, password: 'pässwört mit leerzeichen' });
    assert.equal(response.status, 200, JSON.stringify(response.body));
  });
});
