import type { Action, RateLimitConfig } from '../config/rate-limits.js';
import type { IdpSettings } from '../config/idp.js';

// IDP_OIDC_RATE_LIMITS' actions, counted by a RateLimiter of their own over
// the same store as the account limits (Redis when configured):
// device_user_code (user codes tried per IP) and client_auth_failed (wrong
// client secrets per client id and per IP). Neither is one of
// ACCOUNT_RATE_LIMITS' actions, hence the casts here.

export const DEVICE_USER_CODE = 'device_user_code' as unknown as Action;
export const CLIENT_AUTH_FAILED = 'client_auth_failed' as unknown as Action;

export function idpRateLimits(settings: IdpSettings): RateLimitConfig | false {
  const device = settings.deviceUserCodeLimit;
  const clientAuth = settings.clientAuthFailedLimits;
  if (!settings.enabled || (!device && !clientAuth.length)) return false;
  return {
    device_user_code: { action: DEVICE_USER_CODE, rules: device ? [{ amount: device.count, periodSeconds: device.seconds, per: 'ip' }] : [] },
    client_auth_failed: { action: CLIENT_AUTH_FAILED, rules: clientAuth },
  } as unknown as RateLimitConfig;
}
