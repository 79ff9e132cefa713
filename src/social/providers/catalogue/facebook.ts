import { createHmac } from 'node:crypto';
import { declareOAuth2Provider, type Settings, type TokenFlowInput } from '../../kit/declared-provider.js';
import { providerApi } from '../../kit/provider-api.js';
import { cachedFor } from '../../kit/cached.js';
import { remoteKeys, verifyIdToken } from '../../kit/id-token.js';
import { text } from '../../kit/claims.js';
import { ProviderError, type Authenticated, type ProviderContext } from '../../provider-type.js';

// Facebook Login: Graph API at a pinned VERSION; the code is exchanged with
// a GET; /me with the FIELDS and an appsecret_proof (HMAC-SHA256 of the token
// under the app secret). The token flow takes an access token, checked with
// debug_token under the app's own token to belong to this app, or an iOS
// Limited Login ID token (signed by Facebook's keys), mapped to Graph's field
// names as the reference does. Facebook's addresses never count as verified.

const FIELDS = ['id', 'email', 'name', 'first_name', 'last_name', 'verified', 'locale', 'timezone', 'link', 'gender', 'updated_time'];
const LIMITED_LOGIN_ISSUER = 'https://www.facebook.com';
const LIMITED_LOGIN_KEYS = 'https://limited.facebook.com/.well-known/oauth/openid/jwks/';
const CLAIMS_TO_GRAPH: Record<string, string> = { sub: 'id', email: 'email', given_name: 'first_name', family_name: 'last_name', name: 'name', user_link: 'link' };

const graph = (s: Settings) => (s.graph_api_url as string | undefined) ?? `https://graph.facebook.com/${s.version as string}`;

async function me(context: ProviderContext, settings: Settings, accessToken: string): Promise<Record<string, unknown>> {
  const proof = createHmac('sha256', context.app.secret).update(accessToken).digest('hex');
  const fields = (settings.fields as string[] | undefined) ?? FIELDS;
  return providerApi(context, accessToken).object(`${graph(settings)}/me`, { token: { query: 'access_token' }, query: { fields: fields.join(','), appsecret_proof: proof } });
}

/** The app's own token (client credentials), kept for APP_TOKEN_CACHE_TIMEOUT seconds per app. */
const appTokens = new WeakMap<ProviderContext, () => Promise<string>>();
function appToken(context: ProviderContext, settings: Settings): Promise<string> {
  let load = appTokens.get(context);
  if (!load) {
    const ttl = Number(settings.app_token_cache_timeout ?? 300) * 1000;
    load = cachedFor(ttl, async () => {
      const { app } = context;
      const answer = await providerApi(context, '').object(`${graph(settings)}/oauth/access_token`, {
        token: 'none',
        query: { client_id: app.clientId, client_secret: app.secret, grant_type: 'client_credentials' },
      });
      const token = text(answer.access_token);
      if (!token) throw new ProviderError('Facebook answered no app token');
      return token;
    });
    appTokens.set(context, load);
  }
  return load();
}

async function accessTokenLogin(input: TokenFlowInput, accessToken: string): Promise<Authenticated | null> {
  const { context, settings } = input;
  const { app } = context;
  const api = providerApi(context, '');
  const inspected = await api.object(`${graph(settings)}/debug_token`, { token: 'none', query: { input_token: accessToken, access_token: await appToken(context, settings) } });
  const data = inspected.data as Record<string, unknown> | undefined;
  if (!data || data.is_valid !== true || data.app_id !== app.clientId) return null;
  let token = accessToken;
  let expiresAt: number | null = null;
  if (settings.exchange_token === true) {
    const exchanged = await api.object(`${graph(settings)}/oauth/access_token`, {
      token: 'none',
      query: { grant_type: 'fb_exchange_token', client_id: app.clientId, client_secret: app.secret, fb_exchange_token: accessToken },
    });
    token = text(exchanged.access_token) ?? token;
    const expiresIn = Number(exchanged.expires_in);
    if (expiresIn > 0) expiresAt = context.now() + expiresIn * 1000;
  }
  return { identity: input.identityOf(await me(context, settings, token)), tokens: { accessToken: token, refreshToken: null, expiresAt } };
}

const limitedLoginKeys = new WeakMap<ProviderContext, ReturnType<typeof remoteKeys>>();
async function limitedLogin(input: TokenFlowInput, idToken: string): Promise<Authenticated | null> {
  const { context } = input;
  let keys = limitedLoginKeys.get(context);
  if (!keys) limitedLoginKeys.set(context, (keys = remoteKeys(context.endpoint(LIMITED_LOGIN_KEYS), context.timeoutSeconds)));
  // As the reference's headless flow: no nonce to compare with (the app made the request).
  const verified = await verifyIdToken(idToken, { keys, algorithms: ['RS256'], issuer: () => LIMITED_LOGIN_ISSUER, audiences: [context.app.clientId], now: context.now() });
  if (!verified) return null;
  const data: Record<string, unknown> = {};
  for (const [claim, field] of Object.entries(CLAIMS_TO_GRAPH)) if (verified.claims[claim] !== undefined) data[field] = verified.claims[claim];
  return { identity: input.identityOf(data), tokens: null, tokenUse: verified.tokenUse };
}

export const facebook = declareOAuth2Provider({
  id: 'facebook',
  name: 'Facebook',
  settings: {
    version: { kind: 'string', default: 'v19.0' },
    graph_api_url: { kind: 'url' },
    authorize_url: { kind: 'url' },
    fields: { kind: 'strings' },
    exchange_token: { kind: 'boolean' },
    app_token_cache_timeout: { kind: 'json' },
    // The JavaScript SDK's settings: a headless server has no page to load it on, so they are accepted and unused.
    method: { kind: 'string', oneOf: ['oauth2', 'js_sdk'] },
    sdk_url: { kind: 'json' },
    init_params: { kind: 'json' },
    locale_func: { kind: 'json' },
  },
  authorizeUrl: (s) => (s.authorize_url as string | undefined) ?? `https://www.facebook.com/${s.version as string}/dialog/oauth`,
  tokenUrl: (s) => `${graph(s)}/oauth/access_token`,
  token: { method: 'GET' },
  scope: (_s, queryEmail) => (queryEmail ? ['email'] : []),
  scopeDelimiter: ',',
  profile: ({ context, settings, token }) => me(context, settings, token.tokens.accessToken),
  uid: 'id',
  email: 'email',
  verified: false,
  username: 'username',
  fullName: 'name',
  firstName: 'first_name',
  lastName: 'last_name',
  async tokenFlow(input) {
    if (input.accessToken) return accessTokenLogin(input, input.accessToken);
    return input.idToken ? limitedLogin(input, input.idToken) : null;
  },
});
