import { createHmac } from 'node:crypto';
import { constantTimeEqual } from './secrets.js';

// HMAC signatures over a key ring: [SECRET_KEY, ...SECRET_KEY_FALLBACKS].
// The first key signs; every key verifies, so a rotated SECRET_KEY keeps
// accepting what the old one signed until it is dropped from the fallbacks.
// Each signer serves one purpose (`csrf`, `trusted-browser`, ...), which is
// part of every signed message, so a signature made for one purpose never
// passes for another.

export interface Signer {
  /** The signature of `message` under the current key (base64url). */
  sign(message: string): string;
  /** Whether `signature` was made for `message` under any key of the ring. */
  verify(message: string, signature: string): boolean;
  /** Whether it was made under the current key (a value signed by a fallback is worth signing anew). */
  verifyCurrent(message: string, signature: string): boolean;
  /** `value.signature`, for values that travel with their signature (cookies). */
  signValue(value: string): string;
  /** The value of a `value.signature` made by signValue, or null. */
  readValue(signed: string): string | null;
}

export function signer(secrets: readonly string[], purpose: string): Signer {
  if (secrets.length === 0) throw new Error('signer needs at least one secret');
  const mac = (secret: string, message: string) => createHmac('sha256', secret).update(`${purpose}:${message}`, 'utf8').digest('base64url');
  const verify = (message: string, signature: string) => {
    // Every key is tried, whichever matches, so the time taken does not tell which one did.
    let valid = false;
    for (const secret of secrets) valid = constantTimeEqual(signature, mac(secret, message)) || valid;
    return valid;
  };
  return {
    sign: (message) => mac(secrets[0]!, message),
    verify,
    verifyCurrent: (message, signature) => constantTimeEqual(signature, mac(secrets[0]!, message)),
    signValue: (value) => `${value}.${mac(secrets[0]!, value)}`,
    readValue(signed) {
      const dot = signed.lastIndexOf('.');
      if (dot < 0) return null;
      const value = signed.slice(0, dot);
      return verify(value, signed.slice(dot + 1)) ? value : null;
    },
  };
}

/** The secret ring of a configuration: SECRET_KEY first, then its fallbacks. */
export function secretRing(config: { secretKey: string; secretKeyFallbacks: readonly string[] }): string[] {
  return [config.secretKey, ...config.secretKeyFallbacks];
}
