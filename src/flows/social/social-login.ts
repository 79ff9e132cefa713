import type { Deps, RequestContext } from '../context.js';
import type { User } from '../../domain/user.js';
import type { Provider } from '../../social/provider-type.js';
import { forbidden, invalid, type Outcome } from '../outcome.js';
import { findUserByEmail, findUserById, setPasswordHash } from '../../store/users.js';
import { findEmailAddress } from '../../store/email-addresses.js';
import { findSocialAccount, insertSocialAccount, recordSocialLogin, type SocialAccount } from '../../store/social-accounts.js';
import { deleteUserSessions } from '../../store/sessions.js';
import type { Conn } from '../../store/db.js';
import { dropFlow } from '../session-ops.js';
import { storeProviderTokens } from './provider-tokens.js';
import { socialAuthenticate, socialMethod } from './social-stage.js';
import { socialSignup, type SocialLogin } from './social-signup.js';
import { revokeProviderGrants } from '../idp/grant-revocation.js';
import { notify } from '../notice.js';
import { recordEvent } from '../../audit/recorder.js';

// What a verified provider login leads to, after either flow (redirect or
// token): the reference's rules for login, linking and connecting.
//
// login:   the account (provider, uid) exists → its user. Otherwise, when
//          email authentication is on for the app, a *verified* provider
//          address that an account has → that account. Otherwise a new user
//          (social-signup.ts). Never a link on email alone.
// connect: the logged-in user gains the account, unless it belongs to
//          someone else (connected_other).

export type Process = 'login' | 'connect';

export async function completeSocialLogin(deps: Deps, ctx: RequestContext, provider: Provider, login: SocialLogin, process: Process): Promise<Outcome> {
  return process === 'connect' ? connect(deps, ctx, provider, login) : logInWith(deps, ctx, provider, login);
}

/** What the provider said this time, and its tokens, onto the stored account. */
async function refresh(deps: Deps, conn: Conn, provider: Provider, account: SocialAccount, login: SocialLogin, now: number): Promise<void> {
  const extraData = provider.mergeExtraData ? provider.mergeExtraData(account.extraData, login.identity.extraData) : login.identity.extraData;
  await recordSocialLogin(conn, account.id, extraData, now);
  await storeProviderTokens(deps, conn, account.id, login.tokens, now);
}

async function logInWith(deps: Deps, ctx: RequestContext, provider: Provider, login: SocialLogin): Promise<Outcome> {
  const { app, identity } = login;
  // A new social login replaces a pending provider signup.
  if (ctx.session?.flow?.id === 'provider_signup') {
    await dropFlow(deps, ctx.session);
    ctx = { ...ctx, session: { ...ctx.session, flow: null, flowAttempts: 0 } };
  }
  const method = socialMethod(ctx, app.id, identity.uid);
  const existing = await findSocialAccount(deps.db, app.id, identity.uid);
  if (existing) {
    await refresh(deps, deps.db, provider, existing, login, ctx.now);
    const user = await findUserById(deps.db, existing.userId);
    return socialAuthenticate(deps, ctx, user!, method, { signup: false });
  }
  const owner = await ownerByVerifiedEmail(deps, login);
  if (owner) {
    await acceptEmailAuthentication(deps, ctx, owner.user, owner.email, login);
    return socialAuthenticate(deps, ctx, (await findUserById(deps.db, owner.user.id))!, method, { signup: false });
  }
  return socialSignup(deps, ctx, login);
}

/** SOCIALACCOUNT_EMAIL_AUTHENTICATION (or the app's email_authentication): the account owning a verified provider address. */
async function ownerByVerifiedEmail(deps: Deps, login: SocialLogin): Promise<{ user: User; email: string } | null> {
  const enabled = login.app.common.emailAuthentication ?? deps.config.social.emailAuthentication;
  if (!enabled) return null;
  for (const { email, verified } of login.identity.emails) {
    // An address the provider does not vouch for never opens someone's account.
    if (!verified) continue;
    const user = await findUserByEmail(deps.db, email);
    if (user) return { user, email };
  }
  return null;
}

/**
 * Logging in to an existing account by its address. If that address was not
 * verified, whoever set the account's password may not own the address: the
 * password is wiped and the account's sessions end, locking them out. With
 * SOCIALACCOUNT_EMAIL_AUTHENTICATION_AUTO_CONNECT the social account is kept.
 */
async function acceptEmailAuthentication(deps: Deps, ctx: RequestContext, user: User, email: string, login: SocialLogin): Promise<void> {
  await deps.db.transaction().execute(async (tx) => {
    const address = await findEmailAddress(tx, email);
    if (!address?.verified) {
      const wiped = !!(await findUserById(tx, user.id))?.passwordHash;
      await setPasswordHash(tx, user.id, null, null);
      await deleteUserSessions(tx, user.id, ctx.session?.userId === user.id ? ctx.session.id : null);
      if (wiped) await recordEvent(deps, tx, ctx, 'password.changed', { userId: user.id, detail: { method: 'social', provider: login.app.id, email, reason: 'unverified_email' } });
      // Whoever set that password keeps nothing it obtained at the provider's clients either.
      if (wiped) await revokeProviderGrants(deps, tx, ctx, user.id);
    }
    if (deps.config.social.emailAuthenticationAutoConnect) {
      const account = await insertSocialAccount(tx, { userId: user.id, provider: login.app.id, uid: login.identity.uid, extraData: login.identity.extraData, now: ctx.now });
      if (account) {
        await storeProviderTokens(deps, tx, account.id, login.tokens, ctx.now);
        await recordEvent(deps, tx, ctx, 'social.connected', { userId: user.id, detail: { provider: login.app.id, email } });
      }
    }
  });
}

async function connect(deps: Deps, ctx: RequestContext, provider: Provider, login: SocialLogin): Promise<Outcome> {
  const user = ctx.user;
  if (!user) return forbidden;
  const { app, identity } = login;
  let account = await findSocialAccount(deps.db, app.id, identity.uid);
  let connected = false;
  if (!account) {
    account = await deps.db.transaction().execute(async (tx) => {
      const inserted = await insertSocialAccount(tx, { userId: user.id, provider: app.id, uid: identity.uid, extraData: identity.extraData, now: ctx.now });
      if (inserted) await recordEvent(deps, tx, ctx, 'social.connected', { userId: user.id, detail: { provider: app.id } });
      connected = inserted !== null && inserted !== undefined;
      return inserted;
    });
    // Connected to someone meanwhile: the unique constraint decided.
    account ??= await findSocialAccount(deps.db, app.id, identity.uid);
  }
  // Taking an account away from its user could leave that user locked out.
  if (!account || account.userId !== user.id) return invalid({ code: 'connected_other' });
  await refresh(deps, deps.db, provider, account, login, ctx.now);
  if (connected) {
    await notify(deps, ctx, 'socialaccount/email/account_connected', user.email, { provider: { id: app.id, name: app.name }, account: { uid: identity.uid, provider: app.id } });
  }
  return { kind: 'auth', session: ctx.session, user };
}
