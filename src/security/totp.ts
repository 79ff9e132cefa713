import { HOTP, Secret } from 'otpauth';
import { constantTimeEqual } from './secrets.js';

// RFC 6238 time-based codes as the reference makes them: HMAC-SHA1 over the
// time step floor(unix seconds / period), 20-byte secrets in base32.

export interface TotpParameters {
  period: number;
  digits: number;
  /** Time steps accepted on either side of the current one. */
  tolerance: number;
}

/** A new secret: 20 random bytes, base32 without padding (32 characters). */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

export function totpCode(secret: string, counter: number, digits: number): string {
  return HOTP.generate({ secret: Secret.fromBase32(secret), counter, digits, algorithm: 'SHA1' });
}

/**
 * The time step whose code `code` is, within the tolerance around `now`
 * (ms), or null. Every step of the window is compared, in constant time.
 */
export function matchTotp(secret: string, code: string, now: number, params: TotpParameters): number | null {
  const current = Math.floor(now / 1000 / params.period);
  let matched: number | null = null;
  for (let step = current - params.tolerance; step <= current + params.tolerance; step++) {
    if (constantTimeEqual(code, totpCode(secret, step, params.digits))) matched = step;
  }
  return matched;
}

/**
 * The provisioning URL authenticator apps read from the QR code, in the
 * reference's form: label and issuer percent-encoded, digits and period
 * only when they differ from 6 and 30, no algorithm (SHA-1 is the default).
 */
export function totpUrl(secret: string, label: string, issuer: string, params: TotpParameters): string {
  const query = [`secret=${secret}`, `issuer=${encodeURIComponent(issuer)}`];
  if (params.digits !== 6) query.push(`digits=${params.digits}`);
  if (params.period !== 30) query.push(`period=${params.period}`);
  return `otpauth://totp/${encodeURIComponent(label)}?${query.join('&')}`;
}
