// Second factors as the flows see them. Secrets stay sealed here
// (src/security/at-rest.ts); only the flow that checks a code opens them.

/** In the reference's fixed order, the order `types` lists them on the wire. */
export const AUTHENTICATOR_TYPES = ['recovery_codes', 'totp', 'webauthn'] as const;
export type AuthenticatorType = (typeof AUTHENTICATOR_TYPES)[number];

interface Common {
  id: number;
  userId: number;
  /** Milliseconds. */
  createdAt: number;
  /** Milliseconds; null until first used. */
  lastUsedAt: number | null;
}

export interface TotpAuthenticator extends Common {
  type: 'totp';
  /** The base32 secret, sealed for `sealContext('totp', userId)`. */
  sealedSecret: string;
  /** The last time step whose code was accepted: no code of it, or of an earlier one, passes again. */
  lastCounter: number | null;
}

export interface RecoveryCodesAuthenticator extends Common {
  type: 'recovery_codes';
  /** The seed the codes derive from (40 random bytes as hex, as the reference makes it), sealed. */
  sealedSeed: string;
  /** Bit i set: code i has been used. */
  usedMask: number;
  /** Milliseconds; when the codes were first shown (MFA_RECOVERY_CODES_SHOW_ONCE). */
  viewedAt: number | null;
}

export interface WebAuthnAuthenticator extends Common {
  type: 'webauthn';
  name: string;
  /** base64url, as the authenticator reports it. */
  credentialId: string;
  /** COSE public key, base64url. */
  publicKey: string;
  /** The signature counter last seen. */
  signCount: number;
  transports: string[];
  /** `credProps.rk` at registration: a discoverable credential (passkey); null when the client did not say. */
  passwordless: boolean | null;
}

export type Authenticator = TotpAuthenticator | RecoveryCodesAuthenticator | WebAuthnAuthenticator;

/** The at-rest context of a user's sealed TOTP secret or recovery seed: a ciphertext opens only on its own row's user. */
export function sealContext(type: 'totp' | 'recovery_codes', userId: number): string {
  return `mfa:${type}:${userId}`;
}

/** What the API shows of an authenticator (computed by the flows: recovery codes need their seed opened). */
export interface AuthenticatorInfo {
  type: AuthenticatorType;
  createdAt: number;
  lastUsedAt: number | null;
  recoveryCodes?: { total: number; unused: number; codes?: string[] };
  webauthn?: { id: number; name: string; passwordless: boolean | null };
}

/** The user's authenticator types in the fixed wire order. */
export function typesOf(authenticators: ReadonlyArray<{ type: AuthenticatorType }>): AuthenticatorType[] {
  return AUTHENTICATOR_TYPES.filter((type) => authenticators.some((a) => a.type === type));
}
