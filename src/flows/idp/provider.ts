import type { Deps } from '../context.js';
import type { ProviderEvent } from '../../idp/provider.js';
import { recordEvents, type PendingAuditEvent } from '../../audit/recorder.js';
import { WriteBatcher } from '../../store/write-batcher.js';
import { endBrowserSession } from './browser-session.js';
import { pagesOf } from '../../idp/pages.js';

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
  const recorders = new WeakMap<Deps, (event: ProviderEvent) => Promise<void>>();
  return (deps, issuer) => {
    let audit = recorders.get(deps);
    if (!audit) recorders.set(deps, (audit = providerEventRecorder(deps)));
    return buildProvider(
      {
        config: deps.config,
        db: deps.db,
        atRest: deps.atRest,
        now: () => deps.clock.now(),
        logError: (error, message) => deps.log.error({ err: error }, message),
        endBrowserSession: (key, ip, userAgent) => endBrowserSession(deps, key, ip, userAgent),
        audit,
        limiter: deps.idpLimiter,
        pages: pagesOf(deps),
      },
      issuer,
    );
  };
}

/**
 * Records the provider's events (a token issued or revoked, a refresh token
 * replayed), each in the database before the provider answers. A token is
 * issued on every request to the token endpoint, so the events of requests
 * answered at the same time go in together, as one statement (on SQLite one
 * commit instead of one each; recordEvents). A failure is logged, and the
 * provider's answer stands.
 */
function providerEventRecorder(deps: Deps): (event: ProviderEvent) => Promise<void> {
  let sequence = 0;
  const batcher = new WriteBatcher<number, PendingAuditEvent>((batch) => recordEvents(deps, deps.db, [...batch.values()]));
  return async (event) => {
    const detail = { ...(event.clientId ? { client_id: event.clientId } : {}), ...(event.grantType ? { grant_type: event.grantType } : {}), ...(event.tokenType ? { token_type: event.tokenType } : {}) };
    const pending = { source: { ip: event.ip, userAgent: event.userAgent, now: deps.clock.now() }, type: event.type, fields: { userId: event.userId, detail } };
    await batcher.add(sequence++, pending).catch((error: unknown) => deps.log.error({ err: error, event: event.type }, 'recording an OpenID provider event failed'));
  };
}
