// Security keys and passkeys in the browser: the server's options (the
// reference's JSON envelope) in, the credential as JSON out, for the
// console's sign-in and its enrolment alike.

/** Whether this browser can use WebAuthn here (a secure context with the API). */
export const webauthnAvailable = () => typeof PublicKeyCredential !== 'undefined' && typeof PublicKeyCredential.parseCreationOptionsFromJSON === 'function';

/** navigator.credentials.create() for `data.creation_options`; the new credential as JSON. */
export async function createCredential(data) {
  const credential = await navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(data.creation_options.publicKey) });
  return credential.toJSON();
}

/** navigator.credentials.get() for `data.request_options`; the assertion as JSON. */
export async function getAssertion(data) {
  const credential = await navigator.credentials.get({ publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(data.request_options.publicKey) });
  return credential.toJSON();
}

/** True when the person closed the browser's prompt or it timed out (not an error worth more than a word). */
export const cancelled = (error) => error?.name === 'NotAllowedError' || error?.name === 'AbortError';
