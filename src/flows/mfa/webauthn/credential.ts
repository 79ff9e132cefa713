import { Type } from 'typebox';

// The inputs of the WebAuthn flows: a credential as the browser serialised it
// (relying-party.ts checks it field by field), and a key's name.

/** Shared by every WebAuthn input under its $id (the http layer registers it once). */
export const Credential = Type.Object(
  {},
  {
    $id: 'Credential',
    additionalProperties: true,
    description:
      'The PublicKeyCredential as JSON (`credential.toJSON()`): `{type: "public-key", id, rawId, authenticatorAttachment?, response: {clientDataJSON, attestationObject, transports?} | {clientDataJSON, authenticatorData, signature, userHandle?}, clientExtensionResults}`, binaries in base64url.',
  },
);

/** The credential, typed for the flows (which check it field by field). */
export const CredentialRef = Type.Unsafe<Record<string, unknown>>(Type.Ref('Credential'));

/** The body of an assertion: the second factor, reauthentication, passkey login. */
export const CredentialInput = Type.Object({ credential: CredentialRef });

export const KeyName = Type.String({ description: 'Up to 100 characters.' });
