import type { Deps } from '../context.js';
import type { ProviderEvent } from '../../idp/provider.js';
import { recordEvent } from '../../audit/recorder.js';
import { endBrowserSession } from './browser-session.js';

// The OpenID provider of one issuer (idp/provider.ts), wired to the use
// cases it calls back: recording its events, and ending the browser's
// session here when the user logs out of it from a client.

export type IdpProviderFactory = (deps: Deps, issuer: string) => any;

/**
 * Loads the provider (oidc-provider, about 25 MiB of a process's memory, so
 * only when IDP_OIDC_ENABLED is on) and answers how to build one per issuer.
 */
export async function loadIdpProvider(): Promise<IdpProviderFactory> {
  const { buildProvider } = await import('../../idp/provider.js');
  return (deps, issuer) =>
    buildProvider(
      {
        config: deps.config,
        db: deps.db,
        atRest: deps.atRest,
        now: () => deps.clock.now(),
        logError: (error, message) => deps.log.error({ err: error }, message),
        endBrowserSession: (key, ip, userAgent) => endBrowserSession(deps, key, ip, userAgent),
        audit: (event) => recordProviderEvent(deps, event),
        limiter: deps.idpLimiter,
      },
      issuer,
    );
}

/** A token issued or revoked, a refresh token replayed: recorded on its own; a failure is logged, the provider's answer stands. */
async function recordProviderEvent(deps: Deps, event: ProviderEvent): Promise<void> {
  const detail = { ...(event.clientId ? { client_id: event.clientId } : {}), ...(event.grantType ? { grant_type: event.grantType } : {}), ...(event.tokenType ? { token_type: event.tokenType } : {}) };
  await recordEvent(deps, deps.db, { ip: event.ip, userAgent: event.userAgent, now: deps.clock.now() }, event.type, { userId: event.userId, detail }).catch((error: unknown) =>
    deps.log.error({ err: error, event: event.type }, 'recording an OpenID provider event failed'),
  );
}
