import type { Deps } from '../context.js';
import { buildProvider, type ProviderEvent } from '../../idp/provider.js';
import { recordEvent } from '../../audit/recorder.js';
import { endBrowserSession } from './browser-session.js';

// The OpenID provider of one issuer (idp/provider.ts), wired to the use
// cases it calls back: recording its events, and ending the browser's
// session here when the user logs out of it from a client.

export function idpProvider(deps: Deps, issuer: string): any {
  return buildProvider(
    {
      config: deps.config,
      db: deps.db,
      atRest: deps.atRest,
      now: () => deps.clock.now(),
      logError: (error, message) => deps.log.error({ err: error }, message),
      endBrowserSession: (key, ip, userAgent) => endBrowserSession(deps, key, ip, userAgent),
      audit: (event) => recordProviderEvent(deps, event),
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
