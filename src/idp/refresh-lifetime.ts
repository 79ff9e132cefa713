/**
 * A middleware (after the provider's answer): a used refresh token's grant
 * lives on as long as the new token, so the lifetime counts from the last
 * use, not from the login.
 */
export function refreshExtendsGrant(refreshTokenExpiresIn: number) {
  return async (ctx: any, next: () => Promise<void>) => {
    await next();
    if (ctx.oidc?.route === 'token' && ctx.status === 200 && ctx.oidc.params?.grant_type === 'refresh_token' && ctx.oidc.entities.Grant) {
      await ctx.oidc.entities.Grant.save(refreshTokenExpiresIn);
    }
  };
}
