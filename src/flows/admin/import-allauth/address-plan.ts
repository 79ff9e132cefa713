import type { SourceUser } from '../../../store/allauth/users.js';
import type { SourceEmailAddress } from '../../../store/allauth/email-addresses.js';
import type { SkipReason } from './summary.js';

export interface PlannedAddress {
  email: string;
  verified: boolean;
  primary: boolean;
  /** What remembers it once imported: its account_emailaddress row, or the user's own auth_user.email. */
  record: { kind: 'email_address' | 'user_email'; sourceId: string };
}

export interface AddressPlan {
  addresses: PlannedAddress[];
  skipped: SkipReason[];
}

/**
 * Which of a source user's addresses to bring over, and which is primary.
 *
 * - allauth's rows, plus auth_user.email when no row has it: allauth keeps
 *   it equal to the primary row, but users made outside allauth
 *   (createsuperuser) have it alone; it comes over unverified, as allauth
 *   itself would add it.
 * - One address per user here: rows that differ only in case merge, keeping
 *   any verified or primary flag.
 * - allauth lets an unverified address repeat across users; here an address
 *   has one holder, so an unverified one that another source user has
 *   verified stays with that user.
 * - Exactly one primary when any address remains: the source's, else the one
 *   in auth_user.email, else the first verified, else the first.
 */
export function planAddresses(user: SourceUser, rows: SourceEmailAddress[], verifiedByOther: (emailLower: string, userId: number) => boolean): AddressPlan {
  const skipped: SkipReason[] = [];
  const byLower = new Map<string, PlannedAddress>();
  const candidates: PlannedAddress[] = rows.map((row) => ({
    email: row.email,
    verified: row.verified,
    primary: row.primary,
    record: { kind: 'email_address', sourceId: String(row.id) },
  }));
  const userEmail = user.email.trim();
  if (userEmail && !rows.some((row) => row.email.toLowerCase() === userEmail.toLowerCase())) {
    candidates.push({ email: userEmail, verified: false, primary: false, record: { kind: 'user_email', sourceId: String(user.id) } });
  }
  for (const candidate of candidates) {
    const lower = candidate.email.toLowerCase();
    const kept = byLower.get(lower);
    if (kept) {
      kept.verified ||= candidate.verified;
      kept.primary ||= candidate.primary;
      skipped.push('duplicate');
    } else if (!candidate.verified && verifiedByOther(lower, user.id) && !candidates.some((c) => c.verified && c.email.toLowerCase() === lower)) {
      skipped.push('verified_by_another_user');
    } else {
      byLower.set(lower, { ...candidate });
    }
  }
  const addresses = [...byLower.values()];
  if (addresses.length > 0 && !addresses.some((a) => a.primary)) {
    const chosen =
      addresses.find((a) => a.email.toLowerCase() === userEmail.toLowerCase()) ?? addresses.find((a) => a.verified) ?? addresses[0]!;
    chosen.primary = true;
  }
  return { addresses, skipped };
}
