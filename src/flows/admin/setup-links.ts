import { Type, type Static } from 'typebox';
import type { Deps, RequestContext } from '../context.js';
import type { AuthMethod } from '../../domain/session.js';
import { hasUsablePassword, type User } from '../../domain/user.js';
import { conflict, invalid, type Outcome } from '../outcome.js';
import { passwordErrors } from '../validate.js';
import { hashPassword, verifyPassword } from '../../security/passwords.js';
import { constantTimeEqual, hashSecret, randomKey } from '../../security/secrets.js';
import { findSetupLink, replaceSetupLink, spendSetupLink, type AdminSetupLink } from '../../store/admin-setup-links.js';
import { findUserById, isUserAdmin, setPasswordHash } from '../../store/users.js';
import { listUserEmailAddresses } from '../../store/email-addresses.js';
import { recordEvent, recordFailure, type AuditSource } from '../../audit/recorder.js';
import { nowSeconds } from '../session-ops.js';
import { advanceLogin, afterFirstFactor } from '../login/pipeline.js';
import type { AdminDeps } from './webhooks.js';

// One-time setup links for the admin console: the CLI prints one for an
// administrator (`users set-admin <user> --setup-link`); opening it in the
// console lets them choose a password when the account has none (or confirm
// the one it has), which signs them in, and the console then has them enrol
// a second factor (console-enrolment.ts). A link is `<id>.<secret>`: only
// the SHA-256 of the secret is stored, compared in constant time; it works
// once, until it expires, for a user who still has the admin role.

/** How long a link works unless told otherwise: a day. */
export const SETUP_LINK_LIFETIME_MS = 24 * 60 * 60 * 1000;

export type SetupLinkResult = { ok: true; token: string; link: AdminSetupLink } | { ok: false; error: { code: 'invalid'; param: 'expires_at'; message: string } };

/** A new link for `user` (their earlier ones stop working); the token is in the answer and nowhere else. */
export async function createSetupLink(deps: AdminDeps, source: AuditSource, user: User, expiresAt: number): Promise<SetupLinkResult> {
  if (expiresAt <= source.now) return { ok: false, error: { code: 'invalid', param: 'expires_at', message: 'The expiry is in the past.' } };
  const secret = randomKey(32);
  const link = await deps.db.transaction().execute(async (tx) => {
    const made = await replaceSetupLink(tx, { userId: user.id, secretHash: hashSecret(secret), now: source.now, expiresAt });
    await recordEvent(deps, tx, source, 'admin.setup_link_created', { userId: user.id });
    return made;
  });
  return { ok: true, token: `${link.id}.${secret}`, link };
}

/** Whether an unverified address will stop the user from adding a second factor (MFA_ALLOW_UNVERIFIED_EMAIL off). */
export async function unverifiedAddressBlocksEnrolment(deps: AdminDeps, userId: number): Promise<boolean> {
  if (deps.config.mfa.allowUnverifiedEmail) return false;
  return (await listUserEmailAddresses(deps.db, userId)).some((a) => !a.verified);
}

/** The console page a token opens (the token in the fragment: it never reaches a server log). */
export function setupLinkUrl(consoleUrl: string, token: string): string {
  return `${consoleUrl.replace(/\/+$/, '')}#/setup?token=${encodeURIComponent(token)}`;
}

/** The live link a token names with its administrator, or null (unknown, wrong secret, used, expired, no longer an admin, inactive). */
async function readLink(deps: Deps, token: string, now: number): Promise<{ link: AdminSetupLink; user: User } | null> {
  const match = /^(\d{1,15})\.([A-Za-z0-9_-]{20,100})$/.exec(token.trim());
  if (!match) return null;
  const link = await findSetupLink(deps.db, Number(match[1]));
  // Compared even for an unknown id, so that the answer takes as long either way.
  const secretMatches = constantTimeEqual(hashSecret(match[2]!), link?.secretHash ?? '0'.repeat(64));
  if (!link || !secretMatches || link.usedAt !== null || link.expiresAt <= now) return null;
  const user = await findUserById(deps.db, link.userId);
  if (!user?.isActive || !(await isUserAdmin(deps.db, user.id))) return null;
  return { link, user };
}

const refused = invalid({ code: 'invalid_or_expired_key', param: 'key' });

/** GET: whose link it is, and whether they have a password (`has_usable_password` of the user). Spends nothing. */
export async function describeSetupLink(deps: Deps, ctx: RequestContext, token: string): Promise<Outcome> {
  const found = await readLink(deps, token, ctx.now);
  return found ? { kind: 'password_reset_info', user: found.user } : refused;
}

/** POST's body. */
export const RedeemSetupLinkInput = Type.Object({
  key: Type.String({ description: 'The token of the link (after `token=`).' }),
  password: Type.String({ description: 'A new password when the account has none (under the password rules), otherwise its current one.' }),
});
export type RedeemSetupLinkInput = Static<typeof RedeemSetupLinkInput>;

/**
 * POST: with the account's current password, or a new one when it has none,
 * spends the link and signs the session in with that password (the login's
 * stages follow as for any password login: a second factor, if the account
 * has one by now, is asked for).
 */
export async function redeemSetupLink(deps: Deps, ctx: RequestContext, input: RedeemSetupLinkInput): Promise<Outcome> {
  if (ctx.user) return conflict;
  const found = await readLink(deps, input.key, ctx.now);
  if (!found) return refused;
  const { link, user } = found;
  const setsPassword = !hasUsablePassword(user);
  let hash: string | null = null;
  if (setsPassword) {
    const errors = passwordErrors(deps.config, input.password, 'password', [user.email, user.username]);
    if (errors.length > 0) return invalid(...errors);
    hash = await hashPassword(input.password);
  } else {
    const identifier = user.email ?? user.username ?? String(user.id);
    const attempt = await deps.limiter.guarded('login_failed', { ip: ctx.ip, key: identifier }, async () => {
      const verdict = await verifyPassword(input.password, user.passwordHash);
      return { succeeded: verdict.ok, value: verdict.ok };
    });
    if (!attempt.ok) return invalid({ code: 'too_many_login_attempts' });
    if (!attempt.value) {
      await recordFailure(deps, ctx, 'login.failed', user.id, 'invalid_password', { method: 'password', identifier });
      return invalid({ code: 'incorrect_password', param: 'password' });
    }
  }
  const spent = await deps.db.transaction().execute(async (tx) => {
    if (!(await spendSetupLink(tx, link.id, ctx.now))) return false;
    if (hash !== null) {
      await setPasswordHash(tx, user.id, hash, ctx.now);
      await recordEvent(deps, tx, ctx, 'password.changed', { userId: user.id, detail: { sessions: 0 } });
    }
    await recordEvent(deps, tx, ctx, 'admin.setup_link_used', { userId: user.id });
    return true;
  });
  if (!spent) return refused;
  const signedIn: User = hash === null ? user : { ...user, passwordHash: hash, passwordChangedAt: ctx.now };
  const at = nowSeconds(ctx.now);
  const method: AuthMethod = user.email ? { method: 'password', at, email: user.email } : { method: 'password', at, username: user.username ?? undefined };
  return (await advanceLogin(deps, ctx, afterFirstFactor(signedIn, method, { via: 'credentials', email: user.email })))!;
}
