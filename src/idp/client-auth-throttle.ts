import Provider, { errors } from 'oidc-provider';
import type { RateLimiter } from '../security/rate-limiter.js';
import { CLIENT_AUTH_FAILED } from './rate-limit.js';
import { servedRequest } from './served-requests.js';

// Failed client authentication (a wrong client secret) at the token,
// introspection, revocation and device authorization endpoints, limited by
// IDP_OIDC_RATE_LIMITS.client_auth_failed per client id and per IP. An
// imported client's secret is a slow Django hash, so unlimited guesses would
// also cost a hash each. The limit is checked before the secret is: a
// client or address over it is answered 429 even with the right secret
// until its window has passed; a right secret clears the client's count.

class TooManyFailedAuthentications extends errors.OIDCProviderError {
  constructor() {
    super(429, 'too_many_requests');
    Object.assign(this, { error_description: 'too many failed client authentications, try again later' });
  }
}

/** Wraps the secret comparison (client-rules.ts) of the provider's Client model with the limiter. */
export function throttleClientAuth(provider: any, limiter: RateLimiter): void {
  const Client = provider.Client;
  const compare = Client.prototype.compareClientSecret as (this: unknown, actual: string) => Promise<boolean>;
  Client.prototype.compareClientSecret = async function (this: { clientId: string }, actual: string) {
    const ctx = Provider.ctx;
    const subject = { ip: servedRequest(ctx?.req)?.ip ?? ctx?.ip ?? '', key: this.clientId };
    const result = await limiter.guarded(CLIENT_AUTH_FAILED, subject, async () => {
      const matches = await compare.call(this, actual);
      return { succeeded: matches, value: matches };
    });
    if (result.ok) return result.value;
    ctx?.set('retry-after', String(result.retryAfterSeconds));
    throw new TooManyFailedAuthentications();
  };
}
