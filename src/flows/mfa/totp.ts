import type { Deps, RequestContext } from '../context.js';
import type { User } from '../../domain/user.js';
import { conflict, invalid, notAuthenticated, type Outcome } from '../outcome.js';
import { sealContext } from '../../domain/authenticator.js';
import { deleteAuthenticators, deleteDanglingRecoveryCodes, findAuthenticator, insertTotp } from '../../store/mfa-authenticators.js';
import { findChallenge, putChallenge, takeChallenge } from '../../store/mfa-challenges.js';
import { allOrNothing } from '../../store/all-or-nothing.js';
import { matchTotp, newTotpSecret, totpUrl } from '../../security/totp.js';
import { normalizeCode } from '../../security/secrets.js';
import { requireRecentAuthentication } from '../auth/reauthentication.js';
import { describeAuthenticator, unverifiedAddressBlocks } from './authenticators.js';
import { ensureRecoveryCodes, recordCodesRemoved } from './recovery-codes.js';
import { notify } from '../notice.js';
import { recordEvent } from '../../audit/recorder.js';

// GET|POST|DELETE /account/authenticators/totp. Setting up: every GET offers
// a new secret, kept (sealed) with the session; a code of the latest one
// activates it.

/** The secret offered to a session is sealed for that session alone. */
const setupContext = (sessionId: number) => `mfa:totp-setup:${sessionId}`;

/** The account name authenticator apps show: the email address, else the username. */
function label(user: User): string {
  return user.email ?? user.username ?? `user ${user.id}`;
}

/** GET: the active TOTP authenticator, or (404) a new secret to set one up with. */
export async function describeTotp(deps: Deps, ctx: RequestContext): Promise<Outcome> {
  const { session, user } = ctx;
  if (!session || !user) return notAuthenticated;
  const totp = await findAuthenticator(deps.db, user.id, 'totp');
  if (totp) return { kind: 'authenticator', authenticator: describeAuthenticator(deps, totp) };
  if (await unverifiedAddressBlocks(deps, user)) return { kind: 'conflict', errors: [{ code: 'unverified_email' }] };
  const { totp: settings } = deps.config.mfa;
  const secret = newTotpSecret();
  await putChallenge(deps.db, {
    sessionId: session.id,
    purpose: 'totp_setup',
    userId: user.id,
    value: deps.atRest.seal(secret, setupContext(session.id)),
    data: {},
    expiresAt: ctx.now + deps.config.account.loginTimeout * 1000,
  });
  const url = totpUrl(secret, label(user), settings.issuer, settings);
  // Loaded on first use: only a TOTP setup draws a QR code.
  const { default: QRCode } = await import('qrcode');
  const svg = await QRCode.toString(url, { type: 'svg', margin: 1 });
  return { kind: 'totp_setup', secret, totpUrl: url, qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
}

/**
 * POST: activates the secret of the session's last GET with a code of it.
 * The code is not spent: it may log in at once, as in the reference.
 * Recovery codes come with the first TOTP or WebAuthn authenticator.
 */
export async function activateTotp(deps: Deps, ctx: RequestContext, code: string): Promise<Outcome> {
  const { session, user } = ctx;
  if (!session || !user) return notAuthenticated;
  if (await findAuthenticator(deps.db, user.id, 'totp')) return conflict;
  if (await unverifiedAddressBlocks(deps, user)) return invalid({ code: 'unverified_email', param: 'code' });
  const challenge = await findChallenge(deps.db, session.id, 'totp_setup', ctx.now);
  const secret = challenge?.userId === user.id ? deps.atRest.open(challenge.value, setupContext(session.id)) : null;
  const { totp: settings } = deps.config.mfa;
  if (!challenge || secret === null || matchTotp(secret, normalizeCode(code), ctx.now, settings) === null) {
    return invalid({ code: 'incorrect_code', param: 'code' });
  }
  const stale = await requireRecentAuthentication(deps, session, user, ctx.now);
  if (stale) return stale;
  const activated = await allOrNothing(deps.db, async (tx) => {
    if (!(await takeChallenge(tx, challenge))) return null;
    const totp = await insertTotp(tx, user.id, deps.atRest.seal(secret, sealContext('totp', user.id)), ctx.now);
    if (!totp) return null;
    await ensureRecoveryCodes(deps, tx, user.id, ctx.now);
    await recordEvent(deps, tx, ctx, 'authenticator.added', { userId: user.id, detail: { authenticator: 'totp' } });
    return totp;
  });
  // Already active (a parallel activation won, or TOTP was on before): the reference would fail on its unique index.
  if (!activated) return conflict;
  await notify(deps, ctx, 'mfa/email/totp_activated', user.email);
  return { kind: 'authenticator', authenticator: describeAuthenticator(deps, activated) };
}

/** DELETE: removes TOTP, and the recovery codes with it when no other second factor is left. */
export async function deactivateTotp(deps: Deps, ctx: RequestContext): Promise<Outcome> {
  const { session, user } = ctx;
  if (!session || !user) return notAuthenticated;
  const totp = await findAuthenticator(deps.db, user.id, 'totp');
  // Nothing to remove: 200 without asking for a recent login, as in the reference.
  if (!totp) return { kind: 'ok' };
  const stale = await requireRecentAuthentication(deps, session, user, ctx.now);
  if (stale) return stale;
  await deps.db.transaction().execute(async (tx) => {
    await deleteAuthenticators(tx, user.id, [totp.id]);
    const codes = await deleteDanglingRecoveryCodes(tx, user.id);
    await recordEvent(deps, tx, ctx, 'authenticator.removed', { userId: user.id, detail: { authenticator: 'totp' } });
    await recordCodesRemoved(deps, tx, ctx, user.id, codes);
  });
  await notify(deps, ctx, 'mfa/email/totp_deactivated', user.email);
  return { kind: 'ok' };
}
