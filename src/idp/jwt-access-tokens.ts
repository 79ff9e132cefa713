import { createPrivateKey, randomUUID, sign as cryptoSign } from 'node:crypto';

/**
 * IDP_OIDC_ACCESS_TOKEN_FORMAT=jwt, as the reference makes them: the token's
 * value is a JWT signed with the provider's key (iss, client_id, sub,
 * scope, iat, exp, jti, token_use), with no audience, so that it still
 * works at userinfo. oidc-provider's own JWT format is for resource servers
 * (with an audience, which userinfo refuses) and is never stored, so it
 * could not be revoked or introspected; here the JWT is the token's id,
 * stored (as every id) by its SHA-256: revocation and introspection work as
 * for opaque tokens. The id is made synchronously, hence node:crypto's
 * signing rather than jose's.
 */
export function jwtAccessTokens(provider: any, issuer: string, pem: string, kid: string, alg: string, now: () => number): void {
  const key = createPrivateKey(pem);
  const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const sign = (claims: Record<string, unknown>): string => {
    const input = `${b64({ alg, kid, typ: 'at+jwt' })}.${b64(claims)}`;
    const hash = `sha${alg.slice(2)}`;
    const signature = alg.startsWith('RS') ? cryptoSign(hash, Buffer.from(input), key) : cryptoSign(hash, Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' });
    return `${input}.${signature.toString('base64url')}`;
  };
  for (const Model of [provider.AccessToken, provider.ClientCredentials]) {
    const resourceFormat = Model.prototype.generateTokenId;
    Model.prototype.generateTokenId = function (this: { clientId: string; accountId?: string; scope?: string; expiration: number; format?: string; jkt?: string; resourceServer?: unknown; extra?: object }) {
      // A token for a resource server (resource-servers.ts) takes that server's format and audience.
      if (this.resourceServer) return resourceFormat.call(this);
      // Kept (and looked up) as an opaque token is.
      this.format = 'opaque';
      const iat = Math.floor(now() / 1000);
      return sign({
        // What the grant put on the token: token exchange's act (token-exchange.ts).
        ...this.extra,
        iss: issuer,
        client_id: this.clientId,
        ...(this.accountId ? { sub: this.accountId } : {}),
        ...(this.scope ? { scope: this.scope } : {}),
        iat,
        exp: iat + this.expiration,
        jti: randomUUID().replaceAll('-', ''),
        token_use: 'access',
        // A DPoP-bound token names its key (RFC 9449 section 6.1) for resource servers that verify the JWT themselves; the id is made when the token is saved, after the binding.
        ...(this.jkt ? { cnf: { jkt: this.jkt } } : {}),
      });
    };
  }
}
