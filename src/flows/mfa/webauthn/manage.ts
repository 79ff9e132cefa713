import { Type, type Static } from 'typebox';
import type { Deps, RequestContext } from '../../context.js';
import type { WebAuthnAuthenticator } from '../../../domain/authenticator.js';
import { invalid, notAuthenticated, type Outcome } from '../../outcome.js';
import { allOrNothing } from '../../../store/all-or-nothing.js';
import { takeChallenge } from '../../../store/mfa-challenges.js';
import { deleteAuthenticators, deleteDanglingRecoveryCodes, insertWebAuthn, listAuthenticators, renameWebAuthn } from '../../../store/mfa-authenticators.js';
import { requireRecentAuthentication } from '../../auth/reauthentication.js';
import { describeAuthenticator, unverifiedAddressBlocks } from '../authenticators.js';
import { ensureRecoveryCodes, recordCodesRemoved } from '../recovery-codes.js';
import { creation, heldChallenge, holdChallenge } from './ceremony.js';
import { creationOptions, verifyCreation } from './relying-party.js';
import { CredentialRef, KeyName } from './credential.js';
import { notify } from '../../notice.js';
import { recordEvent } from '../../../audit/recorder.js';

// GET|POST|PUT|DELETE /account/authenticators/webauthn: security keys and
// passkeys of a logged-in account. Every one needs a recent authentication.

const NAME_MAX = 100;

async function webauthnOf(deps: Deps, userId: number): Promise<WebAuthnAuthenticator[]> {
  return (await listAuthenticators(deps.db, userId)).filter((a): a is WebAuthnAuthenticator => a.type === 'webauthn');
}

/** The reference's default names: the first key, the second, then numbered. */
function defaultName(count: number): string {
  return count === 0 ? 'Master key' : count === 1 ? 'Backup key' : `Key nr. ${count + 1}`;
}

/** GET: creation options; `passwordless` asks for a passkey (discoverable, with user verification). */
export async function beginRegistration(deps: Deps, ctx: RequestContext, passwordless: boolean): Promise<Outcome> {
  const { session, user } = ctx;
  if (!session || !user) return notAuthenticated;
  if (await unverifiedAddressBlocks(deps, user)) return { kind: 'conflict', errors: [{ code: 'unverified_email' }] };
  const stale = await requireRecentAuthentication(deps, session, user, ctx.now);
  if (stale) return stale;
  const { options, challengeHash } = await creationOptions(deps, user, await webauthnOf(deps, user.id), passwordless);
  await holdChallenge(deps, ctx, session, 'webauthn_register', challengeHash, user.id, { passwordless });
  return { kind: 'webauthn_options', options: creation(options) };
}

/** POST's body. */
export const AddKeyInput = Type.Object({
  name: Type.Optional(KeyName),
  credential: CredentialRef,
  passwordless: Type.Optional(Type.Boolean({ description: 'Accepted for compatibility; the options decide.' })),
});
export type AddKeyInput = Static<typeof AddKeyInput>;

/**
 * POST: adds the credential created for the session's last options. Recovery
 * codes come with the first second factor. A credential that does not
 * verify, or comes without options, answers incorrect_code (for the whole
 * request, as in the reference).
 */
export async function addWebAuthn(deps: Deps, ctx: RequestContext, input: AddKeyInput): Promise<Outcome> {
  const { session, user } = ctx;
  if (!session || !user) return notAuthenticated;
  if (await unverifiedAddressBlocks(deps, user)) return { kind: 'conflict', errors: [{ code: 'unverified_email' }] };
  const name = input.name?.trim() ?? '';
  if (name.length > NAME_MAX) return invalid({ code: 'max_length', param: 'name' });
  const stale = await requireRecentAuthentication(deps, session, user, ctx.now);
  if (stale) return stale;
  const challenge = await heldChallenge(deps, ctx, 'webauthn_register', user.id);
  const made = challenge && (await verifyCreation(deps, input.credential, challenge.value, challenge.data.passwordless === true));
  if (!challenge || !made) return invalid({ code: 'incorrect_code' });
  const count = (await webauthnOf(deps, user.id)).length;
  const added = await allOrNothing(deps.db, async (tx) => {
    if (!(await takeChallenge(tx, challenge))) return null;
    const authenticator = await insertWebAuthn(tx, { userId: user.id, name: name || defaultName(count), ...made, now: ctx.now });
    if (!authenticator) return null;
    await recordEvent(deps, tx, ctx, 'authenticator.added', { userId: user.id, detail: { authenticator: 'webauthn', authenticator_id: authenticator.id, ...(authenticator.passwordless ? { method: 'passkey' as const } : {}) } });
    return { authenticator, recoveryCodes: await ensureRecoveryCodes(deps, tx, user.id, ctx.now) };
  });
  // Used meanwhile, or a credential already registered (to anyone).
  if (!added) return invalid({ code: 'incorrect_code' });
  await notify(deps, ctx, 'mfa/email/webauthn_added', user.email);
  return { kind: 'authenticator', authenticator: describeAuthenticator(deps, added.authenticator), meta: { recovery_codes_generated: added.recoveryCodes } };
}

/** PUT's body. */
export const RenameKeyInput = Type.Object({ id: Type.Integer(), name: KeyName });
export type RenameKeyInput = Static<typeof RenameKeyInput>;

/** PUT: renames one of the account's keys. */
export async function renameWebAuthnKey(deps: Deps, ctx: RequestContext, input: RenameKeyInput): Promise<Outcome> {
  const { session, user } = ctx;
  if (!session || !user) return notAuthenticated;
  const name = input.name.trim();
  if (name === '') return invalid({ code: 'required', param: 'name' });
  if (name.length > NAME_MAX) return invalid({ code: 'max_length', param: 'name' });
  const key = (await webauthnOf(deps, user.id)).find((a) => a.id === input.id);
  if (!key) return invalid({ code: 'invalid_choice', param: 'id' });
  const stale = await requireRecentAuthentication(deps, session, user, ctx.now);
  if (stale) return stale;
  return { kind: 'authenticator', authenticator: describeAuthenticator(deps, await renameWebAuthn(deps.db, key, name)) };
}

/** DELETE: removes keys of the account; the recovery codes go too once no second factor is left. */
export async function removeWebAuthnKeys(deps: Deps, ctx: RequestContext, ids: number[]): Promise<Outcome> {
  const { session, user } = ctx;
  if (!session || !user) return notAuthenticated;
  const own = new Set((await webauthnOf(deps, user.id)).map((a) => a.id));
  if (ids.length === 0) return invalid({ code: 'required', param: 'authenticators' });
  if (!ids.every((id) => own.has(id))) return invalid({ code: 'invalid_choice', param: 'authenticators' });
  const stale = await requireRecentAuthentication(deps, session, user, ctx.now);
  if (stale) return stale;
  await deps.db.transaction().execute(async (tx) => {
    await deleteAuthenticators(tx, user.id, ids);
    const codes = await deleteDanglingRecoveryCodes(tx, user.id);
    for (const id of ids) await recordEvent(deps, tx, ctx, 'authenticator.removed', { userId: user.id, detail: { authenticator: 'webauthn', authenticator_id: id } });
    await recordCodesRemoved(deps, tx, ctx, user.id, codes);
  });
  // One notice per key, as in the reference.
  for (const _ of ids) await notify(deps, ctx, 'mfa/email/webauthn_removed', user.email);
  return { kind: 'ok' };
}
