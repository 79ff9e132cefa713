import type { Action, RateLimitConfig } from '../config/rate-limits.js';
import type { IdpSettings } from '../config/idp.js';

// IDP_OIDC_RATE_LIMITS' one action, device_user_code (wrong user codes per
// IP), counted by a RateLimiter of its own over the same store as the
// account limits (Redis when configured). The action is not one of
// ACCOUNT_RATE_LIMITS', hence the one cast here.

export const DEVICE_USER_CODE = 'device_user_code' as unknown as Action;

export function idpRateLimits(settings: IdpSettings): RateLimitConfig | false {
  const limit = settings.deviceUserCodeLimit;
  if (!settings.enabled || !limit) return false;
  return { device_user_code: { action: DEVICE_USER_CODE, rules: [{ amount: limit.count, periodSeconds: limit.seconds, per: 'ip' }] } } as unknown as RateLimitConfig;
}
