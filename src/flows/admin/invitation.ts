import type { User } from '../../domain/user.js';
import { issueResetKey } from '../password/reset-key.js';
import { findLastLogin } from '../../store/users.js';
import { listUserEmailAddresses } from '../../store/email-addresses.js';
import { sendInvitation } from '../../messaging/notices.js';
import { recordEvent, type AuditSource } from '../../audit/recorder.js';
import { languageOf } from '../language.js';
import type { AdminDeps } from './webhooks.js';

// An invitation: the mail an administrator sends a person they made an
// account for, so that the person chooses their own password. Its link is a
// password reset link (the SPA's reset page takes it), with that link's
// rules: it works once, until PASSWORD_RESET_TIMEOUT, and dies at a login or
// a password set meanwhile; using it verifies the address. Only the words
// differ: nobody asked for a reset.

type MailDeps = Parameters<typeof sendInvitation>[0];

export type InvitationResult = { ok: true; email: string } | { ok: false; reason: 'no_address' | 'by_code' };

/** Whether invitations can be sent: with reset by code there is no link to mail. */
export function invitationsPossible(deps: AdminDeps): boolean {
  return !deps.config.account.passwordReset.byCode;
}

/** Mails the invitation to the user's primary address; records `account.invited`. Throws when the mail cannot be sent. */
export async function sendAccountInvitation(deps: AdminDeps & MailDeps, source: AuditSource, user: User): Promise<InvitationResult> {
  if (!invitationsPossible(deps)) return { ok: false, reason: 'by_code' };
  const address = (await listUserEmailAddresses(deps.db, user.id)).find((a) => a.primary);
  if (!address) return { ok: false, reason: 'no_address' };
  const claims = { userId: user.id, emailAddressId: address.id, issuedAt: source.now };
  const key = issueResetKey(deps.config, claims, { passwordHash: user.passwordHash, lastLoginAt: await findLastLogin(deps.db, user.id), email: address.email });
  await sendInvitation(deps, languageOf(deps, user), address.email, { key, user });
  await recordEvent(deps, deps.db, source, 'account.invited', { userId: user.id, detail: { email: address.email } });
  return { ok: true, email: address.email };
}
