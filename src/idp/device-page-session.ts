// oidc-provider's error handler on the device pages (code_verification,
// device_resume) writes a fresh form token into the browser's session after
// the session middleware has run. For a browser without a session there (a
// form posted without the page's cookie, /identity/o/device/<uid> opened
// elsewhere), the route's last step then persists a session that was never
// saved, and throws: the form it rendered for another try was lost to a
// 500. Saving that session here, with its cookie, makes the form work.

/** The cookie options of the provider's session cookie (its `cookies.long` with our `signed`, provider.ts). */
const SESSION_COOKIE = { httpOnly: true, sameSite: 'lax', signed: true } as const;
const DEVICE_PAGES = new Set(['code_verification', 'device_resume']);

export function saveUnsavedDeviceSession(sessionTtlSeconds: number) {
  return async (ctx: any, next: () => Promise<void>) => {
    try {
      await next();
    } catch (error) {
      // The provider's own check (Session#persist): a session without an expiry was never saved.
      const session = ctx.oidc?.session;
      if (!(error instanceof TypeError) || !DEVICE_PAGES.has(ctx.oidc?.route) || !session?.touched || session.destroyed || typeof session.exp === 'number') throw error;
      ctx.oidc.cookies.set(ctx.oidc.provider.cookieName('session'), session.id, SESSION_COOKIE);
      await session.save(sessionTtlSeconds);
    }
  };
}
