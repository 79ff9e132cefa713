import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../src/config/config.js';
import { prepareTokenStrategy } from '../../src/tokens/load-strategy.js';
import { describeEachDatabase, TEST_SECRET } from '../support/server.js';
import { bearer, claimsOf, PASSWORD, rsaPrivateKeyPem, uniqueEmail } from './support.js';

// Choosing the strategy: the default session tokens, and a custom module
// loaded by path (the example in examples/).

describeEachDatabase('default session-token strategy', {}, ({ server }) => {
  it('gives a session token only; there is nothing to refresh and no keys', async () => {
    const app = server().client('app');
    const signup = await app.post('/auth/signup', { email: uniqueEmail('default'), password: PASSWORD });
    assert.equal(signup.status, 200);
    assert.ok(signup.body.meta.session_token);
    assert.equal(signup.body.meta.access_token, undefined);
    assert.equal(signup.body.meta.refresh_token, undefined);
    const refresh = await app.post('/tokens/refresh', { refresh_token: 'anything' });
    assert.equal(refresh.status, 400);
    assert.equal(refresh.body.errors[0].code, 'invalid_token');
    assert.equal((await fetch(`${server().baseUrl}/_service/app/v1/.well-known/jwks.json`)).status, 404);
    // An Authorization header means nothing to this strategy.
    assert.equal((await server().client('app').get('/auth/session', bearer(signup.body.meta.session_token))).status, 401);
  });
});

const CUSTOM = {
  HEADLESS_TOKEN_STRATEGY: './examples/custom-token-strategy.mjs',
  HEADLESS_JWT_PRIVATE_KEY: rsaPrivateKeyPem(),
  ACCOUNT_EMAIL_VERIFICATION: 'none',
};

describeEachDatabase('custom strategy module', CUSTOM, ({ server }) => {
  it('uses the module for session tokens, claims, refresh and bearer authentication', async () => {
    const app = server().client('app');
    const email = uniqueEmail('custom');
    const signup = await app.post('/auth/signup', { email, password: PASSWORD });
    assert.equal(signup.status, 200);
    const { session_token, access_token, refresh_token } = signup.body.meta;
    assert.match(session_token, /^st_/);
    assert.equal((await app.get('/auth/session')).status, 200, 'the prefixed token works as X-Session-Token');
    const unprefixed = await server().client('app').get('/auth/session', { 'x-session-token': session_token.slice(3) });
    assert.equal(unprefixed.status, 410);

    const claims = claimsOf(access_token);
    assert.equal(claims.email, email);
    assert.deepEqual(claims.roles, ['member']);
    assert.equal(claims.sub, String(signup.body.data.user.id), 'a custom claim never overrides a reserved one');
    assert.equal((await server().client('app').get('/auth/session', bearer(access_token))).status, 200);

    const refreshed = await server().client('app').post('/tokens/refresh', { refresh_token });
    assert.equal(refreshed.status, 200);
    assert.equal(claimsOf(refreshed.body.data.access_token).email, email);
    assert.equal((await fetch(`${server().baseUrl}/_service/app/v1/.well-known/jwks.json`)).status, 200);
  });
});

// lookupSession and authenticate run on every request, so a strategy may
// answer them with a plain value when it has the answer in memory.
const syncModule = join(mkdtempSync(join(tmpdir(), 'strategy-')), 'sync-lookups.mjs');
writeFileSync(
  syncModule,
  `export default (ctx) => {
  const seen = new Map();
  return {
    createSessionToken: ({ sessionKey }) => sessionKey,
    lookupSession: (token) => seen.get(token) ?? ctx.findSession(token).then((live) => (live && seen.set(token, live), live)),
    authenticate: (token) => (token === 'gone' ? 'gone' : token === 'known' ? seen.values().next().value ?? null : null),
  };
};
`,
);

describeEachDatabase('custom strategy answering without promises', { HEADLESS_TOKEN_STRATEGY: syncModule, ACCOUNT_EMAIL_VERIFICATION: 'none' }, ({ server }) => {
  it('serves plain values from lookupSession and authenticate like promised ones', async () => {
    const email = uniqueEmail('sync');
    const signup = await server().client('app').post('/auth/signup', { email, password: PASSWORD });
    assert.equal(signup.status, 200);
    const token = { 'x-session-token': signup.body.meta.session_token };
    for (const round of ['promised', 'plain']) {
      const answer = await server().client('app').get('/auth/session', token);
      assert.equal(answer.status, 200, round);
      assert.equal(answer.body.data.user.email, email, round);
    }
    const known = await server().client('app').get('/auth/session', bearer('known'));
    assert.equal(known.status, 200);
    assert.equal(known.body.data.user.email, email);
    const gone = await server().client('app').get('/auth/session', bearer('gone'));
    assert.equal(gone.status, 410);
    assert.equal(gone.body.meta.is_authenticated, null);
    assert.equal((await server().client('app').get('/auth/session', bearer('unknown'))).status, 401);
  });
});

