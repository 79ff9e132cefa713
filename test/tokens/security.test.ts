import { it } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac, createPublicKey, hkdfSync } from 'node:crypto';
import { SignJWT, importPKCS8, jwtVerify } from 'jose';
import { describeEachDatabase, TEST_SECRET } from '../support/server.js';
import { bearer, claimsOf, headerOf, jwtEnv, rsaPrivateKeyPem, signUp } from './support.js';

// Access tokens that must not authenticate. Each forged token is checked to
// be refused where the genuine one is accepted, so every case can fail.

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

function withPayload(token: string, change: (claims: Record<string, unknown>) => Record<string, unknown>): string {
  const [header, , signature] = token.split('.');
  return `${header}.${b64(change(claimsOf(token) as Record<string, unknown>))}.${signature}`;
}

function hmacToken(header: Record<string, unknown>, claims: unknown, secret: string | Buffer | Uint8Array, hash = 'sha256'): string {
  const input = `${b64(header)}.${b64(claims)}`;
  return `${input}.${createHmac(hash, secret).update(input).digest('base64url')}`;
}

describeEachDatabase('access-token security (RS256)', jwtEnv(), ({ server }) => {
  async function status(token: string, headers?: Record<string, string>): Promise<number> {
    return (await server().client('app').get('/auth/session', headers ?? bearer(token))).status;
  }

  it('accepts the genuine token (the control for every case below)', async () => {
    const account = await signUp(server(), 'control');
    assert.equal(await status(account.accessToken), 200);
  });

  it('rejects alg "none"', async () => {
    const { accessToken } = await signUp(server(), 'none');
    const claims = claimsOf(accessToken);
    for (const alg of ['none', 'None', 'NONE']) {
      assert.equal(await status(`${b64({ alg, typ: 'JWT' })}.${b64(claims)}.`), 401, alg);
    }
  });

  it('rejects an HS256 token signed with the RSA public key (algorithm confusion)', async () => {
    const { accessToken } = await signUp(server(), 'confusion');
    const claims = claimsOf(accessToken);
    const publicPem = createPublicKey(rsaPrivateKeyPem()).export({ type: 'spki', format: 'pem' }).toString();
    const kid = headerOf(accessToken).kid;
    assert.equal(await status(hmacToken({ alg: 'HS256', typ: 'JWT', kid }, claims, publicPem)), 401);
    assert.equal(await status(hmacToken({ alg: 'HS256', typ: 'JWT', kid }, claims, publicPem.trim())), 401);
    // And with the server's own secret key, which only HS configurations use.
    assert.equal(await status(hmacToken({ alg: 'HS256', typ: 'JWT' }, claims, TEST_SECRET)), 401);
  });

  it('rejects a tampered payload', async () => {
    const victim = await signUp(server(), 'victim');
    const attacker = await signUp(server(), 'attacker');
    // Claim to be the victim, keeping the attacker's signature.
    assert.equal(await status(withPayload(attacker.accessToken, (c) => ({ ...c, sub: String(victim.userId) }))), 401);
    // Point the token at the victim's session.
    assert.equal(await status(withPayload(attacker.accessToken, (c) => ({ ...c, sid: claimsOf(victim.accessToken).sid }))), 401);
    // Stretch the expiry.
    assert.equal(await status(withPayload(attacker.accessToken, (c) => ({ ...c, exp: (c.exp as number) + 86400 }))), 401);
    // A flipped signature byte: the second-to-last character, which always
    // carries six signature bits, replaced by a different one.
    const token = attacker.accessToken;
    const flipped = token.slice(0, -2) + (token.at(-2) === 'A' ? 'B' : 'A') + token.slice(-1);
    assert.notEqual(flipped, token);
    assert.equal(await status(flipped), 401);
  });

  it('rejects a token signed by another RSA key claiming the same kid', async () => {
    const { accessToken } = await signUp(server(), 'other-key');
    const otherKey = await importPKCS8(rsaPrivateKeyPem('attacker'), 'RS256');
    const forged = await new SignJWT(claimsOf(accessToken)).setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: headerOf(accessToken).kid }).sign(otherKey);
    assert.equal(await status(forged), 401);
  });

  it('rejects a refresh token used as an access token (wrong token_use)', async () => {
    const account = await signUp(server(), 'token-use');
    assert.equal(claimsOf(account.refreshToken).token_use, 'refresh');
    assert.equal(await status(account.refreshToken), 401);
  });

  it('rejects a scheme word other than the configured one (compared case-insensitively)', async () => {
    const { accessToken } = await signUp(server(), 'scheme');
    for (const value of [`Token ${accessToken}`, `JWT ${accessToken}`, `Basic ${accessToken}`, `Bearer${accessToken}`, accessToken, `Bearer ${accessToken} extra`]) {
      assert.equal(await status(accessToken, { authorization: value }), 401, value.slice(0, 12));
    }
    assert.equal(await status(accessToken, { authorization: `bearer ${accessToken}` }), 200);
  });

  it('ignores tokens in the query string', async () => {
    const account = await signUp(server(), 'query');
    const app = server().client('app');
    for (const name of ['access_token', 'token', 'jwt', 'authorization', 'session_token']) {
      const value = name === 'session_token' ? account.sessionToken : account.accessToken;
      const response = await app.get(`/auth/session?${name}=${encodeURIComponent(value)}`);
      assert.equal(response.status, 401, name);
    }
    const refresh = await app.post(`/tokens/refresh?refresh_token=${encodeURIComponent(account.refreshToken)}`, {});
    assert.equal(refresh.status, 400);
    assert.equal(refresh.body.errors[0].code, 'required');
  });

  it('rejects an expired token (the server clock decides)', async () => {
    server().clock.freeze();
    try {
      const { accessToken } = await signUp(server(), 'expired');
      server().clock.advance(299_000);
      assert.equal(await status(accessToken), 200);
      server().clock.advance(2_000);
      assert.equal(await status(accessToken), 401);
    } finally {
      server().clock.thaw();
    }
  });
});

