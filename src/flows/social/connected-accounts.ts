import { Type, type Static } from 'typebox';
import type { Deps, RequestContext } from '../context.js';
import { hasUsablePassword } from '../../domain/user.js';
import { invalid, notAuthenticated, type FieldError, type Outcome, type SocialAccountInfo } from '../outcome.js';
import { deleteSocialAccount, listUserSocialAccounts, type SocialAccount } from '../../store/social-accounts.js';
import { listUserEmailAddresses } from '../../store/email-addresses.js';
import { findUserById, lockUser } from '../../store/users.js';
import { notify } from '../notice.js';
import { recordEvent } from '../../audit/recorder.js';

// GET and DELETE /account/providers: the user's connected provider accounts,
// and disconnecting one unless it is the last way to log in.

function info(deps: Deps, account: SocialAccount): SocialAccountInfo {
  const provider = deps.social.get(account.provider);
  return { uid: account.uid, provider: account.provider, app: provider?.app ?? null, display: provider ? provider.display(account.extraData) : account.uid };
}

export async function listProviderAccounts(deps: Deps, ctx: RequestContext): Promise<Outcome> {
  if (!ctx.user) return notAuthenticated;
  const accounts = await listUserSocialAccounts(deps.db, ctx.user.id);
  return { kind: 'social_accounts', accounts: accounts.map((a) => info(deps, a)) };
}

/** DELETE /account/providers's body. */
export const DisconnectInput = Type.Object({
  provider: Type.Optional(Type.String()),
  account: Type.Optional(Type.String({ description: 'The uid of the account to disconnect.' })),
});
export type DisconnectInput = Static<typeof DisconnectInput>;

export async function disconnectProviderAccount(deps: Deps, ctx: RequestContext, input: DisconnectInput): Promise<Outcome> {
  const user = ctx.user;
  if (!user) return notAuthenticated;
  const errors: FieldError[] = [];
  if (!input.provider) errors.push({ code: 'required', param: 'provider' });
  if (!input.account) errors.push({ code: 'required', param: 'account' });
  if (errors.length > 0) return invalid(...errors);
  const refused = await deps.db.transaction().execute(async (tx) => {
    // Two disconnects at once must not both pass the last-account check.
    await lockUser(tx, user.id);
    const accounts = await listUserSocialAccounts(tx, user.id);
    const target = accounts.find((a) => a.provider === input.provider && a.uid === input.account);
    if (!target) return invalid({ code: 'account_not_found' });
    if (accounts.length === 1) {
      const { social, account } = deps.config;
      if (social.only) return invalid({ code: 'disconnect_last' });
      // Without a password, or (under mandatory verification) a verified address to reset it with, the account would be unusable.
      const current = (await findUserById(tx, user.id))!;
      if (!hasUsablePassword(current)) return invalid({ code: 'no_password' });
      if (account.emailVerification === 'mandatory' && !(await listUserEmailAddresses(tx, user.id)).some((a) => a.verified)) {
        return invalid({ code: 'no_verified_email' });
      }
    }
    await deleteSocialAccount(tx, target.id);
    await recordEvent(deps, tx, ctx, 'social.disconnected', { userId: user.id, detail: { provider: target.provider } });
    return null;
  });
  if (refused) return refused;
  const name = deps.social.get(input.provider!)?.app.name ?? input.provider!;
  await notify(deps, ctx, 'socialaccount/email/account_disconnected', user.email, { provider: { id: input.provider, name }, account: { uid: input.account, provider: input.provider } });
  return listProviderAccounts(deps, ctx);
}
