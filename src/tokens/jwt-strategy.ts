import { randomUUID } from 'node:crypto';
import type { Config } from '../config/config.js';
import type { User } from '../domain/user.js';
import { writeVersion, type Db, type Tx } from '../store/db.js';
import type { Clock } from '../kernel/clock.js';
import type { Logger } from '../kernel/log.js';
import type { Metrics } from '../observability/metrics.js';
import { andThen, type MaybePromise } from '../kernel/maybe-promise.js';
import { hashSecret } from '../security/secrets.js';
import { findRefreshToken, insertRefreshToken } from '../store/refresh-tokens.js';
import { buildClaims, signToken, verifyToken } from './jwt.js';
import { VerifiedTokenCache, type VerifiedAccess } from './verified-cache.js';
import type { SigningKeys } from './keys.js';
import { rotateRefreshToken, type Successor } from './refresh-rotation.js';
import { sidCodec } from './sid.js';
import { secretRing } from '../security/signing.js';
import { sessionTokenStrategy } from './session-token-strategy.js';
import type { JwtStrategyOptions, LiveSession, TokenStrategy, TokenSubject } from './strategy.js';
import { recordEvent } from '../audit/recorder.js';

export interface JwtStrategyDeps {
  config: Config;
  db: Db;
  clock: Clock;
  log: Logger;
  metrics: Metrics;
  findSession(sessionKey: string): MaybePromise<LiveSession | null>;
}

/**
 * The JWT strategy: session tokens as in the default strategy, plus signed
 * access and refresh tokens whose `sid` claim carries the encrypted session
 * key. Our own endpoints resolve an access token to its session (one indexed
 * lookup, the same as a session token; reused for a few seconds in stateless
 * mode); stateful validation reads it every time, and a genuine token whose
 * session is gone gets 401 instead of the reference's 410.
 */
export function createJwtStrategy(deps: JwtStrategyDeps, keys: SigningKeys, options: JwtStrategyOptions = {}): TokenStrategy {
  const settings = deps.config.tokens.jwt;
  const sid = sidCodec(secretRing(deps.config));
  const sessions = sessionTokenStrategy(deps.findSession);
  const verified = new VerifiedTokenCache();

  async function mintAccessToken(subject: TokenSubject): Promise<string> {
    const custom = options.claims ? await options.claims(subject) : {};
    const claims = buildClaims('access', {
      sub: String(subject.user.id),
      sid: sid.encrypt(subject.sessionKey),
      nowMs: deps.clock.now(),
      expiresIn: settings.accessTokenExpiresIn,
      custom,
    });
    return signToken(keys, claims);
  }

  async function mintRefreshToken(subject: TokenSubject): Promise<Successor> {
    const nowMs = deps.clock.now();
    const claims = buildClaims('refresh', { sub: String(subject.user.id), sid: sid.encrypt(subject.sessionKey), nowMs, expiresIn: settings.refreshTokenExpiresIn });
    const token = await signToken(keys, claims);
    return { token, hash: hashSecret(token), expiresAt: claims.exp * 1000 };
  }

  /** The live, authenticated session a sid names, if it belongs to the token's subject. */
  async function tokenSession(sub: string, sessionKey: string): Promise<(LiveSession & { user: User }) | 'gone' | null> {
    const live = await deps.findSession(sessionKey);
    if (!live) return 'gone';
    return live.user && String(live.user.id) === sub ? { ...live, user: live.user } : null;
  }

  /** The hot path: a token seen before costs a map lookup, not a signature check. */
  function verifiedAccess(token: string, now: number): MaybePromise<VerifiedAccess | null> {
    return verified.get(token, now) ?? verifyAccess(token, now);
  }

  async function verifyAccess(token: string, now: number): Promise<VerifiedAccess | null> {
    const claims = await verifyToken(keys, token, 'access', now);
    const sessionKey = claims ? sid.decrypt(claims.sid) : null;
    if (!claims || !sessionKey) return null;
    const entry = { sub: claims.sub, exp: claims.exp, sessionKey };
    verified.set(token, entry);
    return entry;
  }

  /** The session behind a verified access token, without a promise when a stateless snapshot answers. */
  function accessSession(access: VerifiedAccess | null, now: number): MaybePromise<LiveSession | 'gone' | null> {
    if (!access) return null;
    // Stateless validation promises a token until its exp whatever happens
    // to the session, so a snapshot a few seconds old honours it and the hot
    // path costs no query (HEADLESS_JWT_STATELESS_SNAPSHOT_SECONDS). Any
    // write by this process retires snapshots, so a logout or password
    // change here shows at once; other instances see it within the window.
    const version = writeVersion(deps.db);
    const snapshot = access.snapshot;
    if (!settings.statefulValidation && snapshot && snapshot.until > now && snapshot.writeVersion === version) return snapshot.live;
    return tokenSession(access.sub, access.sessionKey).then((live) => {
      if (live !== 'gone' && live !== null && !settings.statefulValidation && settings.statelessSnapshotSeconds > 0) {
        access.snapshot = { live, until: now + settings.statelessSnapshotSeconds * 1000, writeVersion: version };
      }
      // Stateful validation: a token is only as good as its session.
      return live === 'gone' && settings.statefulValidation ? null : live;
    });
  }

  return {
    createSessionToken: sessions.createSessionToken,
    lookupSession: sessions.lookupSession,
    createAccessToken: mintAccessToken,

    async createAccessTokenPayload(subject) {
      const access_token = await mintAccessToken(subject);
      const refresh = await mintRefreshToken(subject);
      await insertRefreshToken(deps.db, { tokenHash: refresh.hash, familyId: randomUUID(), sessionId: subject.session.id, now: deps.clock.now(), expiresAt: refresh.expiresAt });
      return { access_token, refresh_token: refresh.token };
    },

    async refreshToken(presented, client) {
      const now = deps.clock.now();
      const claims = await verifyToken(keys, presented, 'refresh', now);
      if (!claims) return null;
      const record = await findRefreshToken(deps.db, hashSecret(presented));
      if (!record) return null;
      const sessionKey = sid.decrypt(claims.sid);
      const live = sessionKey ? await tokenSession(claims.sub, sessionKey) : null;
      if (!live || live === 'gone' || live.session.id !== record.sessionId || !live.user.isActive) return null;
      const subject: TokenSubject = { sessionKey: live.sessionKey, session: live.session, user: live.user };
      if (!settings.rotateRefreshToken) return { access_token: await mintAccessToken(subject) };

      const successor = await mintRefreshToken(subject);
      const source = { ip: client?.ip ?? '', userAgent: client?.userAgent ?? '', now };
      const onReuse = (tx: Tx) => recordEvent(deps, tx, source, 'refresh_token.reused', { userId: live.user.id, outcome: 'failure' });
      const rotation = await rotateRefreshToken(deps.db, record, presented, successor, { now, graceMs: settings.refreshTokenReuseGrace * 1000, onReuse });
      if (rotation.kind === 'reused') {
        deps.metrics.refreshTokenReuse();
        deps.log.warn({ sessionId: record.sessionId, userId: live.user.id }, 'refresh token reused: token family and session revoked');
        return null;
      }
      return { access_token: await mintAccessToken(subject), refresh_token: rotation.kind === 'rotated' ? successor.token : rotation.successor };
    },

    authenticate(token) {
      const now = deps.clock.now();
      return andThen(verifiedAccess(token, now), (access) => accessSession(access, now));
    },

    jwks: () => keys.jwks,
  };
}
