import { it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../support/server.js';
import { PASSWORD, assertError, rawRequest, readyClient, type RawResponse } from '../support/accounts.js';

const LIMIT = 2048;

function assertJson(response: RawResponse): void {
  assert.match(response.headers.get('content-type') ?? '', /^application\/json/, `not JSON (${response.status}): ${response.text.slice(0, 200)}`);
  assert.notEqual(response.json, undefined, response.text.slice(0, 200));
  assert.equal(response.json.status, response.status);
}

describeEachDatabase('envelope', { ACCOUNT_EMAIL_VERIFICATION: 'none', REQUEST_BODY_LIMIT: String(LIMIT) }, ({ server }) => {
  for (const kind of ['app', 'browser'] as const) {
    it(`unknown paths answer 404 JSON (${kind})`, async () => {
      for (const path of ['/no/such/thing', '/auth', '/auth/session/extra']) {
        const response = await rawRequest(server(), kind, 'GET', path);
        assertJson(response);
        assertError(response, 404, 'not_found');
      }
    });

    it(`a wrong method answers 405 JSON with Allow (${kind})`, async () => {
      const put = await rawRequest(server(), kind, 'PUT', '/auth/login', { headers: { 'content-type': 'application/json' }, body: '{}' });
      assertJson(put);
      assert.equal(put.status, 405);
      assert.equal(put.json.errors[0].code, 'method_not_allowed');
      assert.match(put.headers.get('allow') ?? '', /\bPOST\b/);

      const post = await rawRequest(server(), kind, 'PATCH', '/auth/session');
      assert.equal(post.status, 405);
      const allow = (post.headers.get('allow') ?? '').split(/,\s*/);
      assert.ok(allow.includes('GET') && allow.includes('DELETE'), allow.join());

      const config = await rawRequest(server(), kind, 'POST', '/config', { headers: { 'content-type': 'application/json' }, body: '{}' });
      assert.equal(config.status, 405);
      assert.match(config.headers.get('allow') ?? '', /\bGET\b/);
    });
  }

  it('a malformed URL answers 400 in the envelope, not the framework default', async () => {
    for (const kind of ['app', 'browser'] as const) {
      const response = await rawRequest(server(), kind, 'GET', '/auth/%E0%A4%A');
      assertJson(response);
      assertError(response, 400, 'bad_request');
    }
  });

  it('the query string does not hide a route from the 405 check', async () => {
    const response = await rawRequest(server(), 'app', 'PUT', '/auth/login?next=/', { headers: { 'content-type': 'application/json' }, body: '{}' });
    assert.equal(response.status, 405);
  });

  it('malformed JSON answers 400 invalid_json', async () => {
    for (const body of ['{"email": ', 'not json', '{"a":1}}']) {
      const response = await rawRequest(server(), 'app', 'POST', '/auth/login', { headers: { 'content-type': 'application/json' }, body });
      assertJson(response);
      assertError(response, 400, 'invalid_json');
    }
  });

  it('malformed JSON from a browser is also JSON (after the CSRF check)', async () => {
    const browser = await readyClient(server(), 'browser');
    const token = browser.cookies.get('csrftoken')!;
    const response = await rawRequest(server(), 'browser', 'POST', '/auth/login', {
      headers: { 'content-type': 'application/json', cookie: browser.cookieHeader, 'x-csrftoken': token },
      body: '{oops',
    });
    assertError(response, 400, 'invalid_json');
  });

  it('a non-JSON content type answers 415', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const response = await rawRequest(server(), 'app', 'POST', '/auth/login', { headers: { 'content-type': type }, body: 'email=a@example.com&password=x' });
      assertJson(response);
      assertError(response, 415, 'unsupported_media_type');
    }
  });

  it('a body over REQUEST_BODY_LIMIT answers 413 JSON', async () => {
    const body = JSON.stringify({ email: 'big@example.com', password: 'x'.repeat(LIMIT * 2) });
    const response = await rawRequest(server(), 'app', 'POST', '/auth/login', { headers: { 'content-type': 'application/json' }, body });
    assertJson(response);
    assertError(response, 413, 'payload_too_large');
  });

  it('a wrong-typed field answers 400 invalid with its param', async () => {
    const app = server().client('app');
    assertError(await app.post('/auth/login', { email: 42, password: PASSWORD }), 400, 'invalid', 'email');
    assertError(await app.post('/auth/login', { email: 'a@example.com', password: ['x'] }), 400, 'invalid', 'password');
    assertError(await app.post('/auth/signup', { email: null, password: PASSWORD }), 400, 'invalid', 'email');
    assertError(await app.post('/auth/email/verify', { key: 123 }), 400, 'invalid', 'key');
  });

  it('a missing field answers 400 required with its param', async () => {
    const app = server().client('app');
    assertError(await app.post('/auth/login', { email: 'a@example.com' }), 400, 'required', 'password');
    assertError(await app.post('/auth/email/verify', {}), 400, 'required', 'key');
    assertError(await app.post('/auth/reauthenticate', {}), 400, 'required', 'password');
  });

  it('an empty password is a missing one: required, without spending a login attempt', async () => {
    const app = server().client('app');
    assertError(await app.post('/auth/login', { email: 'a@example.com', password: '' }), 400, 'required', 'password');
    assertError(await app.post('/auth/reauthenticate', { password: '' }), 400, 'required', 'password');
    assertError(await app.post('/account/password/change', { current_password: 'x', new_password: '' }), 400, 'required', 'new_password');
  });

  it('a body that is not an object, or no body at all, is a 400 in the envelope', async () => {
    for (const body of ['[]', '"text"', '42', 'null']) {
      const response = await rawRequest(server(), 'app', 'POST', '/auth/login', { headers: { 'content-type': 'application/json' }, body });
      assertJson(response);
      assert.equal(response.status, 400, body);
      assert.ok(['invalid', 'invalid_json', 'required'].includes(response.json.errors[0].code), body);
    }
    const none = await rawRequest(server(), 'app', 'POST', '/auth/login');
    assertJson(none);
    assert.equal(none.status, 400);
  });

  it('a bodiless POST is accepted where no body is needed', async () => {
    const response = await rawRequest(server(), 'app', 'POST', '/auth/email/verify/resend', { headers: { 'content-type': 'application/json' } });
    assertJson(response);
    assert.equal(response.status, 409);
  });

  it('responses are not cached', async () => {
    const response = await rawRequest(server(), 'app', 'GET', '/auth/session');
    assert.match(response.headers.get('cache-control') ?? '', /no-store/);
  });

  it('nothing in the API answers HTML', async () => {
    const probes: Array<[string, string, Record<string, string>, string | undefined]> = [
      ['GET', '/', {}, undefined],
      ['GET', '/auth/session', { accept: 'text/html' }, undefined],
      ['POST', '/auth/login', { accept: 'text/html', 'content-type': 'application/json' }, '{bad'],
      ['DELETE', '/config', { accept: 'text/html' }, undefined],
      ['GET', '/auth/email/verify', { accept: 'text/html' }, undefined],
      ['GET', '/auth/%E0%A4%A', { accept: 'text/html' }, undefined],
      ['POST', '/auth/login', { 'content-type': 'application/json', 'content-encoding': 'gzip' }, 'not gzip'],
      ['POST', '/auth/signup', { 'content-type': 'application/json' }, JSON.stringify({ email: 'x'.repeat(5000) })],
    ];
    for (const kind of ['app', 'browser'] as const) {
      for (const [method, path, headers, body] of probes) {
        const response = await rawRequest(server(), kind, method, path, { headers, body });
        assertJson(response);
        assert.doesNotMatch(response.text, /<html|<!doctype/i);
      }
    }
  });

  it('GET /config describes the enabled features', async () => {
    const response = await server().client('app').get('/config');
    assert.equal(response.status, 200);
    const account = response.body.data.account;
    assert.deepEqual(account.login_methods, ['email']);
    assert.equal(account.is_open_for_signup, true);
    assert.equal(account.email_verification_by_code_enabled, false);
    assert.equal(account.authentication_method, 'email');
  });
});
