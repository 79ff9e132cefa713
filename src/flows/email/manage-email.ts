import type { Deps, RequestContext } from '../context.js';
import type { Session, VerifyEmailFlow } from '../../domain/session.js';
import type { User } from '../../domain/user.js';
import { forbidden, invalid, notAuthenticated, mailUnavailable, type Outcome } from '../outcome.js';
import { emailError, normalizeEmail } from '../validate.js';
import { msg } from '../../i18n/message.js';
import {
  deleteEmailAddress,
  deleteOtherEmailAddresses,
  findEmailAddress,
  insertEmailAddress,
  listUserEmailAddresses,
  setPrimaryEmailAddress,
  type EmailAddress,
} from '../../store/email-addresses.js';
import { replaceFlow, updateSessionState } from '../../store/sessions.js';
import { sendAccountAlreadyExists } from '../../messaging/notices.js';
import { sendVerification } from './verification-message.js';
import { requireRecentAuthentication } from '../auth/reauthentication.js';
import { notify, sendNotice } from '../notice.js';
import { mfaBlocksNewAddress } from '../mfa/authenticators.js';
import { recordEvent } from '../../audit/recorder.js';

// GET|POST|DELETE|PATCH|PUT /account/email. Changes need a recent
// authentication when ACCOUNT_REAUTHENTICATION_REQUIRED is on; all but the
// listing spend the manage_email rate limit.

type Caller = { session: Session; user: User };

/** The caller, or the outcome that stops the request: not logged in, not recent enough, or rate-limited. */
async function admit(deps: Deps, ctx: RequestContext, opts: { reauth: boolean; limited: Outcome | 'rate_limited' }): Promise<Caller | Outcome> {
  const { session, user } = ctx;
  if (!session || !user) return notAuthenticated;
  // ACCOUNT_REAUTHENTICATION_REQUIRED (off by default, as in the reference).
  const stale = opts.reauth && deps.config.account.reauthenticationRequired ? await requireRecentAuthentication(deps, session, user, ctx.now) : null;
  if (stale) return stale;
  const limit = await deps.limiter.consume('manage_email', { ip: ctx.ip, userId: user.id });
  if (!limit.ok) return opts.limited === 'rate_limited' ? { kind: 'rate_limited', retryAfterSeconds: limit.retryAfterSeconds } : opts.limited;
  return { session, user };
}

const isCaller = (value: Caller | Outcome): value is Caller => !('kind' in value);

async function list(deps: Deps, userId: number): Promise<Outcome> {
  return { kind: 'email_addresses', addresses: await listUserEmailAddresses(deps.db, userId) };
}

/** The caller's own address `email`, or the unknown_email error. */
async function ownAddress(deps: Deps, user: User, raw: string): Promise<EmailAddress | Outcome> {
  const email = normalizeEmail(raw);
  const error = emailError(email);
  if (error) return invalid(error);
  const address = await findEmailAddress(deps.db, email);
  return address?.userId === user.id ? address : invalid({ code: 'unknown_email', param: 'email' });
}

const isAddress = (value: EmailAddress | Outcome): value is EmailAddress => !('kind' in value);

export async function listEmailAddresses(deps: Deps, ctx: RequestContext): Promise<Outcome> {
  return ctx.user ? list(deps, ctx.user.id) : notAuthenticated;
}

/**
 * POST: adds an address and sends its verification. With ACCOUNT_CHANGE_EMAIL
 * the new address replaces any other one still waiting, and replaces the
 * current one once verified. An address that belongs to another account is
 * not revealed under enumeration prevention: its owner is told by mail and
 * the list comes back unchanged.
 */
export async function addEmailAddress(deps: Deps, ctx: RequestContext, raw: string): Promise<Outcome> {
  const caller = await admit(deps, ctx, { reauth: true, limited: 'rate_limited' });
  if (!isCaller(caller)) return caller;
  const { user, session } = caller;
  const { account } = deps.config;
  const email = normalizeEmail(raw);
  const error = emailError(email);
  if (error) return invalid(error);
  if (await mfaBlocksNewAddress(deps, user)) return invalid({ code: 'add_email_blocked', param: 'email' });

  const existing = await findEmailAddress(deps.db, email);
  if (existing?.userId === user.id) return invalid({ code: 'duplicate_email', param: 'email' });
  if (existing && !account.preventEnumeration) return invalid({ code: 'email_taken', param: 'email' });
  const addresses = await listUserEmailAddresses(deps.db, user.id);
  const { maxAddresses, changeEmail } = account.emailManagement;
  if (!changeEmail && maxAddresses !== null && addresses.length >= maxAddresses) {
    return invalid({ code: 'max_email_addresses', param: 'email', message: msg('max_email_addresses.max', { max: maxAddresses }) });
  }

  const added = existing
    ? null
    : await deps.db.transaction().execute(async (tx) => {
        const primary = addresses.find((a) => a.primary);
        // ACCOUNT_CHANGE_EMAIL: the new address replaces any other still waiting for verification.
        const replaced = changeEmail && primary ? await deleteOtherEmailAddresses(tx, user.id, primary.id, { onlyUnverified: true }) : [];
        for (const old of replaced) await recordEvent(deps, tx, ctx, 'email.removed', { userId: user.id, detail: { email: old, reason: 'replaced' } });
        const inserted = await insertEmailAddress(tx, { userId: user.id, email, primary: addresses.length === 0, now: ctx.now });
        if (inserted) await recordEvent(deps, tx, ctx, 'email.added', { userId: user.id, detail: { email } });
        return inserted;
      });
  if (!added) {
    // Taken, possibly by a signup a moment ago.
    if (!account.preventEnumeration) return invalid({ code: 'email_taken', param: 'email' });
    const allowed = await deps.limiter.consume('confirm_email', { ip: ctx.ip, key: email });
    if (allowed.ok) await sendNotice(deps, sendAccountAlreadyExists(deps, ctx.language, email), 'account-exists');
    return list(deps, user.id);
  }

  const allowed = await deps.limiter.consume('confirm_email', { ip: ctx.ip, key: email });
  try {
    await startVerification(deps, ctx, session, added, allowed.ok);
  } catch (e) {
    deps.log.error({ err: e }, 'verification mail failed; address not added');
    await deps.db.transaction().execute(async (tx) => {
      await deleteEmailAddress(tx, added.id);
      await recordEvent(deps, tx, ctx, 'email.removed', { userId: user.id, detail: { email, reason: 'mail_unavailable' } });
    });
    return mailUnavailable;
  }
  return list(deps, user.id);
}

