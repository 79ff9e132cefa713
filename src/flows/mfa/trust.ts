import type { Deps, RequestContext } from '../context.js';
import type { User } from '../../domain/user.js';
import type { Conn } from '../../store/db.js';
import { listAuthenticators } from '../../store/mfa-authenticators.js';
import { secretRing, signer } from '../../security/signing.js';

// "Trust this browser" (MFA_TRUST_ENABLED): a signed cookie listing, for each
// account that chose it on this browser, a fingerprint of that account's
// security setup and when it was issued. A login from the browser skips the
// second factor while an entry younger than MFA_TRUST_COOKIE_AGE matches the
// account's current fingerprint. The fingerprint covers the password hash
// and every authenticator, so changing the password or any second factor
// (regenerating recovery codes included) ends the trust everywhere.

/** Entries kept per browser: one per account that trusted it, bounded so the cookie stays small. */
const MAX_ENTRIES = 10;

type Entry = [fingerprint: string, issuedAt: number];

function signers(deps: Deps) {
  const ring = secretRing(deps.config);
  return { cookie: signer(ring, 'mfa-trust-cookie'), fingerprint: signer(ring, 'mfa-trust-fingerprint') };
}

/** What the fingerprint covers; it is signed (never stored in clear), so the cookie reveals nothing of it. */
async function setup(conn: Conn, user: User): Promise<string> {
  const authenticators = await listAuthenticators(conn, user.id);
  return [user.id, user.passwordHash ?? '', ...authenticators.map((a) => `${a.id}:${a.type}:${a.createdAt}`)].join('|');
}

/** The live entries of a trust cookie; none when it is absent, forged, or signed by a key no longer in the ring. */
function entries(deps: Deps, cookie: string | undefined, now: number): Entry[] {
  if (!cookie) return [];
  const value = signers(deps).cookie.readValue(cookie);
  if (value === null) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  const oldest = now / 1000 - deps.config.mfa.trust.cookie.age;
  return parsed.filter((e): e is Entry => Array.isArray(e) && typeof e[0] === 'string' && typeof e[1] === 'number' && e[1] > oldest);
}

export async function isTrustedBrowser(deps: Deps, ctx: RequestContext, conn: Conn, user: User): Promise<boolean> {
  if (!deps.config.mfa.trust.enabled || ctx.client !== 'browser') return false;
  const live = entries(deps, ctx.mfaTrustCookie, ctx.now);
  if (live.length === 0) return false;
  const message = await setup(conn, user);
  const { fingerprint } = signers(deps);
  return live.some(([signature]) => fingerprint.verify(message, signature));
}

/** The trust cookie's next value: this browser's live entries plus one for `user`'s current setup. */
export async function trustCookieValue(deps: Deps, ctx: RequestContext, conn: Conn, user: User): Promise<string> {
  const { cookie, fingerprint } = signers(deps);
  const entry: Entry = [fingerprint.sign(await setup(conn, user)), Math.floor(ctx.now / 1000)];
  const kept = [...entries(deps, ctx.mfaTrustCookie, ctx.now), entry].slice(-MAX_ENTRIES);
  return cookie.signValue(Buffer.from(JSON.stringify(kept), 'utf8').toString('base64url'));
}