// HKDF-SHA256 of SECRET_KEY, as docs/app-tokens.md tells resource servers not to rely on: written out here to pin it.
const DERIVED_HS256 = new Uint8Array(hkdfSync('sha256', TEST_SECRET, 'headless-auth', 'jwt HS256 v1', 32));

describeEachDatabase('access-token security (HS256)', jwtEnv({ HEADLESS_JWT_ALGORITHM: 'HS256', HEADLESS_JWT_PRIVATE_KEY: '' }), ({ server }) => {
  it('signs with a key derived from the secret key, has no kid and publishes no keys', async () => {
    const account = await signUp(server(), 'hs');
    assert.equal(headerOf(account.accessToken).alg, 'HS256');
    assert.equal(headerOf(account.accessToken).kid, undefined);
    const { payload } = await jwtVerify(account.accessToken, DERIVED_HS256, { algorithms: ['HS256'] });
    assert.equal(payload.sub, String(account.userId));
    assert.equal((await server().client('app').get('/auth/session', bearer(account.accessToken))).status, 200);
    const jwks = await fetch(`${server().baseUrl}/_service/app/v1/.well-known/jwks.json`);
    assert.equal(jwks.status, 404);
  });

  it('rejects an RS256 token, an HS512 token and alg none', async () => {
    const { accessToken } = await signUp(server(), 'hs-forged');
    const claims = claimsOf(accessToken);
    const rs = await new SignJWT(claims).setProtectedHeader({ alg: 'RS256' }).sign(await importPKCS8(rsaPrivateKeyPem(), 'RS256'));
    const hs512 = hmacToken({ alg: 'HS512', typ: 'JWT' }, claims, TEST_SECRET, 'sha512');
    const none = `${b64({ alg: 'none' })}.${b64(claims)}.`;
    for (const token of [rs, hs512, none]) {
      assert.equal((await server().client('app').get('/auth/session', bearer(token))).status, 401);
    }
    // The same claims, signed properly with the key, are accepted: the refusals above are about the algorithm.
    assert.equal((await server().client('app').get('/auth/session', bearer(hmacToken({ alg: 'HS256', typ: 'JWT' }, claims, DERIVED_HS256)))).status, 200);
  });

  it('regression: SECRET_KEY itself does not sign or verify tokens (issue 22 item 11)', async () => {
    const { accessToken } = await signUp(server(), 'hs-secret');
    await assert.rejects(jwtVerify(accessToken, new TextEncoder().encode(TEST_SECRET), { algorithms: ['HS256'] }));
    const forged = hmacToken({ alg: 'HS256', typ: 'JWT' }, claimsOf(accessToken), TEST_SECRET);
    assert.equal((await server().client('app').get('/auth/session', bearer(forged))).status, 401);
  });
});
