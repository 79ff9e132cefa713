import { it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../support/server.js';
import { PASSWORD, assertError, rawRequest, readyClient, signedUp, uniqueEmail } from '../support/accounts.js';

function csrfCookie(headers: Headers): string | undefined {
  const line = headers.getSetCookie().find((c) => c.startsWith('csrftoken='));
  return line?.split(';')[0]!.slice('csrftoken='.length);
}

describeEachDatabase('CSRF (browser client)', { ACCOUNT_EMAIL_VERIFICATION: 'none' }, ({ server }) => {
  it('a POST without X-CSRFToken is refused with 403 JSON csrf_failed', async () => {
    const browser = await readyClient(server(), 'browser');
    const response = await browser.post('/auth/login', { email: uniqueEmail(), password: PASSWORD }, { 'x-csrftoken': '' });
    assertError(response, 403, 'csrf_failed');

    const bare = await rawRequest(server(), 'browser', 'POST', '/auth/signup', {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: uniqueEmail(), password: PASSWORD }),
    });
    assert.match(bare.headers.get('content-type') ?? '', /^application\/json/);
    assertError(bare, 403, 'csrf_failed');
    assert.ok(csrfCookie(bare.headers), 'even the refusal hands out a token');
  });

  it('a token that does not match the cookie is refused; DELETE needs one too', async () => {
    const browser = await readyClient(server(), 'browser');
    assertError(await browser.post('/auth/signup', { email: uniqueEmail(), password: PASSWORD }, { 'x-csrftoken': 'forged.token' }), 403, 'csrf_failed');
    await signedUp(browser);
    assertError(await browser.delete('/auth/session', undefined, { 'x-csrftoken': '' }), 403, 'csrf_failed');
    assert.equal((await browser.get('/auth/session')).status, 200, 'the refused logout did nothing');
  });

  it('sets the csrftoken cookie on every browser response, GET /config included, readable by scripts', async () => {
    for (const path of ['/config', '/auth/session']) {
      const response = await rawRequest(server(), 'browser', 'GET', path);
      const line = response.headers.getSetCookie().find((c) => c.startsWith('csrftoken='));
      assert.ok(line, `${path} sets csrftoken`);
      assert.doesNotMatch(line, /HttpOnly/i);
    }
    const error = await rawRequest(server(), 'browser', 'POST', '/auth/login', { headers: { 'content-type': 'application/json' }, body: '{}' });
    assert.ok(csrfCookie(error.headers));
  });

  it('a token from one browser does not work with another browser session', async () => {
    const alice = await readyClient(server(), 'browser');
    await signedUp(alice);
    const mallory = await readyClient(server(), 'browser');
    await signedUp(mallory);
    const response = await alice.delete('/auth/session', undefined, { 'x-csrftoken': mallory.cookies.get('csrftoken')! });
    assertError(response, 403, 'csrf_failed');
  });

  it('regression: a cookie-less visitor\'s token is bound to that browser, not to one shared anonymous value (issue 22 item 8)', async () => {
    const mallory = await readyClient(server(), 'browser');
    const token = mallory.cookies.get('csrftoken')!;
    assert.ok(mallory.cookies.get('csrftoken_binding'), 'an anonymous visitor gets a binding cookie');
    // The victim's browser holds its own binding cookie (a first visit), or none at all.
    const victim = await readyClient(server(), 'browser');
    assertError(await victim.post('/auth/signup', { email: uniqueEmail(), password: PASSWORD }, { 'x-csrftoken': token }), 403, 'csrf_failed');
    const cookieless = await rawRequest(server(), 'browser', 'POST', '/auth/signup', {
      headers: { 'content-type': 'application/json', 'x-csrftoken': token },
      body: JSON.stringify({ email: uniqueEmail(), password: PASSWORD }),
    });
    assertError(cookieless, 403, 'csrf_failed');
    // The token still works in the browser it was issued to.
    assert.equal((await mallory.post('/auth/signup', { email: uniqueEmail(), password: PASSWORD })).status, 200);
  });

  it('the binding cookie is HttpOnly, so a script of the page cannot read it', async () => {
    const response = await rawRequest(server(), 'browser', 'GET', '/config');
    const line = response.headers.getSetCookie().find((c) => c.startsWith('csrftoken_binding='));
    assert.ok(line);
    assert.match(line, /HttpOnly/i);
  });

  it('login rotates the token: the old one is refused afterwards', async () => {
    const { email } = await signedUp(server().client('app'));
    const browser = await readyClient(server(), 'browser');
    const before = browser.cookies.get('csrftoken')!;
    assert.equal((await browser.post('/auth/login', { email, password: PASSWORD })).status, 200);
    const after = browser.cookies.get('csrftoken')!;
    assert.notEqual(after, before);
    assertError(await browser.post('/auth/reauthenticate', { password: PASSWORD }, { 'x-csrftoken': before }), 403, 'csrf_failed');
    assert.equal((await browser.post('/auth/reauthenticate', { password: PASSWORD })).status, 200);
  });

  it('logout rotates the token too', async () => {
    const browser = await readyClient(server(), 'browser');
    await signedUp(browser);
    const before = browser.cookies.get('csrftoken')!;
    assert.equal((await browser.delete('/auth/session')).status, 401);
    assert.notEqual(browser.cookies.get('csrftoken'), before);
  });

  it('the app client needs no CSRF token and ignores cookies', async () => {
    const app = server().client('app');
    const email = uniqueEmail();
    assert.equal((await app.post('/auth/signup', { email, password: PASSWORD }, { 'x-csrftoken': '' })).status, 200);

    const browser = await readyClient(server(), 'browser');
    await browser.post('/auth/login', { email, password: PASSWORD });
    const sessionid = browser.cookies.get('sessionid')!;
    assert.ok(sessionid);
    const withCookie = await rawRequest(server(), 'app', 'GET', '/auth/session', { headers: { cookie: `sessionid=${sessionid}` } });
    assert.equal(withCookie.status, 401, 'an app request is not authenticated by a cookie');
    assert.equal(withCookie.headers.getSetCookie().length, 0, 'app responses set no cookies');

    const logout = await rawRequest(server(), 'app', 'DELETE', '/auth/session', { headers: { cookie: `sessionid=${sessionid}` } });
    assert.equal(logout.status, 401);
    assert.equal((await browser.get('/auth/session')).status, 200, 'the cookie session survived an app logout');
  });
});
