import { createPrivateKey, randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import type { IdpSettings } from '../config/idp.js';
import type { Conn } from '../store/db.js';
import { grantsOfAccount } from '../store/idp-payloads.js';
import { findIdpClient } from '../store/idp-clients.js';
import { insertBackchannelDelivery } from '../store/webhook-deliveries.js';
import { signingKey } from '../security/idp-signing-key.js';

// OpenID Connect Back-Channel Logout 1.0: when a user's session here ends
// (logout, a password change or reset, sessions revoked, the account
// disabled or deleted), every client that registered a back-channel logout
// URI and holds a grant of the user is sent a logout token. The requests go
// into the webhook outbox in the transaction of the session's end, and its
// senders deliver them with their retries: none is lost to a crash.

const EVENT = 'http://schemas.openid.net/event/backchannel-logout';

/** Logout tokens live long enough to cover the outbox's retries; clients check jti for replays. */
const TOKEN_LIFETIME_SECONDS = 2 * 86400;

export async function enqueueBackchannelLogouts(settings: IdpSettings, conn: Conn, userId: number, now: number): Promise<number> {
  if (!settings.enabled || !settings.privateKeyPem) return 0;
  const grants = await grantsOfAccount(conn, String(userId), now);
  // One token per client and issuer, however many grants.
  const targets = new Map<string, { clientId: string; issuer: string }>();
  for (const grant of grants) {
    const clientId = (JSON.parse(grant.payload) as { clientId?: string }).clientId;
    const issuer = settings.issuer ?? grant.issuer;
    if (clientId && issuer) targets.set(`${clientId} ${issuer}`, { clientId, issuer });
  }
  if (targets.size === 0) return 0;
  const { jwk, alg } = signingKey(settings.privateKeyPem);
  const key = createPrivateKey(settings.privateKeyPem);
  let sent = 0;
  for (const { clientId, issuer } of targets.values()) {
    const client = await findIdpClient(conn, clientId);
    if (!client?.backchannelLogoutUri) continue;
    const iat = Math.floor(now / 1000);
    const token = await new SignJWT({ events: { [EVENT]: {} } })
      .setProtectedHeader({ alg, kid: jwk.kid as string, typ: 'logout+jwt' })
      .setIssuer(issuer)
      .setAudience(clientId)
      .setSubject(String(userId))
      .setIssuedAt(iat)
      .setExpirationTime(iat + TOKEN_LIFETIME_SECONDS)
      .setJti(randomUUID())
      .sign(key);
    await insertBackchannelDelivery(conn, { eventId: `bcl_${randomUUID().replaceAll('-', '')}`, url: client.backchannelLogoutUri, body: new URLSearchParams({ logout_token: token }).toString(), now });
    sent++;
  }
  return sent;
}
