import { declareOAuth2Provider } from '../../kit/declared-provider.js';
import { isObject } from '../../kit/api.js';
import { pick } from '../../kit/fields.js';

// LinkedIn's OAuth 2 (the v2 member API; "Sign In with LinkedIn using
// OpenID Connect" is an openid_connect app): the code is exchanged with a
// GET; the address from the emailAddress projection (a failure there is not
// fatal), the member from /v2/me with PROFILE_FIELDS; names may be localized
// maps, read in the member's preferred locale.
const API = 'https://api.linkedin.com/v2';

/** A plain string, or the value of a `localized` map for the preferred locale (else its first value). */
function localized(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (!isObject(value) || !isObject(value.localized)) return undefined;
  const preferred = isObject(value.preferredLocale) ? `${String(value.preferredLocale.language)}_${String(value.preferredLocale.country)}` : 'en_US';
  const found = value.localized[preferred] ?? Object.values(value.localized)[0];
  return typeof found === 'string' ? found : undefined;
}

export const linkedinOauth2 = declareOAuth2Provider({
  id: 'linkedin_oauth2',
  name: 'LinkedIn',
  settings: { profile_fields: { kind: 'strings' }, headers: { kind: 'params' }, profilepicture: { kind: 'json' } },
  authorizeUrl: 'https://www.linkedin.com/oauth/v2/authorization',
  tokenUrl: 'https://www.linkedin.com/oauth/v2/accessToken',
  token: { method: 'GET' },
  scope: (_s, queryEmail) => (queryEmail ? ['r_liteprofile', 'r_emailaddress'] : ['r_liteprofile']),
  profile: async ({ api, settings, context }) => {
    const headers = (settings.headers as Record<string, string> | undefined) ?? {};
    let data: Record<string, unknown> = {};
    if (context.queryEmail) {
      const email = await api.answer(`${API}/emailAddress?q=members&projection=(elements*(handle~))`, { headers });
      if (email.status === 200 && isObject(email.body)) data = email.body;
    }
    const fields = (settings.profile_fields as string[] | undefined) ?? ['id', 'firstName', 'lastName'];
    return { ...data, ...(await api.object(`${API}/me?projection=(${fields.join(',')})`, { headers })) };
  },
  uid: 'id',
  email: (data) => pick(data, 'elements.0.handle~.emailAddress'),
  firstName: (data) => localized(data.firstName),
  lastName: (data) => localized(data.lastName),
});
