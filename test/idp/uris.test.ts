import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { originAllowed, redirectUriAllowed, uriProblem } from '../../src/idp/uris.js';

// The reference's redirect URI and origin rules (clientkit.py), pure logic.

describe('OpenID provider: redirect URI and origin matching', () => {
  it('matches scheme, host, path and port exactly; any port on loopback', () => {
    const allowed = ['https://app.example.com/cb', 'http://127.0.0.1/native'];
    assert.equal(redirectUriAllowed('https://app.example.com/cb', allowed, false), true);
    assert.equal(redirectUriAllowed('https://app.example.com/cb/', allowed, false), false);
    assert.equal(redirectUriAllowed('http://app.example.com/cb', allowed, false), false);
    assert.equal(redirectUriAllowed('https://app.example.com:8443/cb', allowed, false), false);
    assert.equal(redirectUriAllowed('https://evil.com/cb', allowed, false), false);
    assert.equal(redirectUriAllowed('http://127.0.0.1:53117/native', allowed, false), true);
    assert.equal(redirectUriAllowed('https://app.example.com/cb#x', allowed, false), false);
  });

  it('a registered query must be a subset of the given one', () => {
    const allowed = ['https://app.example.com/cb?tenant=a'];
    assert.equal(redirectUriAllowed('https://app.example.com/cb?tenant=a&x=1', allowed, false), true);
    assert.equal(redirectUriAllowed('https://app.example.com/cb?tenant=b', allowed, false), false);
  });

  it('a wildcard stands for one DNS label, only when the client allows wildcards', () => {
    const allowed = ['https://*.example.com/cb'];
    assert.equal(redirectUriAllowed('https://tenant1.example.com/cb', allowed, true), true);
    assert.equal(redirectUriAllowed('https://a.b.example.com/cb', allowed, true), false);
    assert.equal(redirectUriAllowed('https://example.com/cb', allowed, true), false);
    assert.equal(redirectUriAllowed('https://evilexample.com/cb', allowed, true), false);
    assert.equal(redirectUriAllowed('https://tenant1.example.com/cb', allowed, false), false);
    assert.equal(originAllowed('https://tenant1.example.com', ['https://*.example.com'], true), true);
    assert.equal(originAllowed('https://tenant1.example.com:444', ['https://*.example.com'], true), false);
  });

  it('refuses registered URIs the reference refuses', () => {
    assert.ok(uriProblem('https://*.example.com/cb', false));
    assert.ok(uriProblem('https://*.*.example.com/cb', true));
    assert.ok(uriProblem('https://example.com/*', true));
    assert.equal(uriProblem('https://*.example.com/cb', true), null);
    assert.equal(uriProblem('com.example.app:/callback', false), null);
  });

  // Issue 33, finding 4: `*example.com` matched evilexample.com, and `*` was accepted anywhere in the host.
  it('a wildcard is the whole leftmost label above a registrable domain, at registration and when matching', () => {
    for (const uri of ['https://*example.com/cb', 'https://*/cb', 'https://example.*/cb', 'https://a*.example.com/cb', 'https://*.com/cb', 'https://*.co.uk/cb', 'https://*.com.au/cb', 'https://*..example.com/cb']) {
      assert.ok(uriProblem(uri, true), `${uri} is refused`);
    }
    assert.equal(uriProblem('https://*.example.co.uk/cb', true), null);
    assert.equal(uriProblem('https://*.tenants.example.com/cb', true), null);
    // Stored before these rules (or imported from the reference): such a URI matches nothing.
    assert.equal(redirectUriAllowed('https://evilexample.com/cb', ['https://*example.com/cb'], true), false);
    assert.equal(redirectUriAllowed('https://example.com/cb', ['https://*example.com/cb'], true), false);
    assert.equal(redirectUriAllowed('https://evil.com/cb', ['https://*.com/cb'], true), false);
    assert.equal(redirectUriAllowed('https://evil.co.uk/cb', ['https://*.co.uk/cb'], true), false);
    assert.equal(redirectUriAllowed('https://example.evil/cb', ['https://example.*/cb'], true), false);
    assert.equal(originAllowed('https://evilexample.com', ['https://*example.com'], true), false);
    assert.equal(redirectUriAllowed('https://shop.example.co.uk/cb', ['https://*.example.co.uk/cb'], true), true);
  });

  // Issue 33, finding 8a.
  it('a URI or origin with userinfo is refused and never matches', () => {
    const allowed = ['https://wiki.example.com/cb'];
    assert.equal(redirectUriAllowed('https://evil@wiki.example.com/cb', allowed, false), false);
    assert.equal(redirectUriAllowed('https://user:pw@wiki.example.com/cb', allowed, false), false);
    assert.equal(redirectUriAllowed('https://@wiki.example.com/cb', allowed, false), false);
    assert.equal(redirectUriAllowed('https://evil@tenant.example.com/cb', ['https://*.example.com/cb'], true), false);
    assert.equal(redirectUriAllowed('https://wiki.example.com/cb', ['https://evil@wiki.example.com/cb'], false), false);
    assert.equal(originAllowed('https://evil@spa.example.com', ['https://spa.example.com'], false), false);
    for (const uri of ['https://evil@wiki.example.com/cb', 'https://user:pw@wiki.example.com/cb', 'https://@wiki.example.com/cb', 'https://evil@*.example.com/cb']) {
      assert.ok(uriProblem(uri, true), `${uri} is refused`);
    }
    // An @ in the path or query is no userinfo.
    assert.equal(uriProblem('https://wiki.example.com/cb?who=a@b', false), null);
  });
});
