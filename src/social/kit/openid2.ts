import { ProviderError, type CallbackProtocol } from '../provider-type.js';

// OpenID 2.0 (openid.net/specs/openid-authentication-2_0.html) as a relying
// party without associations: the browser goes to the OP with checkid_setup,
// and the positive assertion it brings back is believed only after the OP
// itself confirmed it (check_authentication, section 11.4.2), and only when
// the OP signed every field we rely on. Replays are refused by our state:
// it rides in the signed return_to and is redeemed once.

export const OPENID_NS = 'http://specs.openid.net/auth/2.0';
const IDENTIFIER_SELECT = 'http://specs.openid.net/auth/2.0/identifier_select';
/** Section 10.1: the OP must sign these; an assertion that leaves one unsigned could have been altered. */
const MUST_BE_SIGNED = ['op_endpoint', 'return_to', 'response_nonce', 'assoc_handle', 'claimed_id', 'identity'];

/** OpenID 2.0's callback: our state is in the return_to's query; openid.mode says how it went. */
export const OPENID2_CALLBACK: CallbackProtocol = {
  path: 'callback/',
  stateKey: (params) => params.get('state'),
  answer(params) {
    const mode = params.get('openid.mode');
    return mode === 'id_res' ? 'answered' : mode === 'cancel' ? 'cancelled' : 'failed';
  },
};

/** The return_to of a flow: the callback with the state in its query (the OP signs it and sends it back). */
export function returnTo(redirectUri: string, state: string): string {
  const url = new URL(redirectUri);
  url.searchParams.set('state', state);
  return url.toString();
}

/** Where the browser goes: the OP's endpoint with a checkid_setup request, the OP choosing the identifier. */
export function checkidSetupUrl(endpoint: string, parameters: { returnTo: string; realm: string }): URL {
  const url = new URL(endpoint);
  url.searchParams.set('openid.ns', OPENID_NS);
  url.searchParams.set('openid.mode', 'checkid_setup');
  url.searchParams.set('openid.return_to', parameters.returnTo);
  url.searchParams.set('openid.realm', parameters.realm);
  url.searchParams.set('openid.identity', IDENTIFIER_SELECT);
  url.searchParams.set('openid.claimed_id', IDENTIFIER_SELECT);
  return url;
}

/** Section 4.1.1: `key:value` lines. */
function keyValues(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const line of text.split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) fields.set(line.slice(0, colon), line.slice(colon + 1));
  }
  return fields;
}

/**
 * The claimed identifier of a positive assertion, once it is known to be
 * for us (return_to), from this OP (op_endpoint), with every field that
 * matters signed, and confirmed by the OP; else a ProviderError.
 */
export async function verifyAssertion(
  endpoint: string,
  params: URLSearchParams,
  expected: { returnTo: string; timeoutSeconds: number; reachedAt?: string },
): Promise<string> {
  const field = (name: string) => params.get(`openid.${name}`);
  if (field('ns') !== OPENID_NS || field('mode') !== 'id_res') throw new ProviderError('not an OpenID 2.0 positive assertion');
  if (field('op_endpoint') !== endpoint) throw new ProviderError('the assertion names another OP endpoint');
  // Exactly the return_to we sent (it holds the state): an assertion made for another flow or site is not ours.
  if (field('return_to') !== expected.returnTo) throw new ProviderError('the assertion was made for another return_to');
  const claimedId = field('claimed_id');
  if (!claimedId || field('identity') === null) throw new ProviderError('the assertion names no identifier');
  const signed = new Set((field('signed') ?? '').split(','));
  const unsigned = MUST_BE_SIGNED.filter((name) => !signed.has(name));
  if (unsigned.length > 0) throw new ProviderError(`the assertion leaves ${unsigned.join(', ')} unsigned`);

  // Section 11.4.2.1: the same fields back to the OP, only the mode changed.
  const body = new URLSearchParams();
  for (const [name, value] of params) if (name.startsWith('openid.')) body.append(name, name === 'openid.mode' ? 'check_authentication' : value);
  let answer: string;
  try {
    // The OP as this server reaches it (SOCIALACCOUNT_PROVIDER_ORIGINS), the endpoint it names itself by otherwise.
    const response = await fetch(expected.reachedAt ?? endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: body.toString(),
      redirect: 'manual',
      signal: AbortSignal.timeout(expected.timeoutSeconds * 1000),
    });
    answer = response.status === 200 ? await response.text() : '';
  } catch (error) {
    throw new ProviderError(`check_authentication failed: ${(error as Error).message}`, { cause: error });
  }
  if (keyValues(answer).get('is_valid') !== 'true') throw new ProviderError('the OP did not confirm the assertion');
  return claimedId;
}
