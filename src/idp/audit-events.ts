// The provider's audit events: tokens issued and revoked, and a rotated
// refresh token presented again (the provider then revokes its whole grant).

export interface ProviderEvent {
  type: 'idp.token_issued' | 'idp.token_revoked' | 'idp.refresh_token_reused';
  userId: number | null;
  clientId: string | undefined;
  grantType?: string;
  tokenType?: string;
  ip: string;
  userAgent: string;
}

export type RecordProviderEvent = (event: ProviderEvent) => Promise<void>;

function eventOf(ctx: any, type: ProviderEvent['type'], userId: string | undefined, extra: Partial<ProviderEvent> = {}): ProviderEvent {
  return {
    type,
    userId: userId && /^\d+$/.test(userId) ? Number(userId) : null,
    clientId: ctx.oidc?.client?.clientId,
    ip: ctx.ip ?? '',
    userAgent: String(ctx.get('user-agent') ?? '').slice(0, 512),
    ...extra,
  };
}

/** Records the events of each answer; a replayed refresh token is marked by the provider's grant.revoked event. */
export function recordTokenEvents(provider: any, audit: RecordProviderEvent): void {
  provider.use(async (ctx: any, next: () => Promise<void>) => {
    await next();
    const route = ctx.oidc?.route;
    if (route === 'token' && ctx.state.refreshTokenReused) {
      await audit(eventOf(ctx, 'idp.refresh_token_reused', ctx.state.refreshTokenReused.accountId, { grantType: 'refresh_token' }));
    } else if (route === 'token' && ctx.status === 200) {
      const entities = ctx.oidc.entities;
      const accountId = entities.AccessToken?.accountId ?? entities.Account?.accountId;
      await audit(eventOf(ctx, 'idp.token_issued', accountId, { grantType: String(ctx.oidc.params?.grant_type ?? '') }));
    } else if (route === 'revocation' && ctx.status === 200) {
      const token = ctx.oidc.entities.AccessToken ?? ctx.oidc.entities.RefreshToken ?? ctx.oidc.entities.ClientCredentials;
      await audit(eventOf(ctx, 'idp.token_revoked', token?.accountId, token ? { tokenType: token.kind } : {}));
    }
  });
  // Marked here, recorded by the middleware above before the answer goes out.
  provider.on('grant.revoked', (ctx: any) => {
    if (ctx.oidc?.route !== 'token') return;
    ctx.state.refreshTokenReused = { accountId: ctx.oidc.entities.RefreshToken?.accountId ?? ctx.oidc.entities.Grant?.accountId };
  });
}
