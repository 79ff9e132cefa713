import { Type, type Static } from 'typebox';
import type { Deps, RequestContext } from '../context.js';
import type { ProviderSignupFlow } from '../../domain/session.js';
import type { User } from '../../domain/user.js';
import type { SocialApp } from '../../social/app.js';
import type { Identity, ProviderTokens } from '../../social/provider-type.js';
import { conflict, forbidden, invalid, type FieldError, type Outcome } from '../outcome.js';
import { createUser, findUserById, usernameExists } from '../../store/users.js';
import { providerNames } from './provider-names.js';
import { findEmailAddress, insertEmailAddress } from '../../store/email-addresses.js';
import { insertSocialAccount } from '../../store/social-accounts.js';
import { updateSessionState } from '../../store/sessions.js';
import type { Tx } from '../../store/db.js';
import { startPendingFlow } from '../session-ops.js';
import { answerForTakenEmail, undoReason, undoSignup } from '../auth/signup.js';
import { recordEvent } from '../../audit/recorder.js';
import { emailError, normalizeEmail, usernameError } from '../validate.js';
import { openPendingTokens, sealPendingTokens, storeProviderTokens } from './provider-tokens.js';
import { socialAuthenticate, socialMethod } from './social-stage.js';
import { pickUsername } from './username.js';
import { requestedLanguage } from '../language.js';

// Signing up through a provider: automatically when the provider gave what
// signup needs (SOCIALACCOUNT_AUTO_SIGNUP), otherwise through the pending
// provider_signup flow and its form (GET/POST /auth/provider/signup).

export interface SocialLogin {
  app: SocialApp;
  identity: Identity;
  tokens: ProviderTokens | null;
}

/** Whether the reference hides a taken address behind a fake verification (enumeration prevention). */
function hidesTakenEmail(deps: Deps): boolean {
  const { account } = deps.config;
  return account.preventEnumeration && account.emailVerification === 'mandatory';
}

/** A new user for an unknown provider account (process=login). */
export async function socialSignup(deps: Deps, ctx: RequestContext, login: SocialLogin): Promise<Outcome> {
  const { social, account } = deps.config;
  if (!account.signupOpen) return forbidden;
  if (!social.autoSignup) return pendingSignup(deps, ctx, login);
  const email = login.identity.emails[0]?.email ?? null;
  if (email && (await findEmailAddress(deps.db, email))) {
    // Never linked on email alone: the address may belong to someone else.
    return hidesTakenEmail(deps) ? answerForTakenEmail(deps, ctx, email) : pendingSignup(deps, ctx, login);
  }
  if (!email && social.emailRequired) return pendingSignup(deps, ctx, login);
  return createAndAuthenticate(deps, ctx, login, email, null);
}

/** Holds the provider's answer in the session until the signup form completes it. */
async function pendingSignup(deps: Deps, ctx: RequestContext, login: SocialLogin): Promise<Outcome> {
  const { app, identity } = login;
  const flow: ProviderSignupFlow = {
    id: 'provider_signup',
    provider: app.id,
    clientId: app.clientId,
    uid: identity.uid,
    extraData: identity.extraData,
    emails: identity.emails,
    username: identity.username ?? null,
    firstName: identity.firstName ?? null,
    lastName: identity.lastName ?? null,
    tokens: sealPendingTokens(deps, login.tokens, app.id, identity.uid),
  };
  return { kind: 'auth', ...(await startPendingFlow(deps, ctx, flow)) };
}

class Taken extends Error {
  constructor(readonly what: 'email' | 'username' | 'account') {
    super(what);
  }
}

/**
 * Creates the user, its addresses and the social account in one transaction,
 * then authenticates through the stages. `claim` is the pending signup this
 * completes: it is cleared in the same transaction, so a double submit
 * creates one account.
 */
async function createAndAuthenticate(deps: Deps, ctx: RequestContext, login: SocialLogin, email: string | null, claim: ProviderSignupFlow | null, username?: string): Promise<Outcome> {
  const { app, identity } = login;
  let user: User | null = null;
  for (let attempt = 0; attempt < 5 && !user; attempt++) {
    try {
      user = await deps.db.transaction().execute((tx) => createSocialUser(deps, ctx, tx, login, email, claim, username ?? null, attempt));
    } catch (error) {
      if (!(error instanceof Taken)) throw error;
      if (error.what === 'account') return conflict;
      if (error.what === 'email') return hidesTakenEmail(deps) ? answerForTakenEmail(deps, ctx, email!) : invalid({ code: 'email_taken', param: 'email' });
      // A generated username taken meanwhile: try another; one the user chose is theirs to change.
      if (username) return invalid({ code: 'username_taken', param: 'username' });
    }
  }
  if (!user) return invalid({ code: 'username_taken', param: 'username' });
  const after = claim && ctx.session ? { ...ctx, session: { ...ctx.session, flow: null } } : ctx;
  const outcome = await socialAuthenticate(deps, after, user, socialMethod(ctx, app.id, identity.uid), { signup: true });
  // No verification mail or SMS, no account: signing in again starts over.
  if (outcome.kind === 'unavailable' || outcome.kind === 'rate_limited') await undoSignup(deps, ctx, user.id, undoReason(outcome));
  return outcome;
}

