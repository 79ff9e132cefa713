import { it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as oidc from 'openid-client';
import { exportJWK, generateKeyPair } from 'jose';
import { describeEachDatabase } from '../support/server.js';
import { IDP_ENV, REDIRECT_URI, loggedInBrowser, navigate, registerClient, relyingParty } from './support.js';

// The discovery document announces what works and nothing else: each
// client authentication method and algorithm it lists is tried at the
// token, introspection and revocation endpoints, each DPoP algorithm, each
// response mode; what it does not list (client_secret_jwt, request objects)
// is refused.

type Doc = Record<string, any>;

const METHODS = ['client_secret_basic', 'client_secret_post', 'private_key_jwt', 'none'];
const refusedClient = (e: any) => e.error === 'invalid_client' || (e.response?.status === 401 && JSON.stringify(e.cause ?? '').includes('invalid_client'));

describeEachDatabase('OpenID provider: discovery', IDP_ENV, ({ server }) => {
  const discovery = async (): Promise<Doc> => (await fetch(new URL('/.well-known/openid-configuration', server().baseUrl))).json() as Promise<Doc>;

  async function keyClient(alg: string) {
    const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
    const jwk = { ...(await exportJWK(publicKey)), kid: alg, alg };
    const client = await registerClient(server(), { grantTypes: ['client_credentials'], redirectUris: [], scopes: ['read'], tokenEndpointAuthMethod: 'private_key_jwt', jwks: { keys: [jwk] } });
    // openid-client names an Ed25519 key's algorithm Ed25519; EdDSA is the older name of the same signature (RFC 8037).
    const rename = alg === 'EdDSA' ? { [oidc.modifyAssertion]: (header: Record<string, unknown>) => void (header.alg = 'EdDSA') } : {};
    return oidc.discovery(new URL(server().baseUrl), client.id, undefined, oidc.PrivateKeyJwt({ key: privateKey, kid: alg }, rename), { execute: [oidc.allowInsecureRequests] });
  }

  /** A relying party of each method the document lists. */
  async function relyingPartyFor(method: string): Promise<oidc.Configuration> {
    if (method === 'private_key_jwt') return keyClient('ES256');
    if (method === 'none') return relyingParty(server(), await registerClient(server(), { type: 'public' }));
    const client = await registerClient(server(), { grantTypes: ['client_credentials'], redirectUris: [], scopes: ['read'] });
    return relyingParty(server(), client, method === 'client_secret_basic' ? 'basic' : 'post');
  }

  it('lists exactly the client authentication methods that work, at the token, introspection and revocation endpoints', async () => {
    const doc = await discovery();
    assert.deepEqual(doc.token_endpoint_auth_methods_supported, METHODS);
    assert.deepEqual(doc.introspection_endpoint_auth_methods_supported, METHODS);
    assert.deepEqual(doc.revocation_endpoint_auth_methods_supported, METHODS);
    for (const key of ['token', 'introspection', 'revocation']) assert.equal(doc[`${key}_endpoint_auth_signing_alg_values_supported`].some((alg: string) => alg.startsWith('HS')), false, key);

    for (const method of METHODS) {
      const rp = await relyingPartyFor(method);
      if (method === 'none') {
        // Authenticated (a public client is its client_id), the grant itself refused.
        await assert.rejects(oidc.refreshTokenGrant(rp, 'not-a-refresh-token'), (e: any) => e.error === 'invalid_grant');
      } else {
        assert.ok((await oidc.clientCredentialsGrant(rp, { scope: 'read' })).access_token, method);
      }
      assert.equal((await oidc.tokenIntrospection(rp, 'not-a-token')).active, false, method);
      await oidc.tokenRevocation(rp, 'not-a-token');
    }
  });

  it('neither announces nor takes client_secret_jwt: the secret is kept as a hash, so its HMAC could not be checked', async () => {
    const doc = await discovery();
    assert.equal(doc.token_endpoint_auth_methods_supported.includes('client_secret_jwt'), false);
    assert.equal(doc.token_endpoint_auth_signing_alg_values_supported.includes('HS256'), false);
    const client = await registerClient(server(), { grantTypes: ['client_credentials'], redirectUris: [], scopes: ['read'] });
    const rp = await oidc.discovery(new URL(server().baseUrl), client.id, undefined, oidc.ClientSecretJwt(client.secret!), { execute: [oidc.allowInsecureRequests] });
    await assert.rejects(oidc.clientCredentialsGrant(rp, { scope: 'read' }), refusedClient);
  });

  it('each assertion algorithm it lists signs a private_key_jwt client in', async () => {
    const { token_endpoint_auth_signing_alg_values_supported: algs } = await discovery();
    assert.deepEqual(algs, ['RS256', 'PS256', 'ES256', 'Ed25519', 'EdDSA']);
    for (const alg of algs as string[]) assert.ok((await oidc.clientCredentialsGrant(await keyClient(alg), { scope: 'read' })).access_token, alg);
  });

  it('each DPoP algorithm it lists binds a token', async () => {
    const { dpop_signing_alg_values_supported: algs } = await discovery();
    assert.ok(algs.length > 0);
    const client = await registerClient(server(), { grantTypes: ['client_credentials'], redirectUris: [], scopes: ['read'] });
    const rp = await relyingParty(server(), client);
    for (const alg of algs as string[]) {
      const DPoP = oidc.getDPoPHandle(rp, await oidc.randomDPoPKeyPair(alg));
      const tokens = await oidc.clientCredentialsGrant(rp, { scope: 'read' }, { DPoP });
      assert.equal(tokens.token_type.toLowerCase(), 'dpop', alg);
    }
  });

  it('announces no request objects, claims parameter or registration, and refuses request and request_uri other than PAR\'s', async () => {
    const doc = await discovery();
    assert.equal(doc.request_parameter_supported ?? false, false);
    assert.equal(doc.request_uri_parameter_supported, false);
    assert.equal(doc.claims_parameter_supported, false);
    for (const absent of ['require_request_uri_registration', 'registration_endpoint', 'request_object_signing_alg_values_supported', 'backchannel_authentication_endpoint']) {
      assert.equal(doc[absent], undefined, absent);
    }
    // Pushed authorization requests are on (par.test.ts), for the clients that want them.
    assert.equal(doc.pushed_authorization_request_endpoint, `${server().baseUrl}/identity/o/api/par`);
    assert.equal(doc.require_pushed_authorization_requests, false);

    const client = await registerClient(server(), { skipConsent: true });
    const { api } = await loggedInBrowser(server());
    for (const [param, error] of [['request', 'request_not_supported'], ['request_uri', 'request_uri_not_supported']]) {
      const url = new URL('/identity/o/authorize', server().baseUrl);
      url.search = new URLSearchParams({ client_id: client.id, redirect_uri: REDIRECT_URI, response_type: 'code', scope: 'openid', state: 'st', [param]: param === 'request' ? 'eyJhbGciOiJub25lIn0.e30.' : 'https://rp.test/request.jwt' }).toString();
      const landed = await navigate(server(), api, url);
      assert.equal(landed.url.origin + landed.url.pathname, REDIRECT_URI, landed.page?.html.slice(0, 300));
      assert.equal(landed.url.searchParams.get('error'), error);
    }
  });

  it('answers response_mode=form_post with a form its content security policy lets submit itself', async () => {
    const { response_modes_supported: modes } = await discovery();
    assert.deepEqual(modes, ['form_post', 'fragment', 'query']);
    const client = await registerClient(server(), { skipConsent: true });
    const rp = await relyingParty(server(), client);
    const { api } = await loggedInBrowser(server());
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(rp, { redirect_uri: REDIRECT_URI, scope: 'openid', response_mode: 'form_post', code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state: 'st' });
    const { page } = await navigate(server(), api, url);
    assert.equal(page?.status, 200);
    assert.match(page.html, new RegExp(`<form method="post" action="${REDIRECT_URI}">`));
    const inputs = Object.fromEntries([...page.html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/>/g)].map((m) => [m[1], m[2]]));
    assert.equal(inputs.state, 'st');
    assert.equal(inputs.iss, new URL(server().baseUrl).origin);
    const script = /<script>([\s\S]*?)<\/script>/.exec(page.html)![1]!;
    assert.ok(page.headers.get('content-security-policy')!.includes(`'sha256-${createHash('sha256').update(script).digest('base64')}'`));

    // The code it posts is the relying party's as with the query mode.
    const tokens = await oidc.authorizationCodeGrant(rp, new URL(`${REDIRECT_URI}?${new URLSearchParams(inputs)}`), { pkceCodeVerifier: verifier, expectedState: 'st' });
    assert.ok(tokens.id_token);
  });
});
