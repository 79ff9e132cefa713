import { createPrivateKey, randomUUID, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import type { IdpSettings } from '../config/idp.js';
import type { Conn } from '../store/db.js';
import { grantsOfAccount } from '../store/idp-payloads.js';
import { findIdpClient } from '../store/idp-clients.js';
import { insertBackchannelDelivery } from '../store/webhook-deliveries.js';
import { signingKey } from '../security/idp-signing-key.js';
import { idpSessionId } from '../security/idp-session-id.js';

// OpenID Connect Back-Channel Logout 1.0: when a user's session here ends
// (logout, a password change or reset, sessions revoked, the account
// disabled or deleted), every client that registered a back-channel logout
// URI and holds a grant of the user is sent a logout token. The requests go
// into the webhook outbox in the transaction of the session's end, and its
// senders deliver them with their retries: none is lost to a crash.
// When the sessions that ended are known (a logout, sessions the user ended),
// each token names one of them (`sid`, as the client's ID tokens did) and
// the client ends that session only; otherwise it names the user alone,
// which means every session of theirs at the client.

const EVENT = 'http://schemas.openid.net/event/backchannel-logout';

/** Logout tokens live long enough to cover the outbox's retries; clients check jti for replays. */
const TOKEN_LIFETIME_SECONDS = 2 * 86400;

export interface EndedSessions {
  /** The sessions that ended; absent when every session of the user did. */
  ids?: readonly number[];
  /** SECRET_KEY: what sids are derived under. */
  secret: string;
}

export async function enqueueBackchannelLogouts(settings: IdpSettings, conn: Conn, userId: number, now: number, ended: EndedSessions): Promise<number> {
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
    for (const sid of ended.ids?.map((id) => idpSessionId(ended.secret, id, clientId)) ?? [undefined]) {
      const token = await logoutToken({ alg, kid: jwk.kid as string, key, issuer, clientId, userId, sid, now });
      await insertBackchannelDelivery(conn, { eventId: `bcl_${randomUUID().replaceAll('-', '')}`, url: client.backchannelLogoutUri, body: new URLSearchParams({ logout_token: token }).toString(), now });
      sent++;
    }
  }
  return sent;
}

interface LogoutTokenInput {
  alg: string;
  kid: string;
  key: KeyObject;
  issuer: string;
  clientId: string;
  userId: number;
  sid: string | undefined;
  now: number;
}

function logoutToken({ alg, kid, key, issuer, clientId, userId, sid, now }: LogoutTokenInput): Promise<string> {
  const iat = Math.floor(now / 1000);
  return new SignJWT({ events: { [EVENT]: {} }, ...(sid ? { sid } : {}) })
    .setProtectedHeader({ alg, kid, typ: 'logout+jwt' })
    .setIssuer(issuer)
    .setAudience(clientId)
    .setSubject(String(userId))
    .setIssuedAt(iat)
    .setExpirationTime(iat + TOKEN_LIFETIME_SECONDS)
    .setJti(randomUUID())
    .sign(key);
}
