import type { CliContext } from '../context.js';
import { AUTHENTICATOR_TYPES, type Authenticator, type AuthenticatorType } from '../../domain/authenticator.js';
import { formatTime, isoTime, table } from '../output.js';
import { CliError } from '../errors.js';
import { cliSource } from '../../audit/recorder.js';
import * as admin from '../../flows/admin/authenticators.js';

// A user's second factors as an administrator sees them: what they are and
// when they were used, never a secret (no TOTP secret, seed or code).

export { viewAuthenticator, type AuthenticatorView } from '../../flows/admin/authenticators.js';
import type { AuthenticatorView } from '../../flows/admin/authenticators.js';

export function authenticatorJson(a: AuthenticatorView) {
  return {
    id: a.id,
    type: a.type,
    created_at: isoTime(a.createdAt),
    last_used_at: isoTime(a.lastUsedAt),
    ...(a.key ? { name: a.key.name, passkey: a.key.passkey } : {}),
    ...(a.recoveryCodes ? { recovery_codes: a.recoveryCodes } : {}),
  };
}

function details(a: AuthenticatorView): string {
  if (a.key) return `"${a.key.name}", ${a.key.passkey === true ? 'passkey' : a.key.passkey === false ? 'security key' : 'passkey or not: unknown'}`;
  if (a.recoveryCodes) return `${a.recoveryCodes.unused} of ${a.recoveryCodes.total} unused`;
  return '';
}

export function authenticatorsText(authenticators: AuthenticatorView[]): string {
  if (authenticators.length === 0) return 'no authenticators';
  return table(
    ['ID', 'TYPE', 'CREATED', 'LAST USED', 'DETAILS'],
    authenticators.map((a) => [String(a.id), a.type, formatTime(a.createdAt), formatTime(a.lastUsedAt), details(a)]),
  );
}

/** The user's authenticators that `which` names: ids of theirs or type names (all of that type). */
export function selectAuthenticators(authenticators: Authenticator[], which: string[]): Authenticator[] {
  const chosen = new Map<number, Authenticator>();
  for (const item of which) {
    const found = (AUTHENTICATOR_TYPES as readonly string[]).includes(item)
      ? authenticators.filter((a) => a.type === (item as AuthenticatorType))
      : authenticators.filter((a) => /^\d{1,15}$/.test(item) && a.id === Number(item));
    if (found.length === 0) throw CliError.of('not_found', `the user has no authenticator "${item}" (an id from \`authenticators list\`, or ${AUTHENTICATOR_TYPES.join(', ')})`, 'authenticator');
    for (const a of found) chosen.set(a.id, a);
  }
  return [...chosen.values()];
}

/** `authenticators delete` over flows/admin/authenticators.ts: every authenticator that went. */
export function removeAuthenticators(ctx: CliContext, userId: number, chosen: Authenticator[]): Promise<Authenticator[]> {
  return admin.removeAuthenticators(ctx, cliSource(ctx.now()), userId, chosen);
}
