import type { LiveSession, TokenStrategy } from './strategy.js';
import type { MaybePromise } from '../kernel/maybe-promise.js';

/**
 * The default strategy: the session token is the session key itself, as in
 * the reference, and no access or refresh tokens are issued.
 */
export function sessionTokenStrategy(findSession: (sessionKey: string) => MaybePromise<LiveSession | null>): TokenStrategy {
  return {
    createSessionToken: ({ sessionKey }) => sessionKey,
    lookupSession: (sessionToken) => findSession(sessionToken),
    createAccessTokenPayload: async () => null,
    refreshToken: async () => null,
  };
}