/**
 * Sends the link or code for `address`. A code flow is kept in the
 * logged-in session; one already pending for the same address keeps its
 * attempt count, so asking again never buys more guesses.
 */
async function startVerification(deps: Deps, ctx: RequestContext, session: Session, address: EmailAddress, send: boolean): Promise<void> {
  const pending = session.flow?.id === 'verify_email' && session.flow.emailAddressId === address.id ? session.flow : null;
  const base: VerifyEmailFlow = pending ?? {
    id: 'verify_email',
    userId: address.userId,
    emailAddressId: address.id,
    email: address.email,
    codeHash: null,
    codeExpiresAt: null,
    login: null,
  };
  const flow = await sendVerification(deps, ctx, base, send);
  if (flow.codeHash === null || !send) return;
  if (pending) await replaceFlow(deps.db, session.id, flow, pending);
  else await updateSessionState(deps.db, session.id, { userId: session.userId, methods: session.methods, flow, flowAttempts: 0 });
}

/** DELETE: never the last address, nor the primary one while others exist. */
export async function removeEmailAddress(deps: Deps, ctx: RequestContext, raw: string): Promise<Outcome> {
  const caller = await admit(deps, ctx, { reauth: true, limited: 'rate_limited' });
  if (!isCaller(caller)) return caller;
  const address = await ownAddress(deps, caller.user, raw);
  if (!isAddress(address)) return address;
  const addresses = await listUserEmailAddresses(deps.db, caller.user.id);
  if (address.primary || addresses.length <= 1) return invalid({ code: 'cannot_remove_primary_email', param: 'email' });
  const removed = await deps.db.transaction().execute(async (tx) => {
    const deleted = await deleteEmailAddress(tx, address.id);
    if (deleted) await recordEvent(deps, tx, ctx, 'email.removed', { userId: caller.user.id, detail: { email: address.email } });
    return deleted;
  });
  if (removed) await notify(deps, ctx, 'account/email/email_deleted', addresses.find((a) => a.primary)?.email, { deleted_email: address.email });
  return list(deps, caller.user.id);
}

/** PATCH: a verified address becomes primary (an unverified one only while none is verified). */
export async function markPrimaryEmailAddress(deps: Deps, ctx: RequestContext, raw: string): Promise<Outcome> {
  const caller = await admit(deps, ctx, { reauth: true, limited: 'rate_limited' });
  if (!isCaller(caller)) return caller;
  const address = await ownAddress(deps, caller.user, raw);
  if (!isAddress(address)) return address;
  if (!address.primary) {
    const addresses = await listUserEmailAddresses(deps.db, caller.user.id);
    if (!address.verified && addresses.some((a) => a.verified)) return invalid({ code: 'unverified_primary_email', param: 'email' });
    await deps.db.transaction().execute(async (tx) => {
      await setPrimaryEmailAddress(tx, caller.user.id, address.id);
      await recordEvent(deps, tx, ctx, 'email.primary_changed', { userId: caller.user.id, detail: { email: address.email } });
    });
    // To the old primary address, as the reference: the one that may have lost the account.
    const before = addresses.find((a) => a.primary);
    if (before) await notify(deps, ctx, 'account/email/email_changed', before.email, { from_email: before.email, to_email: address.email });
  }
  return list(deps, caller.user.id);
}

/** PUT: sends the verification again; 403 when not sent (verified already, or rate-limited). */
export async function resendEmailVerification(deps: Deps, ctx: RequestContext, raw: string): Promise<Outcome> {
  const caller = await admit(deps, ctx, { reauth: false, limited: forbidden });
  if (!isCaller(caller)) return caller;
  const address = await ownAddress(deps, caller.user, raw);
  if (!isAddress(address)) return address;
  if (address.verified) return forbidden;
  const allowed = await deps.limiter.consume('confirm_email', { ip: ctx.ip, key: address.email });
  if (!allowed.ok) return forbidden;
  try {
    await startVerification(deps, ctx, caller.session, address, true);
  } catch (e) {
    deps.log.error({ err: e }, 'verification mail failed');
    return mailUnavailable;
  }
  return { kind: 'ok' };
}
