import { Type } from 'typebox';
import { Credential } from '../../../flows/mfa/webauthn/credential.js';

// Wire shapes of the MFA endpoints. As everywhere, response schemas are also
// the serializers: no field reaches a client unless it is named here.

export const Authenticator = Type.Object(
  {
    type: Type.String({ description: 'totp, recovery_codes or webauthn.' }),
    created_at: Type.Number({ description: 'Unix time in seconds.' }),
    last_used_at: Type.Unsafe<number | null>({ type: ['number', 'null'], description: 'Unix time in seconds; null until first used.' }),
    total_code_count: Type.Optional(Type.Integer({ description: 'Recovery codes: how many were made.' })),
    unused_code_count: Type.Optional(Type.Integer({ description: 'Recovery codes: how many are left.' })),
    unused_codes: Type.Optional(Type.Array(Type.String(), { description: 'Recovery codes: the unused ones, in generation order (only on the recovery-codes endpoint).' })),
    id: Type.Optional(Type.Integer({ description: 'WebAuthn: the authenticator id (for renaming and deleting).' })),
    name: Type.Optional(Type.String({ description: 'WebAuthn: the name given to the key.' })),
    is_passwordless: Type.Optional(Type.Boolean({ description: 'WebAuthn: a discoverable credential (passkey); absent when the browser did not say.' })),
  },
  { $id: 'Authenticator' },
);

export const AuthenticatorResponse = Type.Object({
  status: Type.Integer(),
  data: Type.Ref('Authenticator'),
  meta: Type.Optional(Type.Object({ recovery_codes_generated: Type.Boolean({ description: 'Recovery codes were made along with this first second factor.' }) })),
});

export const AuthenticatorsResponse = Type.Object({ status: Type.Integer(), data: Type.Array(Type.Ref('Authenticator')) });

export const TotpSetupResponse = Type.Object(
  {
    status: Type.Integer(),
    meta: Type.Object({
      secret: Type.String({ description: 'A new base32 secret (32 characters); only the latest one offered to this session can be activated.' }),
      totp_url: Type.String({ description: 'The otpauth:// provisioning URL.' }),
      qr_code_url: Type.String({ description: 'The provisioning URL as a QR code: an SVG data URL for an <img> tag.' }),
    }),
  },
  { description: 'No TOTP authenticator yet: a new secret to set one up with.' },
);

export const CodeBody = Type.Object({ code: Type.String({ minLength: 1, maxLength: 64, description: 'A TOTP code or an unused recovery code.' }) });


const PublicKey = Type.Object({}, { additionalProperties: true, description: 'WebAuthn options as JSON (PublicKeyCredentialCreationOptionsJSON / PublicKeyCredentialRequestOptionsJSON), binaries in base64url.' });

export const WebAuthnOptionsResponse = Type.Object(
  {
    status: Type.Integer(),
    data: Type.Object({
      creation_options: Type.Optional(Type.Object({ publicKey: PublicKey }, { description: 'For navigator.credentials.create(); parse with PublicKeyCredential.parseCreationOptionsFromJSON().' })),
      request_options: Type.Optional(Type.Object({ publicKey: PublicKey }, { description: 'For navigator.credentials.get(); parse with PublicKeyCredential.parseRequestOptionsFromJSON().' })),
    }),
    meta: Type.Optional(Type.Object({ session_token: Type.Optional(Type.String({ description: 'App clients: the session that holds the challenge, when one was made for it.' })) })),
  },
  { description: 'Options for the browser\'s WebAuthn call; the challenge in them is kept with the session and is good for one answer.' },
);

export const mfaSchemas = [Authenticator, Credential];
