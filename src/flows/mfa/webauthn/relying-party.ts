import { generateKeyPairSync } from 'node:crypto';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { Deps } from '../../context.js';
import type { User } from '../../../domain/user.js';
import type { WebAuthnAuthenticator } from '../../../domain/authenticator.js';
import { constantTimeEqual, hashSecret } from '../../../security/secrets.js';

// The relying party's side of WebAuthn, with @simplewebauthn/server: options
// for navigator.credentials.create()/get() and the checks of what comes
// back (challenge, origin, RP id, signature, user presence and, where asked,
// user verification). RP id, name and origins come from the settings.
// A response that fails any check is simply refused (null): it is input.
// The library is loaded on first use: a server without WebAuthn never holds it.
const webauthnLibrary = () => import('@simplewebauthn/server');

/** What a registration proved, ready to store. */
export interface NewCredential {
  credentialId: string;
  publicKey: string;
  signCount: number;
  transports: string[];
  /** credProps.rk: a discoverable credential (passkey); null when the browser did not say. */
  passwordless: boolean | null;
}

/** The user handle of the credentials: the account id, as the reference makes it. */
export function userHandle(user: User): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(String(user.id));
}

const descriptor = (a: WebAuthnAuthenticator) => ({ id: a.credentialId, transports: a.transports });

export async function creationOptions(deps: Deps, user: User, existing: WebAuthnAuthenticator[], passwordless: boolean) {
  const { webauthn } = deps.config.mfa;
  const name = user.email ?? user.username ?? `user ${user.id}`;
  const { generateRegistrationOptions } = await webauthnLibrary();
  const options = await generateRegistrationOptions({
    rpName: webauthn.rpName,
    rpID: webauthn.rpId,
    userID: userHandle(user),
    userName: name,
    userDisplayName: user.username ?? name,
    timeout: webauthn.timeout,
    attestationType: 'none',
    excludeCredentials: existing.map(descriptor),
    // A passkey must be discoverable and verify its user (PIN, biometrics); a security key need do neither.
    authenticatorSelection: passwordless
      ? { residentKey: 'required', requireResidentKey: true, userVerification: 'required' }
      : { residentKey: 'discouraged', requireResidentKey: false, userVerification: 'discouraged' },
    extensions: { credProps: true },
  });
  return { options, challengeHash: hashSecret(options.challenge) };
}

export async function requestOptions(deps: Deps, allowed: WebAuthnAuthenticator[], userVerification: 'required' | 'preferred') {
  const { webauthn } = deps.config.mfa;
  const { generateAuthenticationOptions } = await webauthnLibrary();
  const options = await generateAuthenticationOptions({ rpID: webauthn.rpId, allowCredentials: allowed.map(descriptor), userVerification, timeout: webauthn.timeout });
  return { options, challengeHash: hashSecret(options.challenge) };
}

/** The origins accepted: the configured ones, or (MFA_WEBAUTHN_ALLOW_INSECURE_ORIGIN) whatever the browser reports. */
function expectedOrigins(deps: Deps, credential: { response?: { clientDataJSON?: unknown } }): string[] {
  const { webauthn } = deps.config.mfa;
  if (!webauthn.allowInsecureOrigin) return webauthn.origins;
  try {
    const clientData = JSON.parse(Buffer.from(String(credential.response?.clientDataJSON), 'base64url').toString('utf8')) as { origin?: unknown };
    return typeof clientData.origin === 'string' ? [clientData.origin] : webauthn.origins;
  } catch {
    return webauthn.origins;
  }
}

/** What every response is checked against: the challenge held for it (by hash), the origins and the RP id. */
function expectations(deps: Deps, response: { response?: { clientDataJSON?: unknown } }, challengeHash: string, requireUserVerification: boolean) {
  return {
    expectedChallenge: (challenge: string) => constantTimeEqual(hashSecret(challenge), challengeHash),
    expectedOrigin: expectedOrigins(deps, response),
    expectedRPID: deps.config.mfa.webauthn.rpId,
    requireUserVerification,
  };
}

function bytes(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

/** Checks a new credential against the challenge issued for it; null when it does not hold. */
export async function verifyCreation(deps: Deps, credential: Record<string, unknown>, challengeHash: string, requireUserVerification: boolean): Promise<NewCredential | null> {
  const response = credential as unknown as RegistrationResponseJSON;
  if (!bytes(response.id) || typeof response.response !== 'object' || response.response === null) return null;
  try {
    const { verifyRegistrationResponse } = await webauthnLibrary();
    const verified = await verifyRegistrationResponse({ response, ...expectations(deps, response, challengeHash, requireUserVerification) });
    if (!verified.verified) return null;
    const { credential: made } = verified.registrationInfo;
    const transports = Array.isArray(response.response.transports) ? response.response.transports.filter((t): t is NonNullable<typeof t> => typeof t === 'string').slice(0, 10) : [];
    const rk = (response.clientExtensionResults as { credProps?: { rk?: unknown } } | undefined)?.credProps?.rk;
    return {
      credentialId: made.id,
      publicKey: Buffer.from(made.publicKey).toString('base64url'),
      signCount: made.counter,
      transports,
      passwordless: typeof rk === 'boolean' ? rk : null,
    };
  } catch {
    return null;
  }
}

/** The credential id an assertion claims to be made with, if it has one. */
export function assertedCredentialId(credential: Record<string, unknown>): string | null {
  return bytes(credential.id) && credential.id.length <= 1024 ? credential.id : null;
}

/** What an assertion is checked against. */
export type KeyToCheck = Pick<WebAuthnAuthenticator, 'credentialId' | 'publicKey' | 'signCount' | 'transports'>;

let decoy: Promise<KeyToCheck> | undefined;

/**
 * A P-256 key whose private half is dropped at once, so no assertion
 * verifies against it: checked in place of a credential id that names no
 * key, it gives an unknown id the work and the answer of a wrong signature.
 */
export function decoyKey(): Promise<KeyToCheck> {
  decoy ??= import('@simplewebauthn/server/helpers').then(({ isoCBOR }) => {
    const { x, y } = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' });
    // COSE_Key: kty EC2, alg ES256, crv P-256, x, y.
    const cose = new Map<number, number | Uint8Array>([[1, 2], [3, -7], [-1, 1], [-2, Buffer.from(x!, 'base64url')], [-3, Buffer.from(y!, 'base64url')]]);
    return { credentialId: '', publicKey: Buffer.from(isoCBOR.encode(cose)).toString('base64url'), signCount: 0, transports: [] };
  });
  return decoy;
}

/**
 * Checks an assertion made with `authenticator` against the challenge; the
 * signature counter it reports must have moved on (unless the key keeps
 * none). Its new counter, or null when it does not hold.
 */
export async function verifyAssertion(
  deps: Deps,
  credential: Record<string, unknown>,
  challengeHash: string,
  authenticator: KeyToCheck,
  requireUserVerification: boolean,
): Promise<number | null> {
  const response = credential as unknown as AuthenticationResponseJSON;
  try {
    const { verifyAuthenticationResponse } = await webauthnLibrary();
    const verified = await verifyAuthenticationResponse({
      response,
      ...expectations(deps, response, challengeHash, requireUserVerification),
      credential: { id: authenticator.credentialId, publicKey: Buffer.from(authenticator.publicKey, 'base64url'), counter: authenticator.signCount, transports: authenticator.transports as never },
    });
    return verified.verified ? verified.authenticationInfo.newCounter : null;
  } catch {
    return null;
  }
}
