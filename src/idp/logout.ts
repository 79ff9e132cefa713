import { createHash } from 'node:crypto';
import type { Config } from '../config/config.js';
import { acceptLanguageOf, htmlBody, type Pages } from './pages.js';

// RP-initiated logout: the page that asks whether to sign out here too, and
// the end of our own session when the user says yes.
//
// oidc-provider posts `logout=yes` to its confirmation endpoint in more
// cases than ours: its own form that ends the previous account's provider
// session when another user logs in, and its self-submitting form when its
// session has no account. Neither is a user choosing to sign out here. So
// our page marks the provider session's logout state when it is rendered,
// and our session ends only when the provider accepted a confirmation (its
// xsrf check passed, end_session.success) of a logout carrying that mark.

/** Set on the provider session's logout state by our page: the state a confirmation must carry. */
const ASKED_HERE = 'x_headless_asked';

export function logoutFeature(config: Config, pages: Pages): object {
  const settings = config.idp;
  return {
    enabled: true,
    logoutSource: async (ctx: any, form: string) => {
      // As the reference: ask whether to log out here too, unless told not to
      // (IDP_OIDC_RP_INITIATED_LOGOUT_ASKS_FOR_OP_LOGOUT=false) and the
      // id_token_hint names the logged-in user; then log out at once.
      const hintSub = ctx.oidc.entities.IdTokenHint?.payload?.sub;
      const ask = settings.rpInitiatedLogoutAsksForOpLogout || !hintSub || hintSub !== ctx.oidc.session.accountId;
      ctx.oidc.session.state[ASKED_HERE] = true;
      if (!ask) {
        autoSubmit(ctx, pages, ctx.oidc.urlFor('end_session_confirm'), { xsrf: ctx.oidc.session.state.secret, logout: 'yes' });
        return;
      }
      htmlBody(ctx, pages.render('logout', acceptLanguageOf(ctx), { form }));
    },
    postLogoutSuccessSource: async (ctx: any) => {
      htmlBody(ctx, pages.render('logout_success', acceptLanguageOf(ctx)));
    },
  };
}

/** Ends the browser's session here (its cookie's key) when the user confirmed signing out of the provider too. */
export type EndBrowserSession = (sessionKey: string, ip: string, userAgent: string) => Promise<void>;

/** The user's "yes" at our logout page, once the provider accepted it, ends our session too. */
export function logoutHandover(provider: any, config: Config, endBrowserSession: EndBrowserSession): void {
  provider.on('end_session.success', (ctx: any) => {
    if (ctx.oidc.params?.logout && ctx.oidc.session?.state?.[ASKED_HERE] === true) ctx.state.opLogoutConfirmed = true;
  });
  provider.use(async (ctx: any, next: () => Promise<void>) => {
    await next();
    if (!ctx.state.opLogoutConfirmed) return;
    const key = ctx.cookies.get(config.session.cookieName);
    if (key) await endBrowserSession(key, ctx.ip ?? '', String(ctx.get('user-agent') ?? '').slice(0, 512));
  });
}

/**
 * A form that submits itself: the one script a page of the provider runs,
 * allowed by its hash alone (oidc-provider's form_post does the same).
 */
function autoSubmit(ctx: any, pages: Pages, action: string, fields: Record<string, string>): void {
  const script = "document.addEventListener('DOMContentLoaded',function(){document.forms[0].submit()})";
  const csp = String(ctx.response.get('content-security-policy') ?? '').replace("script-src 'none'", `script-src 'sha256-${createHash('sha256').update(script).digest('base64')}'`);
  ctx.set('content-security-policy', csp);
  const hidden = Object.entries(fields).map(([name, value]) => ({ name, value }));
  htmlBody(ctx, pages.render('logout_redirect', acceptLanguageOf(ctx), { action, fields: hidden, script }));
}
