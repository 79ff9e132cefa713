import { it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as oidc from 'openid-client';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { describeEachDatabase } from '../support/server.js';
import { IDP_ENV, codeFlow, loggedInBrowser, registerClient, relyingParty } from './support.js';

// IDP_OIDC_ACCESS_TOKEN_FORMAT=jwt: access tokens a resource server can
// verify with the JWKS alone, which still work at userinfo, introspection
// and revocation.

describeEachDatabase('OpenID provider: JWT access tokens', { ...IDP_ENV, IDP_OIDC_ACCESS_TOKEN_FORMAT: 'jwt' }, ({ server }) => {
  it('issues signed access tokens with the reference\'s claims', async () => {
    const client = await registerClient(server());
    const rp = await relyingParty(server(), client);
    const { api, email } = await loggedInBrowser(server());
    const { tokens } = await codeFlow(server(), rp, api);
    const jwks = createRemoteJWKSet(new URL(`${server().baseUrl}/.well-known/jwks.json`));
    const { payload, protectedHeader } = await jwtVerify(tokens.access_token, jwks, { issuer: server().baseUrl });
    assert.equal(protectedHeader.typ, 'at+jwt');
    assert.equal(payload.client_id, client.id);
    assert.equal(payload.sub, tokens.claims()!.sub);
    assert.equal(payload.scope, 'openid email profile');
    assert.equal(payload.token_use, 'access');
    assert.equal(payload.aud, undefined);
    assert.equal(payload.exp! - payload.iat!, 3600);

    assert.equal((await oidc.fetchUserInfo(rp, tokens.access_token, payload.sub!)).email, email);
    assert.equal((await oidc.tokenIntrospection(rp, tokens.access_token)).active, true);
    // The digest a JWT is stored under is no token (it is looked up by digest only in introspection and revocation).
    const digest = `sha256~${createHash('sha256').update(tokens.access_token).digest('hex')}`;
    const byDigest = await fetch(`${server().baseUrl}/identity/o/api/userinfo`, { headers: { authorization: `Bearer ${digest}` } });
    assert.equal(byDigest.status, 401);
    await oidc.tokenRevocation(rp, tokens.access_token);
    assert.equal((await oidc.tokenIntrospection(rp, tokens.access_token)).active, false);

    const service = await registerClient(server(), { grantTypes: ['client_credentials'], redirectUris: [], scopes: ['read'] });
    const cc = await oidc.clientCredentialsGrant(await relyingParty(server(), service), { scope: 'read' });
    const machine = await jwtVerify(cc.access_token, jwks, { issuer: server().baseUrl });
    assert.equal(machine.payload.sub, undefined);
    assert.equal(machine.payload.client_id, service.id);
  });
});
