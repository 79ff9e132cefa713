import { it } from 'node:test';
import assert from 'node:assert/strict';
import { authorizationHeader, percentEncode, signatureBaseString } from '../../src/social/kit/oauth1/signature.js';

// OAuth 1.0a signing against the worked examples of the specifications: the
// signature base string of RFC 5849 section 3.4.1.1, and the HMAC-SHA1
// signature of OAuth Core 1.0 Appendix A (the photos example).

it('builds the signature base string of RFC 5849 3.4.1.1', () => {
  const url = new URL('http://example.com/request?b5=%3D%253D&a3=a&c%40=&a2=r%20b');
  const base = signatureBaseString('POST', url, [
    ['oauth_consumer_key', '9djdj82h48djs9d2'],
    ['oauth_token', 'kkk9d7dh3k39sjv7'],
    ['oauth_signature_method', 'HMAC-SHA1'],
    ['oauth_timestamp', '137131201'],
    ['oauth_nonce', '7d8f3e4a'],
    // The body `c2&a3=2+q`, form-decoded.
    ['c2', ''],
    ['a3', '2 q'],
  ]);
  assert.equal(
    base,
    'POST&http%3A%2F%2Fexample.com%2Frequest&a2%3Dr%2520b%26a3%3D2%2520q%26a3%3Da%26b5%3D%253D%25253D%26c%2540%3D%26c2%3D%26oauth_consumer_key%3D9djdj82h48djs9d2%26oauth_nonce%3D7d8f3e4a%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D137131201%26oauth_token%3Dkkk9d7dh3k39sjv7',
  );
});

it('signs the photos example of OAuth Core 1.0 Appendix A', () => {
  const header = authorizationHeader(
    'GET',
    new URL('http://photos.example.net/photos?file=vacation.jpg&size=original'),
    { consumerKey: 'dpf43f3p2l4k3l03', consumerSecret: 'kd94hf93k423kf44', token: 'nnch734d00sl2jdk', tokenSecret: 'pfkkdhi9sl3r4s00' },
    { timestamp: 1191242096, nonce: 'kllo9940pd9333jh' },
  );
  assert.match(header, /^OAuth /);
  assert.ok(header.includes(`oauth_signature="${percentEncode('tR3+Ty81lMeYAr/Fid0kMTYa/WM=')}"`), header);
});

it('percent-encodes as RFC 5849 3.6 says: reserved and non-ASCII characters, hex in upper case', () => {
  assert.equal(percentEncode("Ladies + Gentlemen!*'()~"), 'Ladies%20%2B%20Gentlemen%21%2A%27%28%29~');
  assert.equal(percentEncode('☃'), '%E2%98%83');
});
