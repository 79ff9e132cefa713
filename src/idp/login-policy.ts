import { interactionPolicy } from 'oidc-provider';
import type { Config } from '../config/config.js';
import type { Db } from '../store/db.js';
import { browserSession } from './browser-session.js';
import { claimableRedirectUri, type ClientExtras } from './client-metadata.js';

// When the provider prompts: its own policy, plus two login checks of ours
// and the reference's consent rule for first-party native clients.

const { base: basePolicy, Check } = interactionPolicy;

export interface LoginPolicyDeps {
  config: Config;
  db: Db;
  now: () => number;
}

export function loginPolicy(deps: LoginPolicyDeps): any {
  const policy = basePolicy();
  // The login prompt also asks when our own session no longer is the one the
  // provider's session remembers (logged out here, or another user): the
  // provider's session never outlives ours.
  policy.get('login').checks.add(
    new Check('headless_session', 'the session at the authentication server ended', 'login_required', async (ctx: any) => {
      const accountId = ctx.oidc.session.accountId;
      if (!accountId || ctx.oidc.result?.login) return Check.NO_NEED_TO_PROMPT;
      const found = await browserSession(ctx, deps);
      if (!found?.user || !found.user.isActive || found.session.flow !== null || String(found.user.id) !== accountId) return Check.REQUEST_PROMPT;
      return Check.NO_NEED_TO_PROMPT;
    }),
    0,
  );
  // max_age by the server's clock (the provider's own check reads the system time).
  policy.get('login').checks.add(
    new Check('headless_max_age', 'End-User authentication could not be obtained', 'login_required', async (ctx: any) => {
      const maxAge = ctx.oidc.params.max_age;
      const authTime = ctx.oidc.session.authTime();
      if (maxAge === undefined || !ctx.oidc.session.accountId || ctx.oidc.result?.login || typeof authTime !== 'number') return Check.NO_NEED_TO_PROMPT;
      return deps.now() / 1000 - authTime > Number(maxAge) ? Check.REQUEST_PROMPT : Check.NO_NEED_TO_PROMPT;
    }),
    1,
  );

  // oidc-provider asks a native client's user (loopback or custom-scheme redirect URIs, which any app
  // may claim) for consent every time; so do we for a web client's request to such a URI (its local
  // development one). A client registered to skip consent skips it, as in the reference.
  const native = policy.get('consent').checks.get('native_client_prompt');
  const askNative = native.check;
  native.check = (ctx: any) => {
    const { client, params, result } = ctx.oidc;
    if ((client as ClientExtras).x_skip_consent) return Check.NO_NEED_TO_PROMPT;
    const claimable = typeof params.redirect_uri === 'string' && claimableRedirectUri(params.redirect_uri);
    if (claimable && params.response_type !== 'none' && !result?.consent) return Check.REQUEST_PROMPT;
    return askNative(ctx);
  };
  return policy;
}