describe('token settings', () => {
  const base = { SECRET_KEY: TEST_SECRET };

  it('defaults to session tokens and the spec defaults for JWTs', () => {
    const { tokens } = loadConfig(base);
    assert.deepEqual(tokens.strategy, { kind: 'session' });
    assert.deepEqual(tokens.jwt, {
      algorithm: 'RS256',
      privateKey: undefined,
      privateKeyFallbacks: [],
      accessTokenExpiresIn: 300,
      refreshTokenExpiresIn: 86400,
      authorizationHeaderScheme: 'Bearer',
      statefulValidation: false,
      rotateRefreshToken: true,
      refreshTokenReuseGrace: 0,
      statelessSnapshotSeconds: 5,
    });
  });

  it('accepts the reference class paths and a PEM with literal \\n', () => {
    const pem = rsaPrivateKeyPem().trim().replace(/\n/g, '\\n');
    const config = loadConfig({ ...base, HEADLESS_TOKEN_STRATEGY: 'allauth.headless.tokens.strategies.jwt.JWTTokenStrategy', HEADLESS_JWT_PRIVATE_KEY: pem });
    assert.deepEqual(config.tokens.strategy, { kind: 'jwt' });
    assert.match(config.tokens.jwt.privateKey!, /^-----BEGIN PRIVATE KEY-----\n/);
  });

  it('names the variable at fault', () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ HEADLESS_TOKEN_STRATEGY: 'jwt' }, /HEADLESS_JWT_PRIVATE_KEY is required/],
      [{ HEADLESS_TOKEN_STRATEGY: 'bogus' }, /^HEADLESS_TOKEN_STRATEGY:/],
      [{ HEADLESS_TOKEN_STRATEGY: './no/such/module.mjs' }, /^HEADLESS_TOKEN_STRATEGY: no module/],
      [{ HEADLESS_JWT_ALGORITHM: 'ES256' }, /^HEADLESS_JWT_ALGORITHM:/],
      [{ HEADLESS_JWT_PRIVATE_KEY: 'not a pem' }, /^HEADLESS_JWT_PRIVATE_KEY:/],
      [{ HEADLESS_JWT_ALGORITHM: 'HS256', HEADLESS_JWT_PRIVATE_KEY: 'short' }, /^HEADLESS_JWT_PRIVATE_KEY:/],
      [{ HEADLESS_JWT_AUTHORIZATION_HEADER_SCHEME: 'Two words' }, /^HEADLESS_JWT_AUTHORIZATION_HEADER_SCHEME:/],
      [{ HEADLESS_JWT_ACCESS_TOKEN_EXPIRES_IN: '0' }, /^HEADLESS_JWT_ACCESS_TOKEN_EXPIRES_IN:/],
      [{ HEADLESS_JWT_STATEFUL_VALIDATION_ENABLED: 'maybe' }, /^HEADLESS_JWT_STATEFUL_VALIDATION_ENABLED:/],
      [{ HEADLESS_JWT_REFRESH_TOKEN_REUSE_GRACE: '3600' }, /^HEADLESS_JWT_REFRESH_TOKEN_REUSE_GRACE:/],
    ];
    for (const [env, message] of cases) {
      assert.throws(() => loadConfig({ ...base, ...env }), (error: Error) => error instanceof ConfigError && message.test(error.message), JSON.stringify(env));
    }
  });

  it('rejects an RSA key under 2048 bits', async () => {
    const { generateKeyPairSync } = await import('node:crypto');
    const small = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    assert.throws(() => loadConfig({ ...base, HEADLESS_JWT_PRIVATE_KEY: small }), /at least 2048 bits/);
  });

  it('refuses a module that does not export a strategy, before the server starts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'strategy-'));
    const modules = {
      'no-default.mjs': 'export const x = 1;\n',
      'incomplete.mjs': 'export default () => ({ createSessionToken: ({ sessionKey }) => sessionKey });\n',
      'jwt-without-key.mjs': 'export default (ctx) => ctx.builtins.jwt();\n',
    };
    for (const [name, source] of Object.entries(modules)) {
      writeFileSync(join(dir, name), source);
      const config = loadConfig({ ...base, HEADLESS_TOKEN_STRATEGY: join(dir, name) });
      await assert.rejects(prepareTokenStrategy(config), (error: Error) => error instanceof ConfigError && /HEADLESS_/.test(error.message), name);
    }
  });
});