async function createSocialUser(
  deps: Deps,
  ctx: RequestContext,
  tx: Tx,
  login: SocialLogin,
  email: string | null,
  claim: ProviderSignupFlow | null,
  chosenUsername: string | null,
  attempt: number,
): Promise<User> {
  const { app, identity } = login;
  if (claim && ctx.session) {
    const claimed = await updateSessionState(tx, ctx.session.id, { userId: null, methods: [], flow: null, flowAttempts: 0 }, claim);
    if (!claimed) throw new Taken('account');
  }
  const verified = (address: string) => identity.emails.some((e) => e.verified && e.email.toLowerCase() === address.toLowerCase());
  const username = chosenUsername ?? (await pickUsername(deps, tx, identity, attempt));
  const created = await createUser(tx, { username, email, emailVerified: email !== null && verified(email), passwordHash: null, now: ctx.now, language: requestedLanguage(ctx), ...providerNames(identity) });
  if (!created) throw new Taken(email && (await findEmailAddress(tx, email)) ? 'email' : 'username');
  await recordEvent(deps, tx, ctx, 'signup', { userId: created.userId, detail: { method: 'social', provider: app.id, ...(email ? { email } : {}) } });
  // The provider's other addresses join the account, except those another
  // account has; the signup event names only the first, so each gets the
  // events of an address added (and verified, when the provider vouches for it).
  let hasPrimary = created.emailAddressId !== null;
  for (const other of identity.emails) {
    if (email && other.email.toLowerCase() === email.toLowerCase()) continue;
    const added = await insertEmailAddress(tx, { userId: created.userId, email: other.email, primary: !hasPrimary, verified: other.verified, now: ctx.now });
    if (!added) continue;
    hasPrimary = true;
    const event = { userId: created.userId, detail: { email: added.email, method: 'social' as const, provider: app.id } };
    await recordEvent(deps, tx, ctx, 'email.added', event);
    if (other.verified) await recordEvent(deps, tx, ctx, 'email.verified', event);
  }
  const account = await insertSocialAccount(tx, { userId: created.userId, provider: app.id, uid: identity.uid, extraData: identity.extraData, now: ctx.now });
  if (!account) throw new Taken('account');
  await storeProviderTokens(deps, tx, account.id, login.tokens, ctx.now);
  return (await findUserById(tx, created.userId))!;
}

function pendingSignupFlow(ctx: RequestContext): ProviderSignupFlow | null {
  return ctx.session?.flow?.id === 'provider_signup' ? ctx.session.flow : null;
}

/** The pending signup's provider login, or null when its app is no longer configured. */
function pendingLogin(deps: Deps, flow: ProviderSignupFlow): SocialLogin | null {
  const provider = deps.social.get(flow.provider, flow.clientId);
  if (!provider) return null;
  return {
    app: provider.app,
    identity: { uid: flow.uid, extraData: flow.extraData, emails: flow.emails, username: flow.username, firstName: flow.firstName, lastName: flow.lastName },
    tokens: openPendingTokens(deps, flow.tokens, flow.provider, flow.uid),
  };
}

/** GET /auth/provider/signup. */
export function providerSignupInfo(deps: Deps, ctx: RequestContext): Outcome {
  const flow = pendingSignupFlow(ctx);
  const login = flow && pendingLogin(deps, flow);
  if (!flow || !login) return conflict;
  if (!deps.config.account.signupOpen) return forbidden;
  const provider = deps.social.get(flow.provider, flow.clientId)!;
  const display = provider.display(flow.extraData);
  return {
    kind: 'provider_signup_info',
    user: { display: flow.username ?? flow.emails[0]?.email ?? display, ...(flow.username && deps.config.account.signupFields.username ? { username: flow.username } : {}) },
    account: { uid: flow.uid, provider: login.app.id, app: login.app, display },
    emails: flow.emails.map((e) => ({ email: e.email, primary: e.primary, verified: e.verified })),
  };
}

/** POST /auth/provider/signup's body: the signup form minus the password. */
export const ProviderSignupInput = Type.Object({
  email: Type.Optional(Type.String()),
  username: Type.Optional(Type.String({ description: 'When ACCOUNT_SIGNUP_FIELDS has username.' })),
});
export type ProviderSignupInput = Static<typeof ProviderSignupInput>;

/** POST /auth/provider/signup: the fields the provider did not give (the signup form minus the password). */
export async function providerSignup(deps: Deps, ctx: RequestContext, input: ProviderSignupInput): Promise<Outcome> {
  const flow = pendingSignupFlow(ctx);
  const login = flow && pendingLogin(deps, flow);
  if (!flow || !login) return conflict;
  const { account, social } = deps.config;
  if (!account.signupOpen) return forbidden;
  const limit = await deps.limiter.consume('signup', { ip: ctx.ip });
  if (!limit.ok) return { kind: 'rate_limited', retryAfterSeconds: limit.retryAfterSeconds };

  const email = input.email ? normalizeEmail(input.email) : '';
  const username = account.signupFields.username && input.username ? input.username.trim() : '';
  const errors: FieldError[] = [];
  if (!email && (social.emailRequired || account.signupFields.email?.required)) errors.push({ code: 'required', param: 'email' });
  const badEmail = email ? emailError(email) : null;
  if (badEmail) errors.push(badEmail);
  if (account.signupFields.username?.required && !username) errors.push({ code: 'required', param: 'username' });
  const badUsername = username ? usernameError(deps.config, username) : null;
  if (badUsername) errors.push(badUsername);
  if (username && !badUsername && (await usernameExists(deps.db, username))) errors.push({ code: 'username_taken', param: 'username' });
  if (errors.length > 0) return invalid(...errors);

  if (email && (await findEmailAddress(deps.db, email))) {
    // The pending signup ends here either way; the owner of the address is told by mail.
    return hidesTakenEmail(deps) ? answerForTakenEmail(deps, ctx, email) : invalid({ code: 'email_taken', param: 'email' });
  }
  return createAndAuthenticate(deps, ctx, login, email || null, flow, username || undefined);
}
