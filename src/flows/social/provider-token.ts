import { Type, type Static } from 'typebox';
import type { Deps, RequestContext } from '../context.js';
import { invalid, type FieldError, type Outcome } from '../outcome.js';
import { providerType } from '../../social/providers/index.js';
import type { Authenticated } from '../../social/provider-type.js';
import { hashSecret } from '../../security/secrets.js';
import { recordTokenUse } from '../../store/social-token-uses.js';
import { cleanIdentity } from './identity.js';
import { completeSocialLogin, type Process } from './social-login.js';

// POST /auth/provider/token: tokens the client obtained from the provider by
// itself (a mobile SDK, Google One Tap), handed over to log in or connect.
// Input errors come in the reference's order and with its codes.

/** POST /auth/provider/token's body. */
export const ProviderTokenInput = Type.Object({
  provider: Type.Optional(Type.String({ description: 'The provider id (see /config).' })),
  process: Type.Optional(Type.String({ description: '`login` or `connect` (to the logged-in account).' })),
  // Checked here, not by the schema: a token that is not an object answers invalid_token, as the reference.
  token: Type.Optional(
    Type.Unknown({ description: 'An object: `client_id` (the app\'s client id, required) and `id_token` and/or `access_token` (strings).' }),
  ),
});
export type ProviderTokenInput = Static<typeof ProviderTokenInput>;

const PROCESSES: readonly string[] = ['login', 'connect'];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export async function providerToken(deps: Deps, ctx: RequestContext, input: ProviderTokenInput): Promise<Outcome> {
  const limit = await deps.limiter.consume('login', { ip: ctx.ip });
  if (!limit.ok) return { kind: 'rate_limited', retryAfterSeconds: limit.retryAfterSeconds };

  const errors: FieldError[] = [];
  if (!input.provider) errors.push({ code: 'required', param: 'provider' });
  if (!input.process) errors.push({ code: 'required', param: 'process' });
  else if (!PROCESSES.includes(input.process)) errors.push({ code: 'invalid_choice', param: 'process' });
  const token = input.token;
  if (token === undefined) errors.push({ code: 'required', param: 'token' });
  else if (!isObject(token)) errors.push({ code: 'invalid_token', param: 'token' });

  let provider;
  if (input.provider && isObject(token)) {
    const { client_id: clientId, id_token: idToken, access_token: accessToken } = token;
    provider = typeof clientId === 'string' ? deps.social.get(input.provider, clientId) : undefined;
    if (typeof clientId !== 'string') errors.push({ code: 'client_id_required', param: 'token' });
    else if (!provider) errors.push({ code: 'invalid_token', param: 'token' });
    // The reference's order: the provider must take tokens before the token's fields are looked at (its clean_provider, so param provider).
    else if (!providerType(provider.app.type)?.flows.includes('provider_token')) errors.push({ code: 'token_authentication_not_supported', param: 'provider' });
    else if ((idToken !== undefined && typeof idToken !== 'string') || (accessToken !== undefined && typeof accessToken !== 'string') || (!idToken && !accessToken)) {
      errors.push({ code: 'token_required', param: 'token' });
    }
  }
  if (errors.length > 0 || !provider || !isObject(token)) return invalid(...errors);

  const verified = await verify(deps, () => provider.verifyToken({ idToken: (token.id_token as string) || undefined, accessToken: (token.access_token as string) || undefined }));
  if (!verified) return invalid({ code: 'invalid_token', param: 'token' });
  const login = { app: provider.app, identity: cleanIdentity(provider.app, verified.identity), tokens: verified.tokens };
  return completeSocialLogin(deps, ctx, provider, login, input.process as Process);
}

/**
 * The provider's verdict, null when the token does not hold. An ID token
 * with a jti is accepted once: the database remembers it until it expires,
 * on every instance alike.
 */
async function verify(deps: Deps, check: () => Promise<Authenticated | null>): Promise<Authenticated | null> {
  let verified: Authenticated | null;
  try {
    verified = await check();
  } catch (error) {
    // The provider could not be reached or answered nonsense: the reference answers invalid_token too.
    deps.log.warn({ err: error }, 'provider token check failed');
    return null;
  }
  const use = verified?.tokenUse;
  if (use && !(await recordTokenUse(deps.db, hashSecret(`${use.issuer}\n${use.jti}`), use.expiresAt))) return null;
  return verified;
}
