import type { Db } from '../store/db.js';
import { findIdpClient } from '../store/idp-clients.js';
import type { findAccount } from './account.js';

// Who may learn what a token is (RFC 7662 section 4: the provider decides,
// and must keep clients from fishing for each other's tokens): the client
// the token was issued to, and clients registered as resource servers. For
// anyone else the answer is `{"active": false}`, as for an unknown token.
//
// And a token whose user is gone or disabled is not active: oidc-provider
// asks findAccount at userinfo and at the refresh_token grant, but not at
// introspection, which would otherwise vouch for it until it expires.

type IntrospectedToken = { clientId?: string; accountId?: string };

export function introspectionFeature(db: Db, account: ReturnType<typeof findAccount>) {
  return {
    enabled: true,
    allowedPolicy: async (ctx: unknown, client: { clientId: string; clientAuthMethod: string }, token: IntrospectedToken): Promise<boolean> => {
      // A public client is never a resource server (anyone may call as it): the registration refuses it, and this holds whatever the row says.
      if (token.clientId !== client.clientId && (client.clientAuthMethod === 'none' || !(await findIdpClient(db, client.clientId))?.resourceServer)) return false;
      if (token.accountId !== undefined && !(await account(ctx, token.accountId))) return false;
      return true;
    },
  };
}
