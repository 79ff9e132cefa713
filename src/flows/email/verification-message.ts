import type { Deps, RequestContext } from '../context.js';
import type { LoginStart, VerifyEmailFlow } from '../../domain/session.js';
import { hashSecret, randomCode, randomKey } from '../../security/secrets.js';
import { issueOneTimeKey } from '../one-time-key.js';
import { sendEmailVerification } from '../../messaging/notices.js';
import type { Conn } from '../../store/db.js';

// The message that verifies an address: a link (a one-time key in the
// database) or a code (its hash in the session's verify_email flow), as
// ACCOUNT_EMAIL_VERIFICATION_BY_CODE_ENABLED says. Sending it begins the
// verify_email stage of a login; verifying is email-verification.ts.

export interface VerificationTarget {
  userId: number;
  emailAddressId: number;
  email: string;
}

/** Sends a verification link or code and returns the pending flow to store. */
export async function beginVerification(deps: Deps, ctx: RequestContext, target: VerificationTarget, login: LoginStart | null): Promise<VerifyEmailFlow> {
  const flow: VerifyEmailFlow = { id: 'verify_email', ...target, codeHash: null, codeExpiresAt: null, login };
  // The reference's cooldown: a repeated login with an unverified address
  // does not mail again within ACCOUNT_EMAIL_CONFIRMATION_COOLDOWN.
  const allowed = await deps.limiter.consume('confirm_email', { ip: ctx.ip, key: target.email });
  return sendVerification(deps, ctx, flow, allowed.ok);
}

export async function sendVerification(deps: Deps, ctx: RequestContext, flow: VerifyEmailFlow, send: boolean): Promise<VerifyEmailFlow> {
  const prepared = await prepareVerification(deps, ctx, flow, send);
  if (prepared.secret) await sendEmailVerification(deps, ctx.language, flow.email, prepared.secret);
  return prepared.flow;
}

/**
 * A verification ready to mail: the flow to store (with the code's hash when
 * by code) and the secret the mail carries, null when no mail is to go out.
 * A link's key is stored on `conn`, so it can commit with the account.
 */
export async function prepareVerification(
  deps: Deps,
  ctx: RequestContext,
  flow: VerifyEmailFlow,
  send: boolean,
  conn: Conn = deps.db,
): Promise<{ flow: VerifyEmailFlow; secret: { key: string } | { code: string } | null }> {
  const { account } = deps.config;
  if (account.emailVerificationByCode) {
    const code = randomCode();
    return { flow: { ...flow, codeHash: hashSecret(code), codeExpiresAt: ctx.now + account.emailVerificationByCodeTimeout * 1000 }, secret: send ? { code } : null };
  }
  if (!send || flow.userId === null || flow.emailAddressId === null) return { flow, secret: null };
  const key = await issueOneTimeKey(
    deps,
    {
      purpose: 'email_verification',
      userId: flow.userId,
      emailAddressId: flow.emailAddressId,
      email: flow.email,
      now: ctx.now,
      expiresAt: ctx.now + account.emailConfirmationExpireDays * 86400_000,
    },
    conn,
  );
  return { flow, secret: { key } };
}

/**
 * A stand-in flow for a signup whose address belongs to someone else: it
 * answers exactly like a real one, and no code or key can ever complete it.
 */
export function decoyVerification(deps: Deps, ctx: RequestContext, email: string): VerifyEmailFlow {
  const byCode = deps.config.account.emailVerificationByCode;
  return {
    id: 'verify_email',
    userId: null,
    emailAddressId: null,
    email,
    codeHash: byCode ? hashSecret(randomKey()) : null,
    codeExpiresAt: byCode ? ctx.now + deps.config.account.emailVerificationByCodeTimeout * 1000 : null,
    login: null,
  };
}

