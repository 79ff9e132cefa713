import { decodeAttestationObject, parseAuthenticatorData } from '@simplewebauthn/server/helpers';
import type { SkipReason } from './summary.js';
import type { WebAuthnAuthenticator } from '../../../domain/authenticator.js';

// What allauth.mfa keeps in mfa_authenticator.data, read into what this
// server stores. The secrets pass through allauth's MFA adapter encrypt(),
// which by default changes nothing; a deployment that overrides it stores
// ciphertext this import cannot open, and those rows are skipped.

/** A TOTP secret: base32, as allauth makes it (20 random bytes, 32 characters). */
export function totpSecretOf(data: Record<string, unknown>): { secret: string } | SkipReason {
  if (typeof data.secret !== 'string') return 'unreadable';
  const secret = data.secret.toUpperCase().replace(/=+$/, '');
  // 16 characters (80 bits) is the least any authenticator app accepts.
  return /^[A-Z2-7]{16,128}$/.test(secret) ? { secret } : 'encrypted_secret';
}

export interface RecoveryCodesData {
  seed: string;
  usedMask: number;
  /** Milliseconds. */
  viewedAt: number | null;
}

/**
 * A recovery-code seed (40 random bytes as hex) with the mask of used codes.
 * django-allauth-2fa's migrated form lists the codes themselves, which this
 * server, deriving every code from a seed, cannot hold.
 */
export function recoveryCodesOf(data: Record<string, unknown>): RecoveryCodesData | SkipReason {
  if ('migrated_codes' in data) return 'migrated_codes';
  const { seed, used_mask: usedMask, viewed_at: viewedAt } = data;
  if (typeof seed !== 'string') return 'unreadable';
  if (!/^[0-9a-fA-F]{40,}$/.test(seed)) return 'encrypted_secret';
  if (!Number.isSafeInteger(usedMask ?? 0) || ((usedMask as number | undefined) ?? 0) < 0) return 'unreadable';
  return { seed, usedMask: (usedMask as number | undefined) ?? 0, viewedAt: typeof viewedAt === 'number' ? Math.round(viewedAt * 1000) : null };
}

/** What a WebAuthn authenticator here is made of, read from allauth's stored registration. */
export type WebAuthnData = Pick<WebAuthnAuthenticator, 'name' | 'credentialId' | 'publicKey' | 'signCount' | 'transports' | 'passwordless'>;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A security key or passkey: allauth keeps the registration response the
 * browser sent (`credential`, binaries in base64url) and a name. The
 * credential id, public key and signature counter come out of its
 * attestation object's authenticator data, as at registration here.
 */
export function webAuthnOf(data: Record<string, unknown>): WebAuthnData | SkipReason {
  const { name, credential } = data;
  if (!isObject(credential) || !isObject(credential.response) || typeof credential.response.attestationObject !== 'string') return 'unreadable';
  let parsed: ReturnType<typeof parseAuthenticatorData>;
  try {
    const attestation = decodeAttestationObject(new Uint8Array(Buffer.from(credential.response.attestationObject, 'base64url')));
    parsed = parseAuthenticatorData(attestation.get('authData'));
  } catch {
    return 'unreadable';
  }
  if (!parsed.credentialID || !parsed.credentialPublicKey) return 'unreadable';
  const credentialId = Buffer.from(parsed.credentialID).toString('base64url');
  // The longest credential id this server stores (and accepts in an assertion).
  if (credentialId.length > 1024) return 'unreadable';
  const transports = Array.isArray(credential.response.transports) ? credential.response.transports.filter((t): t is string => typeof t === 'string').slice(0, 10) : [];
  const extensions = isObject(credential.clientExtensionResults) ? credential.clientExtensionResults : {};
  const rk = isObject(extensions.credProps) ? extensions.credProps.rk : undefined;
  return {
    // The API's limit on names.
    name: (typeof name === 'string' && name.trim() ? name.trim() : 'Imported key').slice(0, 100),
    credentialId,
    publicKey: Buffer.from(parsed.credentialPublicKey).toString('base64url'),
    signCount: parsed.counter,
    transports,
    passwordless: typeof rk === 'boolean' ? rk : null,
  };
}
